// Reciprocal Rank Fusion as CFS-012 writes it: score(d) = sum over lists of 1 / (k + rank + 1)
// with 0-based rank, i.e. the WSOP spec's 1 / (k + rank) with 1-based rank; k = 60.
// Ties: higher score, then better best rank, then id (deterministic). Local to research so the
// planner works before workers/search/rrf.ts exists; the lead may inject that one instead.
import type { RankedHit } from './types';

export const RRF_K = 60;

export function rrf<H extends RankedHit>(
  lists: H[][],
  k: number = RRF_K,
): Array<{ id: string; score: number; hit: H }> {
  const acc = new Map<string, { id: string; score: number; hit: H; best: number }>();
  for (const list of lists) {
    const seen = new Set<string>();
    list.forEach((hit, rank) => {
      if (seen.has(hit.id)) return; // a list counts a document once, at its best rank
      seen.add(hit.id);
      const add = 1 / (k + rank + 1);
      const e = acc.get(hit.id);
      if (e) {
        e.score += add;
        e.best = Math.min(e.best, rank);
      } else acc.set(hit.id, { id: hit.id, score: add, hit, best: rank });
    });
  }
  return [...acc.values()]
    .sort(
      (a, b) => b.score - a.score || a.best - b.best || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    )
    .map(({ id, score, hit }) => ({ id, score, hit }));
}
