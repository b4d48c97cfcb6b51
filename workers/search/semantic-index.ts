// Keeps the vector index in step with the library: embeds chunks that have no vector for the
// active model (resumable: the backlog is whatever SQLite lacks), reuses vectors by text hash,
// drops vectors of deleted chunks, persists the index and rebuilds it when it is missing or
// damaged. Owns the embedding backlog loop and its status. Embedding itself is injected.
import { createError, isAppError, toAppError } from '../shared/errors';
import type { EmbeddingModelKey, SemanticPhase, SemanticStatus } from '../shared/semantic-api';
import type { PendingChunk, VectorStore } from '../store/vectors';
import { createPromiseMemo } from '../shared/promise-memo';
import { loadOrRebuildVectorIndex } from '../vector';
import { createRateMeter } from './rate-meter';
import type { AllowedFilter, DotKernel, VectorHit, VectorIndex } from '../vector';

export type { SemanticPhase, SemanticStatus };

export interface SemanticIndexDeps {
  vectors: VectorStore;
  model: EmbeddingModelKey;
  /** Canonical int16 vectors for texts (the embed worker). */
  embed(texts: string[], signal: AbortSignal): Promise<Int16Array[]>;
  /** Embeds a search query (models with query/passage prefixes treat them differently). Default: `embed`. */
  embedQuery?(text: string, signal: AbortSignal): Promise<Int16Array>;
  /** Several search queries in one call (a query plan's variants). Default: `embedQuery` each. */
  embedQueries?(texts: string[], signal: AbortSignal): Promise<Int16Array[]>;
  /** Hex SHA-256 of a text (WebCrypto). */
  hash(text: string): Promise<string>;
  createIndex(): VectorIndex;
  /** Dot product used when a persisted index is loaded (default: the index's JS kernel). */
  kernel?: DotKernel;
  /** Chunks per embed worker per step; small batches keep cancel and progress responsive. */
  batchSize?: number;
  /** Embed workers available now (a step takes batchSize x this many chunks). Default 1. */
  parallelism?(): number;
  /** Milliseconds, for the embedding rate and ETA. Default `performance.now`. */
  now?(): number;
  /** Save the index after this many new vectors (and when the backlog is done). */
  saveEvery?: number;
  onStatus?(status: SemanticStatus): void;
}

export interface SemanticIndex {
  /** Loads or rebuilds the index, then works through the backlog. Safe to call again. */
  start(): Promise<void>;
  /** Re-reads the library (after imports and deletes) and embeds what is new. */
  sync(): Promise<void>;
  /** Stops embedding at once (the running batch is cancelled); `start()` resumes. */
  pause(): void;
  /** Pauses and waits until the running pass has ended (saved, last status sent). */
  stop(): Promise<void>;
  status(): SemanticStatus;
  /** Bumped whenever the index content changes (caches of semantic results key on it). */
  generation(): number;
  /** Nearest chunks by cosine; null until the index is loaded. */
  search(query: Int16Array, k: number, filter?: AllowedFilter): VectorHit[] | null;
  /** Embeds one query (same canonical path as the chunks). @throws AppError from the embedder */
  embedQuery(text: string): Promise<Int16Array>;
  /** Embeds several queries in one embedder call where the embedder allows it. */
  embedQueries(texts: string[]): Promise<Int16Array[]>;
  /**
   * The stored vectors of these chunks for this index's model (absent: not embedded yet): the
   * loaded index's own copies, SQLite's for chunks the index does not hold yet.
   */
  storedVectors(chunkIds: number[]): Promise<Map<number, Int16Array>>;
}

/** Vectors from the loaded index where it holds them (the same int16 rows), SQLite for the rest. */
async function storedVectors(
  deps: Pick<SemanticIndexDeps, 'vectors' | 'model'>,
  index: VectorIndex | null,
  chunkIds: number[],
): Promise<Map<number, Int16Array>> {
  const out = new Map<number, Int16Array>();
  const missing: number[] = [];
  for (const id of chunkIds) {
    const v = index?.get(id);
    if (v) out.set(id, v);
    else missing.push(id);
  }
  if (missing.length)
    for (const [id, v] of await deps.vectors.get(deps.model, missing)) out.set(id, v);
  return out;
}

/**
 * The index's bytes for saving: in 1 MB parts when it can (no second copy of a 112 MB index at
 * 100k chunks). Safe here: every change to the index runs in the same pass as its saves, never
 * while a save is taking the parts.
 */
const serialized = (idx: VectorIndex) => idx.serializeParts?.() ?? idx.serialize();

/** The status before anything is loaded or counted (also the library's before a model starts). */
export function startingStatus(model: EmbeddingModelKey | null, workers: number): SemanticStatus {
  return {
    phase: 'starting',
    model,
    embedded: 0,
    total: 0,
    done: 0,
    todo: 0,
    message: null,
    ratePerSecond: null,
    etaSeconds: null,
    workers,
  };
}

/**
 * Removes vectors of deleted chunks from the index and adds stored vectors it lacks (compacting
 * it when a quarter is deleted); returns how many changed.
 */
