// Test clocks. `createFakeClock` is a manual virtual clock: time moves only when a test advances
// it or runs a promise to completion over its timers. `createScaledClock` runs virtual time
// `1/scale` times faster than real time, for tests that also wait on real sockets.
// Test support only: never imported by production code.
import { abortableSleep, type Clock } from './clock';

interface Timer {
  at: number;
  seq: number;
  resolve: () => void;
}

export interface FakeClock extends Clock {
  /** Moves time forward by `ms`, firing due timers in order and letting their continuations run. */
  advance(ms: number): Promise<void>;
  /** Fires timers in time order until `promise` settles; throws if it can never settle. */
  run<T>(promise: Promise<T>, maxTimers?: number): Promise<T>;
  pendingTimers(): number;
  /** Every duration ever passed to sleep, in call order. */
  readonly sleeps: number[];
}

/** Lets pending promise continuations and setImmediate callbacks run. */
export async function flush(rounds = 5): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise<void>((r) => setImmediate(r));
}

export function createFakeClock(start = 1_700_000_000_000): FakeClock {
  let now = start;
  let seq = 0;
  const timers: Timer[] = [];
  const sleeps: number[] = [];

  function nextTimer(): Timer | undefined {
    timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
    return timers[0];
  }

  function fire(t: Timer): void {
    timers.splice(timers.indexOf(t), 1);
    now = Math.max(now, t.at);
    t.resolve();
  }

  return {
    sleeps,
    now: () => now,
    sleep(ms, signal) {
      sleeps.push(ms);
      return abortableSleep(signal, (done) => {
        const timer: Timer = { at: now + Math.max(0, ms), seq: seq++, resolve: done };
        timers.push(timer);
        return () => {
          const i = timers.indexOf(timer);
          if (i >= 0) timers.splice(i, 1);
        };
      });
    },
    async advance(ms) {
      const target = now + ms;
      await flush();
      for (;;) {
        const t = nextTimer();
        if (!t || t.at > target) break;
        fire(t);
        await flush();
      }
      now = Math.max(now, target);
      await flush();
    },
    async run(promise, maxTimers = 10_000) {
      let settled = false;
      promise.then(
        () => (settled = true),
        () => (settled = true),
      );
      for (let i = 0; i < maxTimers; i++) {
        await flush();
        if (settled) return promise;
        const t = nextTimer();
        if (!t) {
          await flush(20);
          if (settled) return promise;
          throw new Error(
            'FakeClock.run: the promise is waiting on something other than the clock',
          );
        }
        fire(t);
      }
      throw new Error('FakeClock.run: too many timers');
    },
    pendingTimers: () => timers.length,
  };
}

/** Virtual time that runs `1 / scale` times faster than real time (scale 0.001: 1 s in 1 ms). */
export function createScaledClock(
  scale = 0.001,
  start = 1_700_000_000_000,
): Clock & { readonly sleeps: number[] } {
  let virtual = start;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => virtual,
    sleep(ms, signal) {
      sleeps.push(ms);
      const from = virtual;
      return abortableSleep(signal, (done) => {
        const timer = setTimeout(
          () => {
            virtual = Math.max(virtual, from + ms);
            done();
          },
          Math.max(0, ms * scale),
        );
        return () => clearTimeout(timer);
      });
    },
  };
}
