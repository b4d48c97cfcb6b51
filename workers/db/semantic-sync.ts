// The library's embedding side: the embed-worker pool, the semantic index of the active model, and
// its status watchers. Starts, pauses, resumes, cancels and switches the model (the old run is
// stopped and its statuses dropped before the new model loads); every model gets its own index, so
// vectors of two models never mix. The pool implementation, worker ports and vector storage are
// injected (Comlink remotes in the browser, fakes or the real embedder in Node).
import {
  remotePairVerifier,
  remotePoolWorker,
  type EmbedModelInfo,
  type EmbedPool,
  type EmbedPoolOptions,
  type EmbedPoolWorker,
  type EmbedSpawner,
  type EmbedWorkerApi,
} from '../shared/embed-api';
import type { PairVerifier } from '../shared/pair-verifier';
import type { SemanticStatus } from '../shared/semantic-api';
import { toAppError } from '../shared/errors';
import type { Remote } from 'comlink';
import { createSemanticIndex, startingStatus, type SemanticIndex } from '../search/semantic-index';
import type { HybridDeps } from '../search/hybrid';
import type { VectorStore } from '../store/vectors';
import { createHnswIndex, type DotKernel } from '../vector';
import { embedQueriesOnLane } from './query-lane';

/** An embed worker as the library sees it (a Comlink remote, or an EmbedWorkerApi in tests). */
export type EmbedWorker = Remote<EmbedWorkerApi>;

/** A pool member: the worker's remote and the model it loaded when it started. */
export type PooledEmbedWorker = EmbedPoolWorker & { api: EmbedWorker; info: EmbedModelInfo };

export interface SemanticSyncDeps {
  /** The opened library's vector tables. */
  vectors(): Promise<VectorStore>;
  /** The dot product of HNSW and of loading a persisted index (asked once, then kept). */
  dotKernel(): Promise<DotKernel>;
  /** Hex SHA-256 of a text: vectors are reused by text hash. */
  hash(text: string): Promise<string>;
  /** Called when the model changes, before the new index starts (e.g. clear cached answers). */
  onModelChange(): Promise<void>;
  /** An embed worker behind a port (`Comlink.wrap`). */
  wrapEmbedder(port: MessagePort): EmbedWorker;
  /**
   * The pool (workers/embed/pool.ts `createEmbedPool`, injected: the library never imports embed).
   * Without it `connect` fails (a library that never embeds, e.g. in tests).
   */
  createEmbedPool?(options: EmbedPoolOptions<PooledEmbedWorker>): EmbedPool<PooledEmbedWorker>;
  /** Milliseconds for the embedding rate (default `performance.now`). */
  now?(): number;
}

export interface SemanticSync {
  /**
   * Starts a pool of `size` embed workers for the backlog (the first one's model names the
   * vectors), then the query worker beside them.
   */
  connect(spawner: EmbedSpawner, size: number): Promise<void>;
  /** Every embed worker loads model `id`; a new index re-embeds the library in the background. */
  activateModel(id: string): Promise<void>;
  /** Embeds new chunks (after a write); no-op before a model is connected or while paused. */
  sync(): void;
  /** Holds embedding until `resume` (the index still loads and searches what is embedded). */
  pause(): void;
  resume(): void;
  /** Stops this run; held like a pause until `resume` (the UI says it as stopped, over reloads too). */
  cancel(): void;
  /** Changes the number of embed workers (at least 1). */
  setWorkers(size: number): void;
  status(): SemanticStatus;
  /** `onStatus` gets the current status at once (when an index exists) and every change. */
  watch(onStatus: (status: SemanticStatus) => void): void;
  /** Bumped when the index content changes (caches of semantic answers key on it). */
  generation(): number;
  /** The semantic side of hybrid search: null until a model is connected. */
  side(): HybridDeps['semantic'];
  /**
   * Embeddings over the pool: passages by default (HyDE), queries with `role: 'query'`.
   * `spread` splits the texts evenly over the workers, each embedding its share in batched
   * forward passes (a claim check's dozen sentences), instead of batches of 16 one by one.
   */
  embed(
    texts: string[],
    options?: { signal?: AbortSignal; role?: 'query' | 'passage'; spread?: boolean },
  ): Promise<Int16Array[]>;
  /**
   * The pair verifier, judged on the query worker when it is up (idle between searches, so a
   * claim check's pairs do not wait behind the import backlog), else on the backlog's first
   * worker. That worker loads the verifier once and keeps its cache.
   */
  pairVerifier(): PairVerifier;
}

const STARTING = startingStatus(null, 0);