async function reconcileIndex(
  deps: Pick<SemanticIndexDeps, 'vectors' | 'model'>,
  idx: VectorIndex,
): Promise<number> {
  const stored = await deps.vectors.ids(deps.model);
  const storedSet = new Set(stored);
  let changed = 0;
  for (const id of idx.ids()) {
    if (!storedSet.has(id)) {
      idx.remove(id);
      changed++;
    }
  }
  const missing = Array.from(stored).filter((id) => !idx.has(id));
  if (missing.length > 0) {
    const vectors = await deps.vectors.get(deps.model, missing);
    for (const [id, v] of vectors) idx.add(id, v);
    changed += missing.length;
  }
  const stats = idx.stats();
  if (stats.deleted > 0 && stats.deleted > stats.size / 4) idx.compact();
  return changed;
}

/**
 * The rows to store for a backlog batch: a vector stored for the same text (by hash) is reused,
 * the rest embedded in one call. @throws AppError INTERNAL when the embedder returns too few
 */
async function vectorRows(
  deps: Pick<SemanticIndexDeps, 'vectors' | 'model' | 'hash' | 'embed'>,
  batch: PendingChunk[],
  signal: AbortSignal,
): Promise<Array<{ chunkId: number; textHash: string; vector: Int16Array }>> {
  const hashes = await Promise.all(batch.map((c) => deps.hash(c.text)));
  const reuse = await deps.vectors.reusable(deps.model, hashes);
  const needed = batch.filter((_, i) => !reuse.has(hashes[i] ?? ''));
  const fresh = needed.length
    ? await deps.embed(
        needed.map((c) => c.text),
        signal,
      )
    : [];
  const freshById = new Map(needed.map((c, i) => [c.chunkId, fresh[i]]));
  return batch.map((c, i) => {
    const vector = reuse.get(hashes[i] ?? '') ?? freshById.get(c.chunkId);
    if (!vector)
      throw createError('INTERNAL', { reason: 'The embedder returned too few vectors.' });
    return { chunkId: c.chunkId, textHash: hashes[i] ?? '', vector };
  });
}

/** One query's vector (the query path when the embedder has one). */
async function embedOneQuery(
  deps: Pick<SemanticIndexDeps, 'embed' | 'embedQuery'>,
  text: string,
): Promise<Int16Array> {
  const signal = new AbortController().signal;
  if (deps.embedQuery) return deps.embedQuery(text, signal);
  const [vector] = await deps.embed([text], signal);
  if (!vector) throw createError('INTERNAL', { reason: 'The embedder returned no vector.' });
  return vector;
}

/** Query vectors remembered per index (so per model): a claim check embeds its claim once. */
const QUERY_MEMO = 64;

/**
 * `embed` with the last QUERY_MEMO texts' vectors kept (in flight too: calls made together share
 * one embedding). The runtime is deterministic, so a kept vector is the one a new call would
 * give; each caller gets its own copy. A failed embedding is not kept.
 */
export function memoQueries(
  embed: (text: string) => Promise<Int16Array>,
  size = QUERY_MEMO,
): (text: string) => Promise<Int16Array> {
  const kept = createPromiseMemo<string, Int16Array>(size);
  return (text) => kept(text, () => embed(text)).then((v) => v.slice());
}

/** Several queries' vectors in one embedder call where it allows it, else one by one. */
async function embedManyQueries(
  deps: Pick<SemanticIndexDeps, 'embed' | 'embedQuery' | 'embedQueries'>,
  texts: string[],
): Promise<Int16Array[]> {
  const signal = new AbortController().signal;
  if (deps.embedQueries) return deps.embedQueries(texts, signal);
  return Promise.all(texts.map((text) => embedOneQuery(deps, text)));
}

