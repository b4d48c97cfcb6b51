// Canonical chunk vectors in SQLite: which chunks still need a vector for the active model
// (the resumable backlog), vectors reused by text hash, and the persisted vector index bytes.
// Owns: the chunk_vectors, vector_cache, vector_index and vector_index_parts tables.
import type { EmbeddingModelKey } from '../shared/semantic-api';
import type { Sql } from './sql';

export type { EmbeddingModelKey };

export interface PendingChunk {
  chunkId: number;
  text: string;
}

export interface StoredVector {
  chunkId: number;
  textHash: string;
  vector: Int16Array;
}

export interface VectorStore {
  /** Chunks of the library and how many have a vector for `model`. */
  counts(model: EmbeddingModelKey): Promise<{ embedded: number; total: number }>;
  /** Up to `limit` chunks without a vector for `model`, in chunk-id order. */
  pending(model: EmbeddingModelKey, limit: number): Promise<PendingChunk[]>;
  /** Vectors already computed for these text hashes (from the library or the cache). */
  reusable(model: EmbeddingModelKey, textHashes: string[]): Promise<Map<string, Int16Array>>;
  /** Stores vectors (and caches them by text hash) in one transaction. Rows of chunks deleted meanwhile are skipped. */
  put(model: EmbeddingModelKey, rows: StoredVector[]): Promise<void>;
  /** Every chunk id that has a vector for `model`, ascending. */
  ids(model: EmbeddingModelKey): Promise<Int32Array>;
  /** Vectors for `model` in chunk-id order, in pages (for rebuilding the index). */
  iterate(
    model: EmbeddingModelKey,
    page?: number,
  ): AsyncIterable<{ id: number; vector: Int16Array }>;
  /** Vectors of specific chunks. */
  get(model: EmbeddingModelKey, chunkIds: number[]): Promise<Map<number, Int16Array>>;
  loadIndex(model: EmbeddingModelKey): Promise<Uint8Array | null>;
  /**
   * Replaces the persisted index: whole bytes, or parts in order (e.g. `serializeParts()`),
   * each written as it comes so no whole copy is held.
   */
  saveIndex(model: EmbeddingModelKey, bytes: Uint8Array | Iterable<Uint8Array>): Promise<void>;
}

/** int16 little-endian bytes, as stored in the BLOB column. */
export function vectorToBlob(v: Int16Array): Uint8Array {
  const out = new Uint8Array(v.length * 2);
  const view = new DataView(out.buffer);
  for (let i = 0; i < v.length; i++) view.setInt16(i * 2, v[i] ?? 0, true);
  return out;
}

export function blobToVector(bytes: Uint8Array): Int16Array {
  const out = new Int16Array(bytes.length >> 1);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0; i < out.length; i++) out[i] = view.getInt16(i * 2, true);
  return out;
}

const modelKey = (m: EmbeddingModelKey) => `${m.id}@${m.version}`;
/** Bytes per row of vector_index_parts (migration 10): what wa-sqlite holds at once. */
const INDEX_PART = 1 << 20;

function* partsOf(bytes: Uint8Array): Generator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += INDEX_PART) {
    yield bytes.subarray(at, Math.min(bytes.length, at + INDEX_PART));
  }
}

/** How many vectors of deleted chunks to keep per model (edited files reuse them). */
const CACHE_SLACK = 20_000;
const TRIM_EVERY = 256;

