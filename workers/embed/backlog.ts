// Resumable background embedding of stored chunks (the "backlog"): the database is the only state,
// so an interrupted import continues where it stopped; a text already embedded under the same
// model version (same SHA-256) reuses its vector instead of being embedded again; vectors of
// another model or version are never read. The store side (SQL over the chunk_vectors table of
// migration 3) and the embedder are injected, so this runs in the db worker and in Node tests.
// Must not import the store or any other layer: only shared/.
import type { EmbedProgress } from '../shared/embed-api';
import { createError } from '../shared/errors';

export interface BacklogChunk {
  chunkId: number;
  /** The exact model input (e.g. title + chunk text): what is hashed and embedded. */
  text: string;
}

export interface VectorRow {
  chunkId: number;
  modelId: string;
  modelVersion: string;
  dim: number;
  /** hex SHA-256 of `text` */
  textHash: string;
  vector: Int16Array;
}

export interface BacklogStore {
  /** Chunks with no chunk_vectors row for this model version, oldest first, at most `limit`. */
  pending(modelId: string, modelVersion: string, limit: number): Promise<BacklogChunk[]>;
  /** How many chunks are pending (for progress). */
  countPending(modelId: string, modelVersion: string): Promise<number>;
  /** Vectors already stored for these text hashes under this model version. */
  findByHash(
    modelId: string,
    modelVersion: string,
    hashes: string[],
  ): Promise<Map<string, Int16Array>>;
  /** Inserts rows in one transaction (INSERT OR REPLACE on the primary key). */
  save(rows: VectorRow[]): Promise<void>;
}

export interface BacklogDeps {
  store: BacklogStore;
  model: { id: string; version: string; dim: number };
  embed(texts: string[], options: { signal?: AbortSignal }): Promise<Int16Array[]>;
  /** hex SHA-256 (WebCrypto in the browser). */
  sha256Hex(text: string): Promise<string>;
  batchSize?: number;
}

export interface BacklogResult {
  embedded: number;
  reused: number;
}

/**
 * Embeds every pending chunk for the model, batch by batch, saving each batch before the next.
 * @throws AppError ABORTED when the signal aborts (saved batches stay saved: rerun to resume)
 */
export async function runEmbedBacklog(
  deps: BacklogDeps,
  options: { signal?: AbortSignal; onProgress?: (p: EmbedProgress) => void } = {},
): Promise<BacklogResult> {
  const { store, model } = deps;
  const batchSize = Math.max(1, deps.batchSize ?? 64);
  const total = await store.countPending(model.id, model.version);
  let done = 0;
  let embedded = 0;
  let reused = 0;
  options.onProgress?.({ done, total });
  for (;;) {
    if (options.signal?.aborted) throw createError('ABORTED', { done, total });
    const batch = await store.pending(model.id, model.version, batchSize);
    if (batch.length === 0) break;
    const hashes = await Promise.all(batch.map((c) => deps.sha256Hex(c.text)));
    const known = await store.findByHash(model.id, model.version, [...new Set(hashes)]);
    // Embed each distinct unknown text once, even when it repeats within the batch.
    const todo = [...new Set(hashes.filter((h) => !known.has(h)))];
    const textOf = new Map(batch.map((c, i) => [hashes[i]!, c.text]));
    const vectors =
      todo.length > 0
        ? await deps.embed(
            todo.map((h) => textOf.get(h)!),
            options,
          )
        : [];
    todo.forEach((h, i) => known.set(h, vectors[i]!));
    const rows: VectorRow[] = batch.map((c, i) => ({
      chunkId: c.chunkId,
      modelId: model.id,
      modelVersion: model.version,
      dim: model.dim,
      textHash: hashes[i]!,
      vector: known.get(hashes[i]!)!,
    }));
    await store.save(rows);
    embedded += todo.length;
    reused += batch.length - todo.length;
    done += batch.length;
    options.onProgress?.({ done: Math.min(done, total), total });
  }
  return { embedded, reused };
}

/** The little-endian BLOB form of a vector for the chunk_vectors.vector column. */
export function vectorToBlob(v: Int16Array): Uint8Array {
  const out = new Uint8Array(v.length * 2);
  const view = new DataView(out.buffer);
  for (let i = 0; i < v.length; i++) view.setInt16(i * 2, v[i]!, true);
  return out;
}

/** Reads a chunk_vectors.vector BLOB. @throws AppError DB_CORRUPT when its length is not 2*dim */
export function blobToVector(blob: Uint8Array, dim: number): Int16Array {
  if (blob.byteLength !== dim * 2) {
    throw createError('DB_CORRUPT', {
      reason: `A stored vector has ${blob.byteLength} bytes, expected ${dim * 2}.`,
    });
  }
  const view = new DataView(blob.buffer, blob.byteOffset, blob.byteLength);
  const out = new Int16Array(dim);
  for (let i = 0; i < dim; i++) out[i] = view.getInt16(i * 2, true);
  return out;
}
