// Row storage shared by HNSW and the exact index: int16 vectors, chunk ids and tombstones in
// typed arrays grown by doubling (no per-vector JS objects), plus the id -> row map.
import { createError } from '../shared/errors';
import { QUANT_SCALE } from './types';

export class VectorRows {
  capacity: number;
  /** Rows in use, live or tombstoned. */
  count = 0;
  /** Live rows. */
  live = 0;
  vectors: Int16Array;
  ids: Float64Array;
  deleted: Uint8Array;
  readonly slotOf = new Map<number, number>();

  constructor(
    readonly dim: number,
    capacity: number,
  ) {
    if (!Number.isInteger(dim) || dim < 1) {
      throw createError('INVALID_ARGUMENT', {
        reason: `Vector dimension must be a positive integer (got ${dim}).`,
      });
    }
    this.capacity = Math.max(1, capacity | 0);
    this.vectors = new Int16Array(this.capacity * dim);
    this.ids = new Float64Array(this.capacity);
    this.deleted = new Uint8Array(this.capacity);
  }

  /** Grows to hold at least `needed` rows; returns the new capacity when it grew, else 0. */
  ensure(needed: number): number {
    if (needed <= this.capacity) return 0;
    let cap = this.capacity;
    while (cap < needed) cap *= 2;
    const v = new Int16Array(cap * this.dim);
    v.set(this.vectors.subarray(0, this.count * this.dim));
    this.vectors = v;
    const ids = new Float64Array(cap);
    ids.set(this.ids.subarray(0, this.count));
    this.ids = ids;
    const del = new Uint8Array(cap);
    del.set(this.deleted.subarray(0, this.count));
    this.deleted = del;
    this.capacity = cap;
    return cap;
  }

  /** @throws AppError INVALID_ARGUMENT for a wrong length, a non-integer id or an out-of-range value. */
  validate(id: number, vector: Int16Array): void {
    if (!Number.isSafeInteger(id)) {
      throw createError('INVALID_ARGUMENT', {
        reason: `Vector ids must be safe integers (chunk ids); got ${id}.`,
      });
    }
    this.validateQuery(vector);
    for (let i = 0; i < vector.length; i++) {
      // -32768 would break the SIMD kernel (i32x4.dot_i16x8_s wraps) and the 2^31 bound.
      if (vector[i] === -QUANT_SCALE - 1) {
        throw createError('INVALID_ARGUMENT', {
          reason: 'Vector values must lie in [-32767, 32767]; quantise with the canonical scale.',
        });
      }
    }
  }

  validateQuery(vector: Int16Array): void {
    if (!(vector instanceof Int16Array) || vector.length !== this.dim) {
      throw createError('INVALID_ARGUMENT', {
        reason: `Expected an Int16Array of length ${this.dim}; got ${vector instanceof Int16Array ? vector.length : typeof vector}.`,
      });
    }
  }

  /** Appends a live row (caller ensured capacity and tombstoned any previous row of `id`). */
  append(id: number, vector: Int16Array): number {
    const slot = this.count++;
    this.vectors.set(vector, slot * this.dim);
    this.ids[slot] = id;
    this.deleted[slot] = 0;
    this.slotOf.set(id, slot);
    this.live++;
    return slot;
  }

  /** Tombstones the row of `id`; returns its slot or -1. */
  tombstone(id: number): number {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return -1;
    this.slotOf.delete(id);
    this.deleted[slot] = 1;
    this.live--;
    return slot;
  }

  get(id: number): Int16Array | null {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return null;
    return this.vectors.slice(slot * this.dim, (slot + 1) * this.dim);
  }

  liveIds(): number[] {
    const out: number[] = [];
    for (let s = 0; s < this.count; s++) if (!this.deleted[s]) out.push(this.ids[s]!);
    return out;
  }

