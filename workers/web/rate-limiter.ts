// Client-side pacing per provider: requests start at least `minIntervalMs` apart, in the order
// they asked (a FIFO of reserved slots). Owns: slot reservation on the injected clock.
// Must not import anything outside workers/shared and this folder.
import type { Clock } from './clock';

export interface RateLimiter {
  /**
   * Waits for this caller's slot. Rejects with AppError ABORTED when `signal` aborts first
   * (the slot is then given back if no later caller has reserved after it).
   */
  acquire(signal?: AbortSignal): Promise<void>;
  /** Pushes the next slot back, e.g. after a 429 with Retry-After. */
  deferUntil(time: number): void;
  readonly minIntervalMs: number;
}

export function createRateLimiter(clock: Clock, minIntervalMs: number): RateLimiter {
  // Time before which no new request may start.
  let nextFree = -Infinity;
  return {
    minIntervalMs,
    async acquire(signal) {
      const now = clock.now();
      const slot = Math.max(now, nextFree);
      nextFree = slot + minIntervalMs;
      const wait = slot - now;
      if (wait <= 0) return;
      try {
        await clock.sleep(wait, signal);
      } catch (err) {
        if (nextFree === slot + minIntervalMs) nextFree = slot;
        throw err;
      }
    },
    deferUntil(time) {
      nextFree = Math.max(nextFree, time);
    },
  };
}
