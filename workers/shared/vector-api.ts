// DTOs of the vector index for the UI and the worker boundary (plain data only).
// Owns: the index status shown to the user (size, rebuild progress and why a rebuild ran).
// Must not import any other layer.

export type VectorIndexState = 'ready' | 'rebuilding' | 'empty';

export interface VectorIndexStatus {
  state: VectorIndexState;
  kind: 'hnsw' | 'exact';
  /** Live vectors searchable now. */
  size: number;
  /** Tombstones waiting for compaction. */
  deleted: number;
  /** Memory held by the index's typed arrays. */
  bytes: number;
  /** While rebuilding: rows inserted so far and the total when known. */
  rebuild: { done: number; total: number | null } | null;
  /** ErrorCode (e.g. INDEX_CORRUPT) and message of the last rebuild's cause, to tell the user. */
  lastRebuildReason: { code: string; message: string } | null;
}
