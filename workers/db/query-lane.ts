// Where a query's embedding runs (issue 15, RAGF-006): beside the backlog's embed workers the
// library keeps one query worker, so a search never waits behind the import backlog (a batch of 16
// passages) and a query plan's original query and its variants embed side by side even on a 2-core
// device (one backlog worker). The app's semantic sync and the plan bench route through this one
// function. The pools arrive built.
import type { EmbedPool } from '../shared/embed-api';

export interface QueryLanePools {
  /** The backlog's workers (the user's count: hardwareConcurrency - 1 by default). */
  backlog: EmbedPool;
  /** The query worker; null while it starts (or when it could not start): the backlog's then. */
  query: EmbedPool | null;
}

/**
 * Query vectors for `texts`, in input order, each worker's share as one batched forward pass.
 * The texts are shared over the idle workers, the query worker's share first (a lone query goes
 * to it); a busy backlog worker gets no share, so when every backlog worker is busy (an import is
 * embedding) the call queues on the query worker, behind at most another query's embedding.
 * Without a query worker: the backlog's idle workers, as before (ceil(n / idle) per worker).
 * With the query worker busy (a plan's original query), one idle backlog worker (a 2-core device)
 * and 3 or more texts: see queueOneOnBusyQueryWorker.
 * @throws AppError ABORTED when `signal` aborts; the pool's error after its retries
 */
export async function embedQueriesOnLane(
  pools: QueryLanePools,
  texts: string[],
  signal?: AbortSignal,
): Promise<Int16Array[]> {
  const n = texts.length;
  const { backlog, query } = pools;
  const base = { role: 'query' as const, ...(signal ? { signal } : {}) };
  if (n === 0) return [];
  const backlogIdle = backlog.idle();
  if (!query) {
    return backlog.embed(texts, { ...base, batchSize: Math.ceil(n / Math.max(1, backlogIdle)) });
  }
  if (backlogIdle === 0) return query.embed(texts, { ...base, batchSize: n });
  const queryIdle = query.idle() > 0 ? 1 : 0;
  if (!queryIdle && backlogIdle === 1 && n >= 3)
    return queueOneOnBusyQueryWorker(backlog, query, texts, base);
  const per = Math.ceil(n / (queryIdle + backlogIdle));
  const own = queryIdle ? Math.min(n, per) : 0;
  const [mine, rest] = await Promise.all([
    own > 0 ? query.embed(texts.slice(0, own), { ...base, batchSize: own }) : [],
    own < n ? backlog.embed(texts.slice(own), { ...base, batchSize: per }) : [],
  ]);
  return [...mine, ...rest];
}

/**
 * A plan's variants while the query worker embeds its original, with one idle backlog worker: it
 * takes all but the last text as one batch and the query worker queues that one. It frees after one query, about when
 * the backlog's shorter batch ends, so the last vector arrives sooner than from one batch of all
 * (RAG-Fusion on 2 cores, USE-lite, bench/README "Query plan": 1.73x against 1.82x one query,
 * medians of 8 and 9 interleaved runs).
 */
async function queueOneOnBusyQueryWorker(
  backlog: EmbedPool,
  query: EmbedPool,
  texts: string[],
  base: { role: 'query'; signal?: AbortSignal },
): Promise<Int16Array[]> {
  const [first, last] = await Promise.all([
    backlog.embed(texts.slice(0, -1), { ...base, batchSize: texts.length - 1 }),
    query.embed(texts.slice(-1), { ...base, batchSize: 1 }),
  ]);
  return [...first, ...last];
}