export function createVectorStore(sql: Sql): VectorStore {
  let putsSinceTrim = 0;
  // Reads wait their turn in the connection's queue, so they never see another call's
  // uncommitted import (one connection serves the whole worker).
  const all = <T extends object>(q: string, params: Parameters<Sql['all']>[1]) =>
    sql.serialized(() => sql.all<T>(q, params));
  return {
    async counts(model) {
      const [row] = await all<{ total: number; embedded: number }>(
        `SELECT (SELECT count(*) FROM chunks) AS total,
                (SELECT count(*) FROM chunk_vectors WHERE model_id = ? AND model_version = ?) AS embedded`,
        [model.id, model.version],
      );
      return { total: Number(row?.total ?? 0), embedded: Number(row?.embedded ?? 0) };
    },

    async pending(model, limit) {
      const rows = await all<{ id: number; text: string }>(
        `SELECT c.id, c.text FROM chunks c
         WHERE NOT EXISTS (SELECT 1 FROM chunk_vectors v
                           WHERE v.chunk_id = c.id AND v.model_id = ? AND v.model_version = ?)
         ORDER BY c.id LIMIT ?`,
        [model.id, model.version, limit],
      );
      return rows.map((r) => ({ chunkId: Number(r.id), text: String(r.text) }));
    },

    async reusable(model, textHashes) {
      const out = new Map<string, Int16Array>();
      if (textHashes.length === 0) return out;
      const hashes = JSON.stringify([...new Set(textHashes)]);
      const rows = await all<{ h: string; vector: Uint8Array }>(
        `SELECT text_hash AS h, vector FROM vector_cache
           WHERE model = ? AND text_hash IN (SELECT value FROM json_each(?))
         UNION ALL
         SELECT text_hash AS h, vector FROM chunk_vectors
           WHERE model_id = ? AND model_version = ? AND text_hash IN (SELECT value FROM json_each(?))`,
        [modelKey(model), hashes, model.id, model.version, hashes],
      );
      for (const r of rows) if (!out.has(r.h)) out.set(r.h, blobToVector(r.vector));
      return out;
    },

    async put(model, rows) {
      if (rows.length === 0) return;
      const key = modelKey(model);
      await sql.transaction(async () => {
        for (const r of rows) {
          const blob = vectorToBlob(r.vector);
          // INSERT ... SELECT skips chunks deleted while their vector was being computed.
          await sql.run(
            `INSERT OR REPLACE INTO chunk_vectors (chunk_id, model_id, model_version, dim, text_hash, vector)
             SELECT id, ?, ?, ?, ?, ? FROM chunks WHERE id = ?`,
            [model.id, model.version, model.dim, r.textHash, blob, r.chunkId],
          );
          // A reused cached vector lives in chunk_vectors again: one copy.
          await sql.run('DELETE FROM vector_cache WHERE model = ? AND text_hash = ?', [
            key,
            r.textHash,
          ]);
        }
        // vector_cache holds only vectors of deleted chunks (migration 9's trigger), each vector
        // is stored once. Keep it bounded (the newest CACHE_SLACK, for edited files); the trim
        // scans the cache, so it runs every TRIM_EVERY writes, not on each small batch.
        if (++putsSinceTrim >= TRIM_EVERY) {
          putsSinceTrim = 0;
          await sql.run(
            `DELETE FROM vector_cache WHERE model = ? AND rowid IN (
               SELECT rowid FROM vector_cache WHERE model = ? ORDER BY used_at DESC
               LIMIT -1 OFFSET ?)`,
            [key, key, CACHE_SLACK],
          );
        }
      });
    },

    async ids(model) {
      const rows = await all<{ chunk_id: number }>(
        'SELECT chunk_id FROM chunk_vectors WHERE model_id = ? AND model_version = ? ORDER BY chunk_id',
        [model.id, model.version],
      );
      return Int32Array.from(rows, (r) => Number(r.chunk_id));
    },

    async *iterate(model, page = 1000) {
      let after = -1;
      for (;;) {
        const rows = await all<{ chunk_id: number; vector: Uint8Array }>(
          `SELECT chunk_id, vector FROM chunk_vectors
           WHERE model_id = ? AND model_version = ? AND chunk_id > ? ORDER BY chunk_id LIMIT ?`,
          [model.id, model.version, after, page],
        );
        if (rows.length === 0) return;
        for (const r of rows) yield { id: Number(r.chunk_id), vector: blobToVector(r.vector) };
        after = Number(rows[rows.length - 1]?.chunk_id ?? after);
      }
    },

    async get(model, chunkIds) {
      const out = new Map<number, Int16Array>();
      if (chunkIds.length === 0) return out;
      const rows = await all<{ chunk_id: number; vector: Uint8Array }>(
        `SELECT chunk_id, vector FROM chunk_vectors WHERE model_id = ? AND model_version = ?
           AND chunk_id IN (SELECT value FROM json_each(?))`,
        [model.id, model.version, JSON.stringify(chunkIds)],
      );
      for (const r of rows) out.set(Number(r.chunk_id), blobToVector(r.vector));
      return out;
    },

    async loadIndex(model) {
      const key = modelKey(model);
      const [row] = await all<{ bytes: Uint8Array; n: number; total: number }>(
        `SELECT v.bytes,
                (SELECT COUNT(*) FROM vector_index_parts p WHERE p.model = v.model) AS n,
                (SELECT COALESCE(SUM(length(p.bytes)), 0) FROM vector_index_parts p
                  WHERE p.model = v.model) AS total
           FROM vector_index v WHERE v.model = ?`,
        [key],
      );
      if (!row) return null;
      // A blob saved before migration 10 (read whole, once; the next save writes parts).
      if (Number(row.n) === 0) return row.bytes?.length ? new Uint8Array(row.bytes) : null;
      // Parts one query at a time, straight into the one buffer the caller gets: wa-sqlite never
      // holds more than a part, and no second JS copy of the index is made.
      const out = new Uint8Array(Number(row.total));
      let at = 0;
      for (let part = 0; part < Number(row.n); part++) {
        const [p] = await all<{ bytes: Uint8Array }>(
          'SELECT bytes FROM vector_index_parts WHERE model = ? AND part = ?',
          [key, part],
        );
        // A missing or oversized part: hand back what is there; the index's own length and
        // CRC32 check then fail and the index is rebuilt from chunk_vectors.
        if (!p?.bytes || at + p.bytes.length > out.length) return out.subarray(0, at);
        out.set(p.bytes, at);
        at += p.bytes.length;
      }
      return out;
    },

    async saveIndex(model, bytes) {
      const key = modelKey(model);
      await sql.transaction(async () => {
        await sql.run('DELETE FROM vector_index_parts WHERE model = ?', [key]);
        // Views, not copies: each part is copied once, by the bind, into SQLite's memory.
        // (A serialised index is never empty: it has a header. No bytes load back as "none".)
        let part = 0;
        for (const piece of bytes instanceof Uint8Array ? partsOf(bytes) : bytes) {
          if (piece.length === 0) continue;
          await sql.run('INSERT INTO vector_index_parts (model, part, bytes) VALUES (?, ?, ?)', [
            key,
            part++,
            piece,
          ]);
        }
        await sql.run(
          "INSERT OR REPLACE INTO vector_index (model, bytes, saved_at) VALUES (?, X'', ?)",
          [key, Date.now()],
        );
      });
    },
  };
}
