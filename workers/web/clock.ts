// Time and randomness as injected dependencies, so retries, breakers, rate limits and deadlines
// are tested on a fake clock. Owns: the Clock interface and the real implementation.
import { createError } from '../shared/errors';

export interface Clock {
  /** ms since epoch. */
  now(): number;
  /** Resolves after `ms`; rejects with AppError ABORTED when `signal` aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** Returns a number in [0, 1). */
export type RandomSource = () => number;

/**
 * A sleep that `schedule` ends by calling `done`, or that rejects with AppError ABORTED when
 * `signal` aborts first (then the cancel function `schedule` returned runs). Every clock's sleep
 * (real, fake, scaled) keeps the same abort rules through this one function.
 */
export function abortableSleep(
  signal: AbortSignal | undefined,
  schedule: (done: () => void) => () => void,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(createError('ABORTED'));
      return;
    }
    const cancel = schedule(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    });
    const onAbort = (): void => {
      cancel();
      reject(createError('ABORTED'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export const realClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    abortableSleep(signal, (done) => {
      const timer = setTimeout(done, Math.max(0, ms));
      return () => clearTimeout(timer);
    }),
};
