// Time and randomness as injected dependencies, so retries, breakers, rate limits and deadlines
// are tested on a fake clock. Owns: the Clock interface and the real implementation.
// Must not import anything outside workers/shared.
import { createError } from '../shared/errors';

export interface Clock {
  /** ms since epoch. */
  now(): number;
  /** Resolves after `ms`; rejects with AppError ABORTED when `signal` aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** Returns a number in [0, 1). */
export type RandomSource = () => number;

export const realClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(createError('ABORTED'));
        return;
      }
      const timer = setTimeout(
        () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        Math.max(0, ms),
      );
      const onAbort = (): void => {
        clearTimeout(timer);
        reject(createError('ABORTED'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};
