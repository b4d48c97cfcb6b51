// Test support: a one-chunk Passage as retrieval would hand it to the answer pipeline (rank,
// BM25 score, optional cosine), for the evaluator, refinement and ranker tests.
import type { Passage } from './passages';

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
