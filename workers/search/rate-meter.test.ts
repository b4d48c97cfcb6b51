// The embedding rate and ETA shown in the progress bar: measured over a sliding window, null until
// there is enough to measure, and forgetting a pause once reset.
import { describe, expect, it } from 'vitest';
import { createRateMeter } from './rate-meter';

describe('createRateMeter', () => {
  it('measures items per second over the window and the time left', () => {
    let t = 0;
    const meter = createRateMeter(() => t, { windowMs: 10_000, minSpanMs: 1_000 });
    meter.sample(0);
    expect(meter.rate()).toBeNull();
    expect(meter.eta(100)).toBeNull();
    t = 500;
    meter.sample(10);
    expect(meter.rate()).toBeNull(); // less than a second of evidence
    t = 2_000;
    meter.sample(40);
    expect(meter.rate()).toBeCloseTo(20);
    expect(meter.eta(100)).toBeCloseTo(5);
  });

  it('follows a change of speed once the old samples leave the window', () => {
    let t = 0;
    const meter = createRateMeter(() => t, { windowMs: 5_000 });
    for (let s = 0; s <= 10; s++) {
      t = s * 1000;
      meter.sample(s * 100); // 100/s for ten seconds
    }
    for (let s = 11; s <= 30; s++) {
      t = s * 1000;
      meter.sample(1000 + (s - 10) * 10); // then 10/s
    }
    expect(meter.rate()).toBeCloseTo(10);
    meter.reset();
    expect(meter.rate()).toBeNull();
  });
});