export function createSemanticIndex(deps: SemanticIndexDeps): SemanticIndex {
  const batchSize = deps.batchSize ?? 16;
  const saveEvery = deps.saveEvery ?? 2000;
  const parallelism = () => Math.max(1, Math.floor(deps.parallelism?.() ?? 1));
  const meter = createRateMeter(deps.now ?? (() => performance.now()));
  let index: VectorIndex | null = null;
  let loading: Promise<void> | null = null;
  let running: Promise<void> | null = null;
  let again = false;
  /** The library changed during this run: count the backlog again at the next step. */
  let recount = false;
  let controller: AbortController | null = null;
  let paused = false;
  let unsaved = 0;
  let generation = 0;
  let status = startingStatus(deps.model, parallelism());

  const emit = (patch: Partial<SemanticStatus>) => {
    // Rate and ETA describe the embedding step only: any other status clears them.
    status = { ...status, ratePerSecond: null, etaSeconds: null, ...patch, workers: parallelism() };
    deps.onStatus?.(status);
  };

  async function load(): Promise<void> {
    const counts = await deps.vectors.counts(deps.model);
    emit({ ...counts, phase: 'indexing', done: 0, todo: counts.embedded });
    const stored = await deps.vectors.loadIndex(deps.model);
    const outcome = await loadOrRebuildVectorIndex(
      stored,
      deps.createIndex,
      () => deps.vectors.iterate(deps.model),
      {
        total: counts.embedded,
        expectDim: deps.model.dim,
        // Fresh bytes from the store, used for nothing else: the index keeps them as its
        // storage instead of copying them (one copy of the index while loading, not two).
        adopt: true,
        ...(deps.kernel ? { kernel: deps.kernel } : {}),
        onProgress: (p) => emit({ done: p.done, todo: p.total ?? counts.embedded }),
      },
    );
    index = outcome.index;
    generation++;
    if (outcome.rebuilt && counts.embedded > 0) {
      // No index saved yet is normal after a run stopped before its first save (a closed tab):
      // only a damaged one is worth telling the user about.
      if (stored !== null) {
        emit({
          message: `The search index was rebuilt from stored vectors: ${outcome.reason.message}`,
        });
      }
      await deps.vectors.saveIndex(deps.model, serialized(index));
    }
  }

  async function embedBacklog(idx: VectorIndex, signal: AbortSignal): Promise<void> {
    const counts = await deps.vectors.counts(deps.model);
    let total = counts.total;
    let embedded = counts.embedded;
    let todo = total - embedded;
    let done = 0;
    meter.reset();
    meter.sample(0);
    emit({ phase: todo > 0 ? 'embedding' : 'ready', embedded, total, done, todo });
    for (;;) {
      if (signal.aborted || paused) throw createError('ABORTED');
      // One step feeds every embed worker a batch (the pool splits it again).
      const step = batchSize * parallelism();
      const batch = await deps.vectors.pending(deps.model, step);
      if (batch.length === 0) break;
      const rows = await vectorRows(deps, batch, signal);
      await deps.vectors.put(deps.model, rows);
      for (const r of rows) idx.add(r.chunkId, r.vector);
      unsaved += rows.length;
      generation += rows.length;
      done += rows.length;
      embedded += rows.length;
      // An import may still be adding chunks: re-count now and then so the progress stays true.
      if (recount || done % (step * 8) < rows.length) {
        recount = false;
        ({ total, embedded } = await deps.vectors.counts(deps.model));
        todo = done + (total - embedded);
      }
      meter.sample(done);
      const rate = meter.rate();
      emit({
        phase: 'embedding',
        embedded,
        total,
        done,
        todo: Math.max(todo, done),
        ratePerSecond: rate,
        etaSeconds: meter.eta(total - embedded),
      });
      if (unsaved >= saveEvery) await save(idx);
    }
  }

  async function save(idx: VectorIndex): Promise<void> {
    if (unsaved === 0) return;
    await deps.vectors.saveIndex(deps.model, serialized(idx));
    unsaved = 0;
  }

  async function runOnce(): Promise<void> {
    if (!index) {
      loading ??= load();
      await loading;
    }
    const idx = index;
    if (!idx) return;
    controller = new AbortController();
    if (status.phase === 'error' || status.phase === 'paused') emit({ message: null });
    try {
      const changed = await reconcileIndex(deps, idx);
      unsaved += changed;
      generation += changed;
      // Paused before the first pass (e.g. a hold kept over a reload): search what is embedded.
      if (paused) throw createError('ABORTED');
      await embedBacklog(idx, controller.signal);
      await save(idx);
      const counts = await deps.vectors.counts(deps.model);
      emit({ ...counts, phase: 'ready', done: 0, todo: 0 });
    } catch (err) {
      await save(idx).catch(() => undefined);
      const e = toAppError(err);
      if (isAppError(e) && e.code === 'ABORTED') {
        const counts = await deps.vectors.counts(deps.model).catch(() => null);
        emit({ ...(counts ?? {}), phase: 'paused', message: null });
      } else emit({ phase: 'error', message: e.message });
    } finally {
      controller = null;
    }
  }

  function sync(): Promise<void> {
    // While paused only a first pass runs (it loads the index and embeds nothing); later writes
    // only update the counts, so the backlog shown stays true.
    if (paused && running) return running;
    if (paused && index) {
      return deps.vectors.counts(deps.model).then(
        (counts) => void (status.phase === 'paused' && emit(counts)),
        () => undefined,
      );
    }
    if (running) {
      again = true; // a write arrived mid-run: look again when this run ends
      recount = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        await runOnce();
      } while (again && !paused);
    })().finally(() => {
      running = null;
    });
    return running;
  }

  const embedQuery = memoQueries((text) => embedOneQuery(deps, text));

  return {
    start() {
      paused = false;
      return sync();
    },
    sync,
    pause() {
      paused = true;
      controller?.abort();
    },
    async stop() {
      paused = true;
      controller?.abort();
      await running;
    },
    status: () => ({ ...status, workers: parallelism() }),
    generation: () => generation,
    search(query, k, filter) {
      if (!index || index.size === 0) return index ? [] : null;
      return index.search(query, k, filter ? { filter } : {});
    },
    embedQuery,
    embedQueries: (texts) => embedManyQueries(deps, texts),
    storedVectors: (chunkIds) => storedVectors(deps, index, chunkIds),
  };
}
