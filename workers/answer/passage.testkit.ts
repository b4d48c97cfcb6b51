// Test support: a one-chunk Passage as retrieval would hand it to the answer pipeline (rank,
// BM25 score, optional cosine), for the evaluator, refinement and ranker tests, and the term
// statistics of a small corpus.
import type { Passage } from './passages';
import { contentStems } from './text';
import type { LexicalStats } from './types';

/** Term statistics over `corpus` (one text per chunk), as the library's would count them. */
export function corpusStats(corpus: readonly string[]): LexicalStats {
  return {
    async docFreq(words) {
      const sets = corpus.map((t) => new Set(contentStems(t)));
      return {
        total: corpus.length,
        df: words.map((w) => sets.filter((s) => s.has(contentStems(w)[0] ?? w)).length),
      };
    },
  };
}

export function passage(
  documentId: number,
  rank: number,
  text: string,
  bm25: number,
  cosine: number | null = null,
): Passage {
  return {
    documentId,
    path: `doc${documentId}.txt`,
    title: `doc${documentId}`,
    rank,
    hits: [
      {
        chunkId: documentId * 10,
        documentId,
        path: `doc${documentId}.txt`,
        title: `doc${documentId}`,
        seq: 0,
        start: 0,
        end: text.length,
        text,
        fusedRank: rank,
        fusedScore: 1 / (60 + rank),
        lexicalScore: bm25,
        lexicalRank: rank,
        cosine,
        semanticRank: cosine === null ? null : rank,
      },
    ],
    ranges: [{ start: 0, end: text.length }],
    chunkIds: [documentId * 10],
    text,
  };
}
