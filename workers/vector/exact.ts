// The exact (brute-force) vector index: the oracle HNSW is tested against, and the right
// index for small libraries. Same VectorIndex interface, same tie-break (dot desc, id asc),
// same byte format family (kind = exact).
import { SectionReader, SectionWriter } from './codec';
import { jsDotKernel } from './dot-kernel';
import { corrupt, HEADER_BYTES, KIND_EXACT, readHeader, sealChecksum, writeHeader } from './format';
import { RowIndex } from './row-index';
import { checkSearchArgs, enumerableIds, exactScan, filterPredicate } from './scan';
import type {
  DotKernel,
  VectorHit,
  VectorIndex,
  VectorIndexStats,
  VectorSearchOptions,
} from './types';

export interface ExactConfig {
  dim: number;
  initialCapacity?: number | undefined;
}

class ExactIndex extends RowIndex implements VectorIndex {
  readonly kind = 'exact' as const;

  constructor(
    dim: number,
    capacity: number,
    private readonly kernel: DotKernel,
  ) {
    super(dim, capacity);
  }

  add(id: number, vector: Int16Array): void {
    this.rows.validate(id, vector);
    this.rows.tombstone(id);
    this.rows.ensure(this.rows.count + 1);
    this.rows.append(id, vector);
  }

  search(query: Int16Array, k: number, options: VectorSearchOptions = {}): VectorHit[] {
    this.rows.validateQuery(query);
    checkSearchArgs(k, options);
    return exactScan(
      this.rows,
      this.kernel,
      query,
      k,
      filterPredicate(options.filter),
      enumerableIds(options.filter),
    );
  }

  compact(): void {
    this.rows.compactRows();
  }

  serialize(): Uint8Array {
    const rows = this.rows;
    const n = rows.count;
    const w = new SectionWriter(HEADER_BYTES);
    w.add(rows.ids.subarray(0, n));
    w.add(rows.deleted.subarray(0, n));
    w.add(rows.vectors.subarray(0, n * this.dim));
    const out = new Uint8Array(w.length);
    writeHeader(out, {
      kind: KIND_EXACT,
      dim: this.dim,
      rows: n,
      M: 0,
      efConstruction: 0,
      efSearch: 0,
      levelSeed: 0,
      entry: -1,
      maxLevel: 0,
      upperLength: 0,
      filterExactMaxAllowed: 0,
      filterExactMaxFraction: 0,
    });
    w.writeInto(out);
    sealChecksum(out);
    return out;
  }

  stats(): VectorIndexStats {
    const rows = this.rows;
    return {
      kind: 'exact',
      dim: this.dim,
      size: rows.live,
      deleted: rows.count - rows.live,
      bytes: rows.bytes(),
      maxLevel: 0,
    };
  }
}

/** Creates an empty exact index. @throws AppError INVALID_ARGUMENT for a bad dimension. */
export function createExactIndex(
  config: ExactConfig,
  deps: { kernel?: DotKernel | undefined } = {},
): VectorIndex {
  return new ExactIndex(config.dim, config.initialCapacity ?? 1024, deps.kernel ?? jsDotKernel);
}

/**
 * Reads bytes written by an exact index's `serialize()`.
 * @throws AppError INDEX_CORRUPT for missing, foreign, truncated or inconsistent bytes.
 */
export function deserializeExact(
  bytes: Uint8Array,
  deps: { kernel?: DotKernel | undefined } = {},
): VectorIndex {
  const h = readHeader(bytes);
  if (h.kind !== KIND_EXACT) corrupt('The vector index file is not an exact index.');
  if (h.dim < 1 || h.rows * (h.dim * 2 + 9) > bytes.length)
    corrupt('The vector index header holds invalid sizes.');
  const index = new ExactIndex(h.dim, Math.max(1, h.rows), deps.kernel ?? jsDotKernel);
  const r = new SectionReader(bytes, HEADER_BYTES);
  const ids = r.float64(h.rows);
  const deleted = r.uint8(h.rows);
  const vectors = r.int16(h.rows * h.dim);
  if (r.end() !== bytes.length) corrupt('The vector index file has trailing bytes.');
  if (h.rows > 0) {
    const rows = index.rows;
    rows.ids = ids;
    rows.deleted = deleted;
    rows.vectors = vectors;
    rows.count = h.rows;
    rows.capacity = h.rows;
    if (!rows.reindex()) corrupt('The vector index holds a duplicate or invalid id.');
  }
  return index;
}
