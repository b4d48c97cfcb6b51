// Embedding speed and time left for the progress a user sees: chunks per second over a sliding
// window of recent samples (so a pause, a slow model load or a burst of reused vectors fades out),
// and the ETA of the rest at that rate. The clock is injected. Imports nothing.

export interface RateMeter {
  /** Records that `done` items were finished by now (a count that only grows within a run). */
  sample(done: number): void;
  /** Items per second over the window; null until two samples lie `minSpanMs` apart. */
  rate(): number | null;
  /** Seconds to finish `remaining` items at the current rate; null when there is no rate. */
  eta(remaining: number): number | null;
  /** Forgets every sample (a new run, or a resume after a pause). */
  reset(): void;
}

export function createRateMeter(
  now: () => number,
  options: { windowMs?: number; minSpanMs?: number } = {},
): RateMeter {
  const windowMs = options.windowMs ?? 20_000;
  const minSpanMs = options.minSpanMs ?? 1_000;
  let samples: Array<{ t: number; done: number }> = [];
  const rate = (): number | null => {
    const first = samples[0];
    const last = samples.at(-1);
    if (!first || !last || last.t - first.t < minSpanMs) return null;
    return ((last.done - first.done) * 1000) / (last.t - first.t);
  };
  return {
    sample(done) {
      const t = now();
      samples.push({ t, done });
      // Keep one sample older than the window so the span stays about windowMs long.
      while (samples.length > 2 && t - samples[1]!.t >= windowMs) samples.shift();
    },
    rate,
    eta(remaining) {
      const r = rate();
      if (r === null || r <= 0) return null;
      return Math.max(0, remaining) / r;
    },
    reset() {
      samples = [];
    },
  };
}
