// Calls that reach the connection's queue (Sql.serialized) while an earlier call of the same kind
// still waits there join it: one job serves them all, so what they have in common is read once (a
// query plan's concurrent keyword rankings share stems, term statistics and posting lists). Each
// call still gets its own result or its own error. Pure plumbing: must not import anything.

/** One job's outcome per call, in call order (a rejected entry rejects only that call). */
export type BatchRunner<Q, R> = (items: readonly Q[]) => Promise<Array<PromiseSettledResult<R>>>;

/**
 * `run` behind the queue `serialized`, coalescing: a call joins the batch that waits in the queue
 * (not yet started), else starts the next one. A call never joins a job that has started, so it
 * sees every write that completed before it was made.
 */
export function batchedInQueue<Q, R>(
  serialized: <T>(fn: () => Promise<T>) => Promise<T>,
  run: BatchRunner<Q, R>,
): (item: Q) => Promise<R> {
  type Waiter = { item: Q; resolve: (r: R) => void; reject: (e: unknown) => void };
  let waiting: Waiter[] | null = null;
  return (item) =>
    new Promise<R>((resolve, reject) => {
      if (waiting) {
        waiting.push({ item, resolve, reject });
        return;
      }
      const batch: Waiter[] = [{ item, resolve, reject }];
      waiting = batch;
      serialized(async () => {
        waiting = null; // from here on, calls start the next job
        const settled = await run(batch.map((w) => w.item));
        batch.forEach((w, i) => {
          const s = settled[i];
          if (s?.status === 'fulfilled') w.resolve(s.value);
          else w.reject(s ? s.reason : new Error('batch returned no result for a call'));
        });
      }).catch((err: unknown) => batch.forEach((w) => w.reject(err)));
    });
}
