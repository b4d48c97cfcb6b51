// The library's embedding side: the connected embed workers (a pool), the semantic index of the
// active model, and its status watchers. Starts, pauses, resumes and switches the model; every
// model gets its own index, so vectors of two models never mix. Embedding and vector storage are
// injected (embed workers over Comlink in the browser, fakes or the real embedder in Node).
import { embedWithPool, type EmbedModelInfo, type EmbedWorkerApi } from '../shared/embed-api';
import type { SemanticStatus } from '../shared/semantic-api';
import type { Remote } from 'comlink';
import { createSemanticIndex, type SemanticIndex } from '../search/semantic-index';
import type { HybridDeps } from '../search/hybrid';
import type { VectorStore } from '../store/vectors';
import { createHnswIndex, type DotKernel } from '../vector';

/** An embed worker as the library sees it (a Comlink remote, or an EmbedWorkerApi in tests). */
export type EmbedWorker = Remote<EmbedWorkerApi>;

export interface SemanticSyncDeps {
  /** The opened library's vector tables. */
  vectors(): Promise<VectorStore>;
  /** The dot product of HNSW and of loading a persisted index (asked once, then kept). */
  dotKernel(): Promise<DotKernel>;
  /** Hex SHA-256 of a text: vectors are reused by text hash. */
  hash(text: string): Promise<string>;
  /** Called when the model changes, before the new index starts (e.g. clear cached answers). */
  onModelChange(): Promise<void>;
}

export interface SemanticSync {
  /** Replaces the embed workers; the first one's model names the vectors, then the index starts. */
  connect(workers: EmbedWorker[]): Promise<void>;
  /** Every embed worker loads model `id`; a new index re-embeds the library in the background. */
  activateModel(id: string): Promise<void>;
  /** Embeds new chunks (after a write); no-op before a model is connected or while paused. */
  sync(): void;
  pause(): void;
  resume(): void;
  status(): SemanticStatus;
  /** `onStatus` gets the current status at once (when an index exists) and every change. */
  watch(onStatus: (status: SemanticStatus) => void): void;
  /** Bumped when the index content changes (caches of semantic answers key on it). */
  generation(): number;
  /** The semantic side of hybrid search: null until a model is connected. */
  side(): HybridDeps['semantic'];
  /** Embeddings over the pool: passages by default (HyDE), queries with `role: 'query'`. */
  embed(
    texts: string[],
    options?: { signal?: AbortSignal; role?: 'query' | 'passage' },
  ): Promise<Int16Array[]>;
}

const STARTING: SemanticStatus = {
  phase: 'starting',
  model: null,
  embedded: 0,
  total: 0,
  done: 0,
  todo: 0,
  message: null,
};

export function createSemanticSync(deps: SemanticSyncDeps): SemanticSync {
  const watchers = new Set<(s: SemanticStatus) => void>();
  let semantic: SemanticIndex | null = null;
  let workers: EmbedWorker[] = [];
  let kernel: Promise<DotKernel> | null = null;

  /** Starts a semantic index for one model; vectors of other models are never read by it. */
  async function start(info: EmbedModelInfo): Promise<void> {
    const vectors = await deps.vectors();
    const dot = await (kernel ??= deps.dotKernel());
    semantic?.pause();
    const pool = workers;
    semantic = createSemanticIndex({
      vectors,
      model: { id: info.id, version: info.version, dim: info.dim },
      embed: (texts, signal) => embedWithPool(pool, texts, { signal, role: 'passage' }),
      embedQuery: async (text, signal) => {
        const [vector] = await embedWithPool(pool, [text], { signal, role: 'query' });
        if (!vector) throw new Error('The embedder returned no vector.');
        return vector;
      },
      // A query plan's variants: one pool call, spread over the embed workers.
      embedQueries: (texts, signal) => embedWithPool(pool, texts, { signal, role: 'query' }),
      hash: deps.hash,
      createIndex: () => createHnswIndex({ dim: info.dim }, { kernel: dot }),
      kernel: dot,
      onStatus: (status) => watchers.forEach((w) => void w(status)),
    });
    void semantic.start();
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
  };

  return {
    async connect(next) {
      workers = next;
      if (workers.length === 0) return;
      // Every worker loads the same (remembered) model; the first one's info names the vectors.
      const [info] = await Promise.all(workers.map((w) => w.init()));
      if (info) await start(info);
    },
    async activateModel(id) {
      semantic?.pause();
      const [info] = await Promise.all(workers.map((w) => w.activateModel(id)));
      await deps.onModelChange();
      if (info) await start(info);
    },
    sync: () => void semantic?.sync(),
    pause: () => semantic?.pause(),
    resume: () => void semantic?.start(),
    status: () => semantic?.status() ?? { ...STARTING },
    watch(onStatus) {
      watchers.add(onStatus);
      if (semantic) void onStatus(semantic.status());
    },
    generation: () => semantic?.generation() ?? 0,
    side: () => (semantic ? side : null),
    embed: (texts, options) =>
      workers.length > 0
        ? embedWithPool(workers, texts, {
            ...(options?.signal ? { signal: options.signal } : {}),
            ...(options?.role ? { role: options.role } : {}),
          })
        : Promise.reject(new Error('The embedding model is not loaded yet.')),
  };
}