  /** Keeps only live rows, in order; returns old slot -> new slot (-1 for dropped). */
  compactRows(): Int32Array {
    const map = new Int32Array(this.count).fill(-1);
    let w = 0;
    const dim = this.dim;
    for (let s = 0; s < this.count; s++) {
      if (this.deleted[s]) continue;
      map[s] = w;
      if (w !== s) {
        this.vectors.copyWithin(w * dim, s * dim, (s + 1) * dim);
        this.ids[w] = this.ids[s]!;
      }
      this.deleted[w] = 0;
      w++;
    }
    this.deleted.fill(0, w, this.count);
    this.count = w;
    this.slotOf.clear();
    for (let s = 0; s < w; s++) this.slotOf.set(this.ids[s]!, s);
    return map;
  }

  /** Bytes held by the row arrays. */
  bytes(): number {
    return this.vectors.byteLength + this.ids.byteLength + this.deleted.byteLength;
  }

  /** Rebuilds the id map after restoring arrays; false when a live id occurs twice. */
  reindex(): boolean {
    this.slotOf.clear();
    this.live = 0;
    for (let s = 0; s < this.count; s++) {
      if (this.deleted[s]) continue;
      const id = this.ids[s]!;
      if (!Number.isSafeInteger(id) || this.slotOf.has(id)) return false;
      this.slotOf.set(id, s);
      this.live++;
    }
    return true;
  }
}

/** "a ranks before b": similarity descending, then id ascending (the one tie-break everywhere). */
export function better(aScore: number, aId: number, bScore: number, bId: number): boolean {
  return aScore > bScore || (aScore === bScore && aId < bId);
}

/**
 * Binary heap of (slot, score) in typed arrays. `worstOnTop` = results heap (pop the worst);
 * otherwise the candidate queue (pop the best). Order uses `better` with ids from `ids`.
 */
export class SlotHeap {
  slots: Int32Array;
  scores: Float64Array;
  size = 0;
  ids: Float64Array = new Float64Array(0);

  constructor(
    capacity: number,
    private readonly worstOnTop: boolean,
  ) {
    this.slots = new Int32Array(Math.max(4, capacity));
    this.scores = new Float64Array(Math.max(4, capacity));
  }

  reset(ids: Float64Array): void {
    this.size = 0;
    this.ids = ids;
  }

  /** True when element i belongs above element j. */
  private above(i: number, j: number): boolean {
    const si = this.scores[i]!;
    const sj = this.scores[j]!;
    const ii = this.ids[this.slots[i]!]!;
    const ij = this.ids[this.slots[j]!]!;
    return this.worstOnTop ? better(sj, ij, si, ii) : better(si, ii, sj, ij);
  }

  private swap(i: number, j: number): void {
    const s = this.slots[i]!;
    this.slots[i] = this.slots[j]!;
    this.slots[j] = s;
    const c = this.scores[i]!;
    this.scores[i] = this.scores[j]!;
    this.scores[j] = c;
  }

  push(slot: number, score: number): void {
    if (this.size === this.slots.length) {
      const s = new Int32Array(this.size * 2);
      s.set(this.slots);
      this.slots = s;
      const c = new Float64Array(this.size * 2);
      c.set(this.scores);
      this.scores = c;
    }
    let i = this.size++;
    this.slots[i] = slot;
    this.scores[i] = score;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.above(i, p)) break;
      this.swap(i, p);
      i = p;
    }
  }

  topSlot(): number {
    return this.slots[0]!;
  }
  topScore(): number {
    return this.scores[0]!;
  }

  pop(): void {
    const last = --this.size;
    if (last === 0) return;
    this.slots[0] = this.slots[last]!;
    this.scores[0] = this.scores[last]!;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= last) break;
      const r = l + 1;
      const c = r < last && this.above(r, l) ? r : l;
      if (!this.above(c, i)) break;
      this.swap(c, i);
      i = c;
    }
  }

  /** Empties a worst-on-top heap into best-first arrays; returns the count. */
  drainBestFirst(outSlots: Int32Array, outScores: Float64Array): number {
    const n = this.size;
    for (let i = n - 1; i >= 0; i--) {
      outSlots[i] = this.topSlot();
      outScores[i] = this.topScore();
      this.pop();
    }
    return n;
  }
}
