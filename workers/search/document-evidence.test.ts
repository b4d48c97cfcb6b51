import { describe, expect, it } from 'vitest';
import { BEST_CHUNK_ONLY, groupByDocument } from './document-evidence';

const c = (path: string, seq: number, score: number) => ({ path, seq, score, chunkId: seq });

describe('document-level evidence', () => {
  const list = [
    c('lucky.md', 0, 1.0),
    c('many.md', 0, 0.8),
    c('many.md', 1, 0.7),
    c('many.md', 2, 0.6),
  ];

  it('with best chunk only, ranks a document by its best chunk and keeps its passages', () => {
    const docs = groupByDocument(list, BEST_CHUNK_ONLY);
    expect(docs.map((d) => [d.path, d.score])).toEqual([
      ['lucky.md', 1.0],
      ['many.md', 0.8],
    ]);
    expect(docs[1]!.passages.map((p) => p.seq)).toEqual([0, 1, 2]);
  });

  it('adds a damped sum of the next chunks, so several matching passages beat one lucky chunk', () => {
    const docs = groupByDocument(list, { decay: 0.5, depth: 3 });
    expect(docs[0]!.path).toBe('many.md');
    expect(docs[0]!.score).toBeCloseTo(0.8 + 0.5 * 0.7 + 0.25 * 0.6, 12);
    // depth bounds how many chunks count
    expect(groupByDocument(list, { decay: 0.5, depth: 2 })[0]!.score).toBeCloseTo(1.15, 12);
  });

  it('orders tied documents by path and passages by the one ranking order', () => {
    const docs = groupByDocument(
      [c('b.md', 1, 1), c('a.md', 0, 1), c('b.md', 0, 1)],
      BEST_CHUNK_ONLY,
    );
    expect(docs.map((d) => d.path)).toEqual(['a.md', 'b.md']);
    expect(docs[1]!.passages.map((p) => p.seq)).toEqual([0, 1]);
  });
});
