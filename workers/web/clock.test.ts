// The abort rules every clock's sleep shares (abortableSleep): an aborted signal rejects at once,
// an abort mid-sleep rejects and cancels the pending timer, and a sleep that ends resolves.
import { describe, expect, it } from 'vitest';
import { realClock } from './clock';
import { createFakeClock, createScaledClock } from './fake-clock.testkit';

const aborted = { name: 'AppError', code: 'ABORTED' };

describe('clock sleep and abort', () => {
  it('rejects with ABORTED at once when the signal has already aborted', async () => {
    const signal = AbortSignal.abort();
    for (const clock of [realClock, createFakeClock(), createScaledClock()])
      await expect(clock.sleep(10, signal)).rejects.toMatchObject(aborted);
  });

  it('rejects with ABORTED mid-sleep and drops the fake timer', async () => {
    const clock = createFakeClock();
    const controller = new AbortController();
    const sleeping = clock.sleep(1_000, controller.signal);
    expect(clock.pendingTimers()).toBe(1);
    controller.abort();
    await expect(sleeping).rejects.toMatchObject(aborted);
    expect(clock.pendingTimers()).toBe(0);
  });

  it('rejects a real sleep of an hour as soon as the signal aborts', async () => {
    const controller = new AbortController();
    const sleeping = realClock.sleep(3_600_000, controller.signal);
    controller.abort();
    await expect(sleeping).rejects.toMatchObject(aborted);
  });

  it('resolves when the time has passed, and a later abort changes nothing', async () => {
    const clock = createFakeClock(0);
    const controller = new AbortController();
    let done = false;
    const sleeping = clock.sleep(500, controller.signal).then(() => (done = true));
    await clock.advance(499);
    expect(done).toBe(false);
    await clock.advance(1);
    await sleeping;
    expect(done).toBe(true);
    controller.abort();
    expect(clock.now()).toBe(500);
  });
});
