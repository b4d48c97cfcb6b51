// The embed-worker pool, for the app (browser embed workers behind Comlink ports) and the eval CLI
// (Node worker threads) alike: splits texts into batches run on `size` workers, keeps input order,
// sums progress, and replaces a worker whose batch fails (the batch goes back to the queue and is
// retried on another worker, at most `maxAttempts` times, so nothing is lost or embedded twice).
// A worker that goes silent on a batch (no answer, no progress for `hangTimeoutMs`) is treated the
// same way: terminated, its batch retried on a fresh worker; a late answer from it is ignored.
// Workers are made by the injected `spawn`.
import { createError, isAppError } from '../shared/errors';
import type {
  EmbedPool,
  EmbedPoolOptions,
  EmbedPoolWorker as PoolWorker,
} from '../shared/embed-api';

export type { EmbedPool, EmbedPoolOptions, PoolWorker };

interface Slot<W> {
  worker: Promise<W>;
  /** Batches running on it now (from any call). */
  busy: number;
  /** Out of the pool: stopped as soon as it is idle. */
  retired: boolean;
  stopped: boolean;
}

interface Batch {
  start: number;
  end: number;
  attempts: number;
}

const isAborted = (err: unknown) => isAppError(err) && err.code === 'ABORTED';

const DEFAULT_HANG_TIMEOUT_MS = 120_000;
const defaultTimers = {
  set: (fn: () => void, ms: number): unknown => setTimeout(fn, ms),
  clear: (handle: unknown) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * `work` raced against a hang clock that `alive()` restarts: rejects with TIMEOUT when `ms` pass
 * without an answer or a sign of life. The work's own late outcome is swallowed.
 */
function withHangClock<T>(
  work: (alive: () => void) => Promise<T>,
  ms: number,
  timers: NonNullable<EmbedPoolOptions<PoolWorker>['timers']>,
): Promise<T> {
  if (!(ms > 0)) return work(() => undefined);
  return new Promise<T>((resolve, reject) => {
    let handle: unknown;
    let settled = false;
    const arm = () => {
      if (settled) return;
      if (handle !== undefined) timers.clear(handle);
      handle = timers.set(() => {
        settled = true;
        reject(
          createError('TIMEOUT', {
            reason: `An embed worker neither answered nor reported progress for ${ms} ms; it was stopped and its batch retried.`,
          }),
        );
      }, ms);
    };
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      timers.clear(handle);
      fn();
    };
    arm();
    work(arm).then(
      (v) => settle(() => resolve(v)),
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- the worker's own error, passed on unchanged
      (e: unknown) => settle(() => reject(e)),
    );
  });
}

