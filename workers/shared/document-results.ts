// One entry per document in a result list (issue 15 item 6): ranked chunks are grouped by their
// document in order of first appearance, so documents keep the order of their best chunk (what
// the eval measures, workers/search/document-evidence.ts with best chunk only) and each keeps its
// next best passages beneath it. Pure and deterministic.
import type { DocumentResult, SearchHit } from './types';

/** Passages kept per document beyond its best one (shown collapsed: "3 more passages"). */
export const MORE_PASSAGES = 5;

/**
 * Adds ranked `items` (best first) to `groups` (insertion-ordered): an item joins its key's
 * group, skipping ids already there (`idOf`; null: no check) and groups already holding `perGroup` items; a new key opens
 * a group only while there are fewer than `maxGroups`. Existing groups never move, so a deeper
 * reading of a ranking only appends.
 */
export function addInOrder<T, K>(
  groups: Map<K, T[]>,
  items: readonly T[],
  keyOf: (item: T) => K,
  idOf: ((item: T) => unknown) | null,
  maxGroups: number,
  perGroup: number,
): void {
  for (const item of items) {
    const key = keyOf(item);
    let g = groups.get(key);
    if (!g) {
      if (groups.size >= maxGroups) continue;
      groups.set(key, (g = []));
    }
    if (g.length >= perGroup) continue;
    const id = idOf?.(item);
    if (!idOf || !g.some((x) => idOf(x) === id)) g.push(item);
  }
}

/** Ranked `items` grouped by `keyOf` in order of first appearance. */
export function groupInOrder<T, K>(
  items: readonly T[],
  keyOf: (item: T) => K,
  maxGroups = Infinity,
  perGroup = Infinity,
): T[][] {
  const groups = new Map<K, T[]>();
  addInOrder(groups, items, keyOf, null, maxGroups, perGroup);
  return [...groups.values()];
}

/** Ranked hits as one entry per document (at most `maxDocuments`, each at most 1 + MORE_PASSAGES). */
export function documentResults(
  hits: readonly SearchHit[],
  maxDocuments = Infinity,
): DocumentResult[] {
  const groups = new Map<number, SearchHit[]>();
  addInOrder(
    groups,
    hits,
    (h) => h.documentId,
    (h) => h.chunkId,
    maxDocuments,
    1 + MORE_PASSAGES,
  );
  return [...groups.values()].map((passages) => {
    const best = passages[0]!;
    return {
      documentId: best.documentId,
      path: best.path,
      title: best.title,
      mime: best.mime,
      passages,
    };
  });
}
