import { describe, expect, it } from 'vitest';
import { createCircuitBreaker } from './breaker';
import { createFakeClock } from './fake-clock.testkit';

const err = { code: 'PROVIDER_ERROR', message: 'HTTP 500' };

/** A breaker opened by 5 failures, on a fake clock. */
function opened() {
  const clock = createFakeClock();
  const b = createCircuitBreaker(clock);
  for (let i = 0; i < 5; i++) b.onFailure(err);
  return { clock, b };
}

describe('circuit breaker (5 failures, 30 s recovery)', () => {
  it('opens after 5 consecutive failures, not before', () => {
    const clock = createFakeClock();
    const b = createCircuitBreaker(clock);
    for (let i = 0; i < 4; i++) {
      expect(b.tryAcquire()).toBe(true);
      b.onFailure(err);
    }
    expect(b.snapshot().state).toBe('closed');
    expect(b.tryAcquire()).toBe(true);
    b.onFailure(err);
    expect(b.snapshot()).toMatchObject({
      state: 'open',
      consecutiveFailures: 5,
      lastError: { code: 'PROVIDER_ERROR' },
    });
    expect(b.tryAcquire()).toBe(false);
  });

  it('a success in between resets the count', () => {
    const b = createCircuitBreaker(createFakeClock());
    for (let i = 0; i < 4; i++) b.onFailure(err);
    b.onSuccess();
    for (let i = 0; i < 4; i++) b.onFailure(err);
    expect(b.snapshot().state).toBe('closed');
  });

  it('after 30 s lets exactly one half-open trial through; success closes', async () => {
    const { clock, b } = opened();
    expect(b.snapshot().retryAt).toBe(clock.now() + 30_000);
    await clock.advance(29_999);
    expect(b.tryAcquire()).toBe(false);
    await clock.advance(1);
    expect(b.snapshot().state).toBe('half-open');
    expect(b.tryAcquire()).toBe(true);
    expect(b.tryAcquire()).toBe(false); // only one trial
    b.onSuccess();
    expect(b.snapshot()).toMatchObject({ state: 'closed', consecutiveFailures: 0 });
    expect(b.tryAcquire()).toBe(true);
  });

  it('a failed trial re-opens for another 30 s', async () => {
    const { clock, b } = opened();
    await clock.advance(30_000);
    expect(b.tryAcquire()).toBe(true);
    b.onFailure({ code: 'TIMEOUT', message: 'slow' });
    expect(b.snapshot()).toMatchObject({ state: 'open', lastError: { code: 'TIMEOUT' } });
    expect(b.tryAcquire()).toBe(false);
    await clock.advance(30_000);
    expect(b.tryAcquire()).toBe(true);
  });

  it('a trial released without running frees the slot', async () => {
    const { clock, b } = opened();
    await clock.advance(30_000);
    expect(b.tryAcquire()).toBe(true);
    b.release();
    expect(b.tryAcquire()).toBe(true);
  });
});