export function createEmbedPool<W extends PoolWorker>(options: EmbedPoolOptions<W>): EmbedPool<W> {
  const batchSize = Math.max(1, Math.floor(options.batchSize ?? 16));
  const maxAttempts = Math.max(1, Math.floor(options.maxAttempts ?? 3));
  const hangMs = options.hangTimeoutMs ?? DEFAULT_HANG_TIMEOUT_MS;
  const timers = options.timers ?? defaultTimers;
  const clamp = (n: number) => Math.max(1, Math.floor(Number.isFinite(n) ? n : 1));
  let target = clamp(options.size);
  let slots: Array<Slot<W> | undefined> = [];
  let spawned = 0;
  let replaced = 0;
  let closed = false;

  function spawnSlot(): Slot<W> {
    spawned++;
    const worker = options.spawn();
    worker.catch(() => undefined); // a failed spawn is reported by the batch that awaits it
    return { worker, busy: 0, retired: false, stopped: false };
  }

  function slotAt(i: number): Slot<W> {
    return (slots[i] ??= spawnSlot());
  }

  function stop(slot: Slot<W>): void {
    slot.retired = true;
    if (slot.stopped) return;
    slot.stopped = true;
    void slot.worker.then((w) => w.terminate()).catch(() => undefined);
  }

  /** Retires a failed worker once (concurrent calls failing on it share one replacement). */
  function replace(i: number, failed: Slot<W>, error: unknown): void {
    if (slots[i] !== failed) return;
    replaced++;
    options.onReplace?.(error);
    stop(failed); // at once, busy or not: its other pending batches reject and are retried
    slots[i] = i < target && !closed ? spawnSlot() : undefined;
  }

  /**
   * The worker with the fewest batches running (from any call), `preferred` on a tie: a plan's
   * variant batch goes beside the original query's embedding, not queued behind it.
   */
  function leastBusy(preferred: number): number {
    let best = preferred;
    for (let j = 0; j < target; j++) if ((slots[j]?.busy ?? 0) < (slots[best]?.busy ?? 0)) best = j;
    return best;
  }

  async function embed(
    texts: string[],
    opts: Parameters<EmbedPool['embed']>[1] = {},
  ): Promise<Int16Array[]> {
    const out = new Array<Int16Array>(texts.length);
    const queue: Batch[] = [];
    const step = Math.max(1, Math.floor(opts.batchSize ?? batchSize));
    for (let s = 0; s < texts.length; s += step) {
      queue.push({ start: s, end: Math.min(texts.length, s + step), attempts: 0 });
    }
    const partial = new Map<Batch, number>();
    let finished = 0;
    let reported = 0;
    const report = () => {
      let done = finished;
      for (const n of partial.values()) done += n;
      // A retried batch counts again from zero: the reported figure never goes back.
      reported = Math.max(reported, Math.min(done, texts.length));
      opts.onProgress?.({ done: reported, total: texts.length });
    };
    const inner = new AbortController();
    const onAbort = () => inner.abort();
    if (opts.signal?.aborted) throw createError('ABORTED');
    opts.signal?.addEventListener('abort', onAbort, { once: true });

    const lane = async (l: number) => {
      for (;;) {
        // A closed pool (its owner moved on) stops its calls rather than respawning workers.
        if (inner.signal.aborted || closed) throw createError('ABORTED');
        const batch = queue.shift();
        if (!batch) return;
        const i = leastBusy(l % target); // after a resize, lanes share the remaining workers
        const slot = slotAt(i);
        slot.busy++;
        // This attempt's progress counts until it ends; a hung or replaced worker's late
        // messages then change nothing (the batch may be running again elsewhere).
        let current = true;
        try {
          const worker = await slot.worker;
          // The clock starts once the worker is up (loading a model is not a hang) and restarts
          // on every progress message of the batch.
          const vectors = await withHangClock(
            (alive) =>
              worker.embed(texts.slice(batch.start, batch.end), {
                signal: inner.signal,
                ...(opts.role ? { role: opts.role } : {}),
                ...(opts.batched ? { batched: true } : {}),
                onProgress: (n) => {
                  if (!current) return; // a late message after the attempt ended
                  alive();
                  partial.set(batch, n);
                  report();
                },
              }),
            hangMs,
            timers,
          );
          if (vectors.length !== batch.end - batch.start) {
            throw createError('INTERNAL', {
              reason: `An embed worker returned ${vectors.length} vectors for ${batch.end - batch.start} texts.`,
            });
          }
          vectors.forEach((v, k) => (out[batch.start + k] = v));
          partial.delete(batch);
          finished += vectors.length;
          report();
        } catch (err) {
          partial.delete(batch);
          if (inner.signal.aborted || isAborted(err)) {
            inner.abort();
            throw isAborted(err) ? err : createError('ABORTED');
          }
          batch.attempts++;
          replace(i, slot, err);
          if (batch.attempts >= maxAttempts) {
            inner.abort();
            throw err;
          }
          queue.unshift(batch); // retried next, by whichever worker is free first
        } finally {
          current = false;
          slot.busy--;
          if (slot.retired && slot.busy === 0) stop(slot);
        }
      }
    };

    try {
      const lanes = Math.max(1, Math.min(target, queue.length));
      await Promise.all(Array.from({ length: lanes }, (_, l) => lane(l)));
      // A cancel that arrived after the last batch still means "cancelled" to the caller.
      if (opts.signal?.aborted) throw createError('ABORTED');
      return out;
    } finally {
      inner.abort();
      opts.signal?.removeEventListener('abort', onAbort);
    }
  }

  return {
    embed,
    workers: () => Promise.all(Array.from({ length: target }, (_, i) => slotAt(i).worker)),
    resize(size) {
      target = clamp(size);
      slots.forEach((slot, i) => {
        if (!slot || i < target) return;
        slots[i] = undefined;
        slot.retired = true;
        if (slot.busy === 0) stop(slot);
      });
      slots = slots.slice(0, target);
    },
    size: () => target,
    idle: () => {
      let n = 0;
      for (let j = 0; j < target; j++) if ((slots[j]?.busy ?? 0) === 0) n++;
      return n;
    },
    stats: () => ({ size: target, spawned, replaced }),
    async close() {
      closed = true;
      const all = slots.filter((s): s is Slot<W> => !!s);
      slots = [];
      await Promise.all(
        all.map((s) =>
          s.worker.then(
            (w) => w.terminate(),
            () => undefined,
          ),
        ),
      );
    },
  };
}
