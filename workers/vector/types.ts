// The vector-index contract: one interface served by HNSW and by the exact (brute-force) oracle.
// Owns: the DotKernel seam, build config vs per-call options, hit and filter shapes.
// The SIMD kernel is injected, never imported.

// The canonical scale and the cosine of an int dot live in workers/shared/quant.ts (one rule).
export { QUANT_SCALE, DOT_SCALE, dotToCosine } from '../shared/quant';

/**
 * The distance seam. Similarity is the exact int32 dot product of two int16 rows; for unit
 * vectors scaled by 32767 every partial sum stays below 2^31 (STACK-NOTES), so any correct
 * implementation (JS, WASM SIMD) returns bit-identical values and the graph is identical.
 */
export interface DotKernel {
  /** sum(a[aOff+i] * b[bOff+i]) for i < dim, as an exact integer. */
  dot(a: Int16Array, aOff: number, b: Int16Array, bOff: number, dim: number): number;
  /**
   * Optional batch form: out[j] = dot(query, qOff, rows, slots[j] * dim, dim) for j < count.
   * One call per expanded graph node, so a WASM kernel crosses the boundary once per node.
   */
  dotBatch?(
    query: Int16Array,
    qOff: number,
    rows: Int16Array,
    slots: Int32Array,
    count: number,
    dim: number,
    out: Int32Array,
  ): void;
}

/** Build-time parameters of an HNSW graph; they are persisted with it. */
export interface HnswBuildConfig {
  /** Vector length; every inserted vector must have exactly this many int16 values. */
  dim: number;
  /** Called M in the paper: links per node on the upper layers (level 0 keeps 2*M, "Mmax0"). 16 in hnswlib. */
  M?: number;
  /** Called efConstruction in the paper; 200 in hnswlib. Candidate list size while inserting. */
  efConstruction?: number;
  /** Called ef (efSearch in hnswlib) in the paper; 50 in CFS-012. Default per-call candidate list size. */
  efSearch?: number;
  /** Salt mixed into the id hash that assigns levels; change it only to get a different (still deterministic) graph. */
  levelSeed?: number;
  /**
   * Filtered search scans the allowed set exactly (instead of walking the graph) when it has at
   * most this many live ids. Default 4096: a scan of 4096 rows costs about what one graph query
   * at ef 50-100 costs (roughly 2-4k dot products), and it is exact.
   */
  filterExactMaxAllowed?: number;
  /**
   * ... or when the allowed set is at most this fraction of the live ids. Default 0.05: the
   * traversal must walk past about 1/fraction disallowed nodes per admitted result, so below 5%
   * it stops being cheaper than the scan and its recall drops.
   */
  filterExactMaxFraction?: number;
  /** Initial row capacity; storage grows by doubling. */
  initialCapacity?: number | undefined;
}

/**
 * Which ids a search may return. A `ReadonlySet<number>` (or anything with `has` and `size`)
 * lets the index choose an exact scan for small sets; a bare predicate always walks the graph.
 */
export type AllowedFilter =
  { has(id: number): boolean; readonly size: number } | ((id: number) => boolean);

/** Per-call options (apart from the build config). */
export interface VectorSearchOptions {
  /** Candidate list size for this call (efSearch); raised to k when smaller. */
  ef?: number;
  /** Brute-force over live rows instead of the graph (the oracle path). */
  exact?: boolean;
  /** Only ids for which the filter holds are returned; applied inside the traversal. */
  filter?: AllowedFilter;
}

export interface VectorHit {
  id: number;
  /** Exact int32 dot product of the query and the stored vector. */
  dot: number;
  /** dot / 32767^2 (cosine similarity for canonical unit vectors). */
  cosine: number;
}

export interface VectorIndexStats {
  kind: 'hnsw' | 'exact';
  dim: number;
  /** Live (searchable) vectors. */
  size: number;
  /** Tombstoned rows still occupying storage until compact(). */
  deleted: number;
  /** Bytes held by the typed arrays (vectors, ids, links). */
  bytes: number;
  maxLevel: number;
}

/** The one interface both HNSW and the exact oracle implement (contract-tested together). */
export interface VectorIndex {
  readonly kind: 'hnsw' | 'exact';
  readonly dim: number;
  /** Number of live vectors. */
  readonly size: number;
  /**
   * Inserts (or replaces) the vector of chunk `id`. The vector is copied.
   * @throws AppError INVALID_ARGUMENT when the length is not `dim`, the id is not a safe
   * integer, or a value is outside [-32767, 32767].
   */
  add(id: number, vector: Int16Array): void;
  /** Tombstones `id`; returns false when it was not present. */
  remove(id: number): boolean;
  has(id: number): boolean;
  /** Stored copy of a live vector, or null. */
  get(id: number): Int16Array | null;
  /** Live ids in insertion (row) order. */
  ids(): number[];
  /**
   * Top-k live ids by dot product, best first; ties by id ascending.
   * @throws AppError INVALID_ARGUMENT when the query length is not `dim` or k is not a positive integer.
   */
  search(query: Int16Array, k: number, options?: VectorSearchOptions): VectorHit[];
  /** Drops tombstoned rows and repairs the links that pointed at them. */
  compact(): void;
  /** Bytes with magic, format version and CRC32; `deserializeVectorIndex` reads them back. */
  serialize(): Uint8Array;
  /**
   * The bytes of `serialize()` in parts of `partBytes` (default 1 MB), made one at a time as
   * they are taken, so a large index is persisted without a second whole copy. The index must
   * not change until the last part has been taken. Optional: callers fall back to serialize().
   */
  serializeParts?(partBytes?: number): Iterable<Uint8Array>;
  stats(): VectorIndexStats;
}

export interface RebuildProgress {
  done: number;
  /** Known when the source told us (e.g. a COUNT(*) from SQLite); otherwise null. */
  total: number | null;
}