export function createSemanticSync(deps: SemanticSyncDeps): SemanticSync {
  const watchers = new Set<(s: SemanticStatus) => void>();
  let semantic: SemanticIndex | null = null;
  let pool: EmbedPool<PooledEmbedWorker> | null = null;
  /** The query worker's pool (one worker); queries use it once its worker has loaded the model. */
  let queryLane: EmbedPool<PooledEmbedWorker> | null = null;
  let queryLaneReady = false;
  let kernel: Promise<DotKernel> | null = null;
  let maxTokens: number | undefined;
  /** The model every (re)spawned worker must load; null until the first worker reports one. */
  let activeModel: string | null = null;
  let held = false;
  let between: SemanticStatus | null = null;

  const broadcast = (status: SemanticStatus) => watchers.forEach((w) => void w(status));

  /** Starts a worker through the spawner with the library's model loaded (killed if it fails). */
  async function spawnWorker(spawner: EmbedSpawner): Promise<PooledEmbedWorker> {
    const { id, port } = await spawner.spawn();
    const api = deps.wrapEmbedder(port);
    const kill = () => spawner.terminate(id);
    try {
      let info = await api.init();
      // A replacement started mid-switch or after one: it must embed with the library's model.
      if (activeModel && info.id !== activeModel) info = await api.activateModel(activeModel);
      return { ...remotePoolWorker(api, kill), info };
    } catch (err) {
      await kill();
      throw err;
    }
  }

  /** Starts a semantic index for one model; vectors of other models are never read by it. */
  async function start(info: EmbedModelInfo, workers: EmbedPool<PooledEmbedWorker>): Promise<void> {
    const vectors = await deps.vectors();
    const dot = await (kernel ??= deps.dotKernel());
    maxTokens = info.maxTokens;
    const passages = (texts: string[], signal: AbortSignal) =>
      workers.embed(texts, { signal, role: 'passage' });
    // Queries on the query lane (./query-lane.ts): the query worker first, a plan's variants
    // shared with the idle backlog workers (each share one batched forward pass). A worker still
    // busy (the original query's vector, a backlog batch) gets no share: queued behind it, the
    // share would finish no sooner than on an idle worker, and one pass costs less CPU than two
    // (the plan's keyword rankings need the same cores).
    const queries = (texts: string[], signal: AbortSignal) =>
      embedQueriesOnLane(
        { backlog: workers, query: queryLaneReady ? queryLane : null },
        texts,
        signal,
      );
    const index: SemanticIndex = createSemanticIndex({
      vectors,
      model: { id: info.id, version: info.version, dim: info.dim },
      embed: passages,
      embedQuery: async (text, signal) => {
        const [vector] = await queries([text], signal);
        if (!vector) throw new Error('The embedder returned no vector.');
        return vector;
      },
      // A query plan's variants: one pool call, spread over the embed workers.
      embedQueries: queries,
      hash: deps.hash,
      createIndex: () => createHnswIndex({ dim: info.dim }, { kernel: dot }),
      kernel: dot,
      parallelism: () => workers.size(),
      ...(deps.now ? { now: deps.now } : {}),
      // A stopped index (the model was switched) may still report its last step: drop it.
      onStatus: (status) => {
        if (semantic === index) broadcast(status);
      },
    });
    semantic = index;
    between = null;
    if (held) {
      index.pause();
      void index.sync(); // loads the index: what is embedded is searchable while on hold
    } else void index.start();
  }

  const side: NonNullable<HybridDeps['semantic']> = {
    embedQuery: (text) => semantic?.embedQuery(text) ?? Promise.reject(new Error('no model')),
    search: (q, k, filter) => semantic?.search(q, k, filter) ?? null,
    embedQueries: (texts) => semantic?.embedQueries(texts) ?? Promise.reject(new Error('no model')),
    storedVectors: (ids) => semantic?.storedVectors(ids) ?? Promise.resolve(new Map()),
    // The fusion follows the model (workers/search/model-fusion.ts).
    get modelId() {
      return semantic?.status().model?.id;
    },
    // A query past the model's window is cut there: the search says so (hybrid.ts).
    get maxTokens() {
      return semantic ? maxTokens : undefined;
    },
  };

  /** Stops the running index and takes it out of search until the next one starts. */
  async function retire(message: string): Promise<SemanticIndex | null> {
    const old = semantic;
    semantic = null;
    between = { ...STARTING, message, workers: pool?.size() ?? 0 };
    broadcast(between);
    await old?.stop();
    return old;
  }

  let lastConnect: { spawner: EmbedSpawner; size: number } | null = null;

  /**
   * Starts the query worker after the backlog's (so two model loads do not compete for memory at
   * once); queries use the backlog's workers until it is up, and keep doing so if it fails. Queries
   * then never wait behind the backlog, and a plan's original query and variants embed side by
   * side (./query-lane.ts). It holds one more copy of the model (about 100 MB of RSS,
   * reports/query-worker-memory.txt).
   */
  function startQueryWorker(spawner: EmbedSpawner): void {
    if (!deps.createEmbedPool) return;
    const lane = deps.createEmbedPool({ size: 1, spawn: () => spawnWorker(spawner) });
    queryLane = lane;
    queryLaneReady = false;
    lane.workers().then(
      () => {
        if (queryLane === lane) queryLaneReady = true;
      },
      () => {
        if (queryLane === lane) queryLane = null;
        void lane.close();
      },
    );
  }

  async function connect(spawner: EmbedSpawner, size: number): Promise<void> {
    lastConnect = { spawner, size };
    const previous = pool;
    const previousQuery = queryLane;
    await retire('Starting the embedding workers…');
    queryLane = null;
    queryLaneReady = false;
    await Promise.all([previous?.close(), previousQuery?.close()]);
    if (!deps.createEmbedPool) throw new Error('This build has no embed-worker pool.');
    const next = deps.createEmbedPool({ size, spawn: () => spawnWorker(spawner) });
    pool = next;
    try {
      const [first] = await next.workers();
      if (!first) return;
      activeModel ??= first.info.id;
      startQueryWorker(spawner);
      await start(first.info, next);
    } catch (err) {
      // Say why meaning search is off; Resume (shown as Retry) connects again.
      between = { ...STARTING, phase: 'error', message: toAppError(err).message };
      broadcast(between);
      throw err;
    }
  }

  const verifier = remotePairVerifier(
    { id: 'sift-verifier-v1', version: 1, maxLength: 256 },
    async () => {
      const lane = queryLaneReady ? queryLane : null;
      const [worker] = lane ? await lane.workers() : pool ? await pool.workers() : [];
      return worker?.api ?? null;
    },
  );

  return {
    connect,
    pairVerifier: () => verifier,
    async activateModel(id) {
      const workers = pool;
      if (!workers) throw new Error('The embedding workers are not connected yet.');
      const before = activeModel;
      const old = await retire(`Switching the embedding model to ${id}…`);
      activeModel = id;
      // The query worker switches too (awaited if it is still starting; one that failed to
      // start is left out: queries then use the backlog's workers).
      const lane = queryLane;
      const all = async () => [
        ...(await workers.workers()),
        ...(lane ? await lane.workers().catch(() => []) : []),
      ];
      try {
        const [info] = await Promise.all((await all()).map((w) => w.api.activateModel(id)));
        await deps.onModelChange();
        if (info) await start(info, workers);
      } catch (err) {
        // The model did not load: every worker goes back to the previous model and its index.
        activeModel = before;
        if (before) {
          await Promise.all(
            (await all()).map((w) => w.api.activateModel(before).catch(() => undefined)),
          );
        }
        if (old) {
          semantic = old;
          between = null;
          if (!held) void old.start();
          else void old.sync();
          broadcast(old.status());
        }
        throw err;
      }
    },
    sync: () => void semantic?.sync(),
    pause() {
      held = true;
      semantic?.pause();
    },
    resume() {
      held = false;
      if (semantic) void semantic.start();
      else if (between?.phase === 'error' && lastConnect) {
        void connect(lastConnect.spawner, pool?.size() ?? lastConnect.size).catch(() => undefined);
      }
    },
    cancel() {
      // Held like a pause, so a later write or model switch does not start a new run by itself.
      held = true;
      semantic?.pause();
    },
    setWorkers(size) {
      pool?.resize(size);
      if (semantic) broadcast(semantic.status());
    },
    status: () => semantic?.status() ?? between ?? { ...STARTING, workers: pool?.size() ?? 0 },
    watch(onStatus) {
      watchers.add(onStatus);
      if (semantic) void onStatus(semantic.status());
    },
    generation: () => semantic?.generation() ?? 0,
    side: () => (semantic ? side : null),
    embed: (texts, options) =>
      pool
        ? pool.embed(texts, {
            ...(options?.signal ? { signal: options.signal } : {}),
            ...(options?.role ? { role: options.role } : {}),
            ...(options?.spread
              ? {
                  batched: true,
                  batchSize: Math.ceil(texts.length / Math.max(1, pool.size())),
                }
              : {}),
          })
        : Promise.reject(new Error('The embedding model is not loaded yet.')),
  };
}
