// Client-side pacing per provider: requests start at least `minIntervalMs` apart, in the order
// they asked (a FIFO of reserved slots). Owns: slot reservation on the injected clock.
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
  // Set by a Retry-After: also holds back callers that already hold an earlier slot.
  let blockedUntil = -Infinity;
  return {
    minIntervalMs,
    async acquire(signal) {
      for (;;) {
        const now = clock.now();
        const slot = Math.max(now, nextFree);
        nextFree = slot + minIntervalMs;
        if (slot > now) {
          try {
            await clock.sleep(slot - now, signal);
          } catch (err) {
            if (nextFree === slot + minIntervalMs) nextFree = slot;
            throw err;
          }
        }
        // A Retry-After that arrived while we waited voids this slot: queue again behind it.
        if (blockedUntil <= clock.now()) return;
      }
    },
    deferUntil(time) {
      blockedUntil = Math.max(blockedUntil, time);
      nextFree = Math.max(nextFree, time);
    },
  };
}
