import { describe, expect, it } from 'vitest';
import { evaluate, mrrAt, ndcgAt, rankRun, recallAt } from './metrics';

describe('metrics (hand-computed)', () => {
  const rels = { d1: 1, d3: 2, d9: 1 };
  const ranked = ['d3', 'd2', 'd1', 'd4'];

  it('nDCG@k with linear gains', () => {
    // DCG = 2/log2(2) + 1/log2(4) = 2 + 0.5 = 2.5; IDCG = 2 + 1/log2(3) + 1/log2(4) = 3.1309298
    expect(ndcgAt(ranked, rels, 10)).toBeCloseTo(2.5 / (2 + 1 / Math.log2(3) + 0.5), 10);
    // @1: DCG = 2, IDCG = 2
    expect(ndcgAt(ranked, rels, 1)).toBe(1);
    expect(ndcgAt(['x'], rels, 10)).toBe(0);
    expect(ndcgAt(ranked, {}, 10)).toBe(0);
  });

  it('Recall@k and MRR@k', () => {
    expect(recallAt(ranked, rels, 100)).toBeCloseTo(2 / 3, 12);
    expect(recallAt(ranked, rels, 1)).toBeCloseTo(1 / 3, 12);
    expect(mrrAt(['x', 'y', 'd1'], rels, 10)).toBeCloseTo(1 / 3, 12);
    expect(mrrAt(['x', 'y', 'd1'], rels, 2)).toBe(0);
  });

  it('orders ties like trec_eval (score desc, doc id desc)', () => {
    expect(
      rankRun([
        { docId: 'a', score: 1 },
        { docId: 'c', score: 1 },
        { docId: 'b', score: 2 },
      ]),
    ).toEqual(['b', 'c', 'a']);
  });

  it('averages over all qrels queries and drops a document equal to the query id', () => {
    const scores = evaluate(
      { q1: { d1: 1 }, q2: { q2: 1, d2: 1 } },
      {
        q1: [{ docId: 'd1', score: 3 }],
        q2: [
          { docId: 'q2', score: 9 },
          { docId: 'd2', score: 1 },
        ],
      },
    );
    // q1: perfect. q2: 'q2' is dropped, d2 at rank 1; IDCG counts both relevant ids (1 + 1/log2 3).
    expect(scores['MRR@10']).toBe(1);
    expect(scores['nDCG@10']).toBeCloseTo((1 + 1 / (1 + 1 / Math.log2(3))) / 2, 12);
    expect(scores['Recall@100']).toBeCloseTo((1 + 0.5) / 2, 12);
    expect(evaluate({ q: { d: 1 } }, {})['nDCG@10']).toBe(0);
  });
});
