// Coalesces fast updates (streamed answer text) into at most one per animation frame, so the
// DOM is updated at a bounded rate however fast tokens arrive. Pure apart from the scheduler.

/**
 * Streamed text reaches the store (and the DOM) at most once per animation frame, however fast
 * tokens arrive: the latest text wins, earlier ones are dropped.
 */
export function frameBatched(
  apply: (text: string) => void,
  schedule: (run: () => void) => void = (run) => requestAnimationFrame(() => run()),
): (text: string) => void {
  let latest: string | null = null;
  return (text) => {
    const scheduled = latest !== null;
    latest = text;
    if (scheduled) return;
    schedule(() => {
      const t = latest;
      latest = null;
      if (t !== null) apply(t);
    });
  };
}
