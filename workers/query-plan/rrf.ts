// RRF for research lists, delegating to the one implementation in workers/search/rrf.ts
// (CFS-012: 1/(k + rank + 1) with 0-based rank = the WSOP spec's 1/(k + rank) with 1-based rank;
// k = 60; ties by path then chunk sequence). Hits that carry chunkId/path/seq (SearchHit) keep
// CFS-012's tie-breaks; plain {id} hits use the id as the path.
import { reciprocalRankFusion, RRF_K, type RankedCandidate } from '../search/rrf';
import type { RankedHit } from './types';

export { RRF_K };

type Candidate<H> = RankedCandidate & { hit: H; id: string };

export function rrf<H extends RankedHit>(
  lists: H[][],
  k: number = RRF_K,
): Array<{ id: string; score: number; hit: H }> {
  const numeric = new Map<string, number>();
  // chunkIds must identify hits across lists: real ones when every hit has one, else one shared numbering.
  const real = lists.every((l) =>
    l.every((h) => typeof (h as Partial<RankedCandidate>).chunkId === 'number'),
  );
  const toCandidate = (hit: H): Candidate<H> => {
    const h = hit as H & Partial<RankedCandidate>;
    let chunkId = numeric.get(hit.id);
    if (chunkId === undefined) {
      chunkId = real && typeof h.chunkId === 'number' ? h.chunkId : numeric.size;
      numeric.set(hit.id, chunkId);
    }
    return {
      chunkId,
      path: typeof h.path === 'string' ? h.path : hit.id,
      seq: typeof h.seq === 'number' ? h.seq : 0,
      score: hit.score,
      hit,
      id: hit.id,
    };
  };
  const fused = reciprocalRankFusion(
    lists.map((items, i) => ({ name: `list${i}`, items: items.map(toCandidate) })),
    { k },
  );
  return fused.map((f) => ({ id: f.item.id, score: f.score, hit: f.item.hit }));
}
