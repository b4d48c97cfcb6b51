// The corrective rule the fit chooses and the service applies: the second retrieval replaces the
// first only where the fitted gate lets it (score rise > minGain, score >= minScore); the gain is
// averaged over every INCORRECT query (switched or not), so a rule that rarely switches cannot
// look big.
import { describe, expect, it } from 'vitest';
import { correctiveGain, rerankTrials, type QueryRecord } from './crag-collect';
import { ndcgAt } from './metrics';

describe('correctiveGain', () => {
  const trials = [
    { firstScore: 0.1, secondScore: 0.5, ndcgDelta: 0.3 },
    { firstScore: 0.1, secondScore: 0.15, ndcgDelta: -0.2 },
    null, // no expansion terms
    { firstScore: 0.2, secondScore: 0.1, ndcgDelta: 0.5 },
  ];
  const rule = (minGain: number, minScore = 0) => ({
    technique: 'rm3' as const,
    trainGain: 0,
    minGain,
    minScore,
  });
  it('switches only above the margin and averages over all queries', () => {
    expect(correctiveGain(trials, rule(0))).toEqual({
      gain: (0.3 - 0.2) / 4,
      queries: 4,
      applied: 2,
    });
    expect(correctiveGain(trials, rule(0.1))).toEqual({ gain: 0.3 / 4, queries: 4, applied: 1 });
    expect(correctiveGain(trials, rule(0.5))).toEqual({ gain: 0, queries: 4, applied: 0 });
  });
  it('switches only when the second query score reaches minScore', () => {
    expect(correctiveGain(trials, rule(0, 0.3))).toEqual({ gain: 0.3 / 4, queries: 4, applied: 1 });
  });
  it('never switches with technique none', () => {
    expect(correctiveGain(trials, { technique: 'none', trainGain: 0 })).toEqual({
      gain: 0,
      queries: 4,
      applied: 0,
    });
  });
  it("always applies 'rerank' (no gate: nothing is retrieved again)", () => {
    expect(correctiveGain(trials, { technique: 'rerank', trainGain: 0 })).toEqual({
      gain: (0.3 - 0.2 + 0.5) / 4,
      queries: 4,
      applied: 3,
    });
  });
  it('is zero with no queries', () => {
    expect(correctiveGain([], rule(0))).toEqual({ gain: 0, queries: 0, applied: 0 });
  });
});

describe('rerankTrials', () => {
  // A record as collect gives it: the top passages in retrieval order, their evaluator scores.
  const record = (paths: string[], rels: Record<string, number>): QueryRecord =>
    ({
      qid: 'q',
      question: 'q',
      rels,
      labels: paths.map((p) => (rels[p] ?? 0) > 0),
      docs: paths.map((docId, i) => ({ docId, score: 1 / (i + 1) })),
      ablation: null,
      evaluateMs: 0,
      first: {
        passages: paths.map((path, i) => ({ path, rank: i + 1 })),
        features: paths.map(() => ({})),
        query: { terms: { stems: [], weights: [], total: 0 }, ordered: [], vector: null },
        result: {
          decision: 'INCORRECT',
          queryScore: 0,
          passages: paths.map((path) => ({ path, finalScore: 0 })),
          thresholds: { upper: 0.5, lower: 0.2, passage: 0.5 },
          fittedModel: 'test',
        },
      },
    }) as unknown as QueryRecord;

  it('scores the reordered top 10 against the retrieval order with the given scores', () => {
    const rec = record(['a', 'b', 'c'], { c: 1 });
    const [t] = rerankTrials([rec], () => [0.1, 0.2, 0.9]);
    expect(t!.ndcgDelta).toBeCloseTo(1 - ndcgAt(['a', 'b', 'c'], { c: 1 }, 10), 12);
    // scores that keep the order change nothing; the gate does not apply to 'rerank'
    const [same] = rerankTrials([rec], () => [0.9, 0.5, 0.1]);
    expect(same!.ndcgDelta).toBe(0);
    expect(correctiveGain([t!, same!], { technique: 'rerank', trainGain: 0 }).applied).toBe(2);
  });
});
