// The exact scan shared by the oracle index, HNSW's `exact` option and HNSW's small-filter
// fallback: top-k by exact dot product with the one tie-break (dot desc, id asc).
import { createError } from '../shared/errors';
import type { VectorRows } from './rows';
import { SlotHeap } from './rows';
import type { AllowedFilter, DotKernel, VectorHit } from './types';
import { dotToCosine } from './types';

/** @throws AppError INVALID_ARGUMENT unless k is a positive integer. */
const SCAN_BLOCK = 256;

export function checkK(k: number): void {
  if (!Number.isInteger(k) || k < 1) {
    throw createError('INVALID_ARGUMENT', { reason: `k must be a positive integer (got ${k}).` });
  }
}

/** Validates a search call's k and per-call ef (both indexes accept the same options). */
export function checkSearchArgs(k: number, options: { ef?: number }): void {
  checkK(k);
  if (options.ef !== undefined && (!Number.isInteger(options.ef) || options.ef < 1)) {
    throw createError('INVALID_ARGUMENT', {
      reason: `ef must be a positive integer (got ${options.ef}).`,
    });
  }
}

export function filterPredicate(
  filter: AllowedFilter | undefined,
): ((id: number) => boolean) | null {
  if (!filter) return null;
  if (typeof filter === 'function') return filter;
  return (id) => filter.has(id);
}

/** The allowed set's ids when it can be enumerated (a Set), so the scan visits only those rows. */
export function enumerableIds(filter: AllowedFilter | undefined): Iterable<number> | null {
  if (!filter || typeof filter === 'function') return null;
  return Symbol.iterator in filter ? (filter as unknown as Iterable<number>) : null;
}

export function hitsFrom(
  rows: VectorRows,
  slots: Int32Array,
  scores: Float64Array,
  n: number,
): VectorHit[] {
  const out: VectorHit[] = new Array<VectorHit>(n);
  for (let i = 0; i < n; i++) {
    const dot = scores[i]!;
    out[i] = { id: rows.ids[slots[i]!]!, dot, cosine: dotToCosine(dot) };
  }
  return out;
}

/**
 * Exact top-k over live rows. With `onlyIds` only those ids are looked up (cost O(|ids|)),
 * otherwise every row is scanned and `accept` (if any) decides.
 */
export function exactScan(
  rows: VectorRows,
  kernel: DotKernel,
  query: Int16Array,
  k: number,
  accept: ((id: number) => boolean) | null,
  onlyIds: Iterable<number> | null,
): VectorHit[] {
  const heap = new SlotHeap(k + 1, true);
  heap.reset(rows.ids);
  const { vectors, dim, ids, deleted } = rows;
  // Rows are scored in blocks so a WASM kernel crosses the boundary once per block.
  const block = new Int32Array(SCAN_BLOCK);
  const blockScores = new Int32Array(SCAN_BLOCK);
  let m = 0;
  const flush = (): void => {
    if (kernel.dotBatch) kernel.dotBatch(query, 0, vectors, block, m, dim, blockScores);
    else
      for (let j = 0; j < m; j++)
        blockScores[j] = kernel.dot(query, 0, vectors, block[j]! * dim, dim);
    for (let j = 0; j < m; j++) {
      const slot = block[j]!;
      const s = blockScores[j]!;
      if (heap.size < k) heap.push(slot, s);
      else {
        const ws = heap.topScore();
        if (s > ws || (s === ws && ids[slot]! < ids[heap.topSlot()]!)) {
          heap.pop();
          heap.push(slot, s);
        }
      }
    }
    m = 0;
  };
  const consider = (slot: number): void => {
    block[m++] = slot;
    if (m === SCAN_BLOCK) flush();
  };
  if (onlyIds) {
    const seen = new Set<number>();
    for (const id of onlyIds) {
      const slot = rows.slotOf.get(id);
      if (slot === undefined || seen.has(slot)) continue;
      seen.add(slot);
      consider(slot);
    }
  } else {
    for (let slot = 0; slot < rows.count; slot++) {
      if (deleted[slot]) continue;
      if (accept && !accept(ids[slot]!)) continue;
      consider(slot);
    }
  }
  flush();
  const slots = new Int32Array(heap.size);
  const scores = new Float64Array(heap.size);
  const n = heap.drainBestFirst(slots, scores);
  return hitsFrom(rows, slots, scores, n);
}
