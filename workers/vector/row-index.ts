// What HNSW and the exact index answer straight from their rows: the live count, tombstoning
// and lookups by id. Kept once so the two implementations of VectorIndex cannot drift apart on
// them.
import { VectorRows } from './rows';

export abstract class RowIndex {
  readonly dim: number;
  readonly rows: VectorRows;

  /** @throws AppError INVALID_ARGUMENT for a bad dimension. */
  constructor(dim: number, capacity: number) {
    this.dim = dim;
    this.rows = new VectorRows(dim, capacity);
  }

  get size(): number {
    return this.rows.live;
  }

  remove(id: number): boolean {
    return this.rows.tombstone(id) >= 0;
  }

  has(id: number): boolean {
    return this.rows.slotOf.has(id);
  }

  get(id: number): Int16Array | null {
    return this.rows.get(id);
  }

  ids(): number[] {
    return this.rows.liveIds();
  }
}
