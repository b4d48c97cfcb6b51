import { describe, expect, it } from 'vitest';
import { backoffDelay, DEFAULT_BACKOFF, parseRetryAfter } from './backoff';

describe('backoffDelay (base 1 s, max 60 s, jitter 0.5)', () => {
  it('doubles per attempt and keeps the random part within [0.5d, d]', () => {
    const lo = [0, 1, 2, 3, 4, 5].map((n) => backoffDelay(n, () => 0));
    const hi = [0, 1, 2, 3, 4, 5].map((n) => backoffDelay(n, () => 0.999999));
    expect(lo).toEqual([500, 1000, 2000, 4000, 8000, 16000]);
    hi.forEach((d, n) => expect(d).toBeCloseTo(1000 * 2 ** n, 0));
  });

  it('never exceeds max_delay, however many attempts', () => {
    for (let n = 0; n < 40; n++) {
      expect(backoffDelay(n, () => 0.999999)).toBeLessThanOrEqual(DEFAULT_BACKOFF.maxMs);
    }
    expect(backoffDelay(10, () => 0)).toBe(30_000);
  });

  it('seeded random stays inside the bounds (fuzz)', () => {
    const seed = Date.now() % 2 ** 31;
    let s = seed;
    const rnd = () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 1000; i++) {
      const n = i % 12;
      const d = backoffDelay(n, rnd);
      const cap = Math.min(60_000, 1000 * 2 ** n);
      expect(d, `seed ${seed}`).toBeGreaterThanOrEqual(cap * 0.5);
      expect(d, `seed ${seed}`).toBeLessThanOrEqual(cap);
    }
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2023-11-14T22:13:20Z');
  it('reads delta-seconds', () => {
    expect(parseRetryAfter('7', now)).toBe(7000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
  });
  it('reads an HTTP-date relative to the injected clock', () => {
    expect(parseRetryAfter('Tue, 14 Nov 2023 22:13:32 GMT', now)).toBe(12_000);
    expect(parseRetryAfter('Tue, 14 Nov 2023 22:00:00 GMT', now)).toBe(0);
  });
  it('ignores absent or unreadable values', () => {
    expect(parseRetryAfter(null, now)).toBeNull();
    expect(parseRetryAfter('', now)).toBeNull();
    expect(parseRetryAfter('-5', now)).toBeNull();
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter('1.5', now)).toBeNull();
  });
});
