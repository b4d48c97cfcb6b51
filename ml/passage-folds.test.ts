// The fold evaluators score a claim with a passage model that never saw it: records of one fold
// whose labels contradict every other fold's must not pull that fold's own model.
import { describe, expect, it } from 'vitest';
import { logisticScore } from '../workers/answer/fitted';
import type { QueryRecord } from '../eval/crag-collect';
import { unfitted } from './crag-fit';
import { foldEvaluators, foldOfId } from './passage-folds';

/** 200 queries of 10 passages; rankInv 1 is relevant, except in fold 0 where it is not. */
function records(feature = 'rankInv'): QueryRecord[] {
  return Array.from({ length: 200 }, (_, q) => {
    const features = Array.from({ length: 10 }, (_, i) => ({ [feature]: i % 2 }));
    const flip = foldOfId(String(q)) === 0;
    return {
      qid: String(q),
      labels: features.map((f) => (f[feature] === 1) !== flip),
      first: { features },
    } as unknown as QueryRecord;
  });
}

describe('foldEvaluators', () => {
  it("fits fold k's passage model without fold k's queries", () => {
    const folds = foldEvaluators(records(), unfitted('all-MiniLM-L6-v2'));
    expect(folds).toHaveLength(5);
    const p = folds.map((f) => logisticScore(f.passage, { rankInv: 1 }));
    // Fold 0's model saw only folds 1-4 (rankInv 1 relevant): sure of it.
    expect(p[0]).toBeGreaterThan(0.95);
    // Every other fold's model also saw fold 0's contradicting rows: less sure.
    for (const k of [1, 2, 3, 4]) expect(p[k]!).toBeLessThan(p[0]! - 0.05);
    // Only the passage model changes.
    expect(folds[0]!.thresholds).toEqual(unfitted('all-MiniLM-L6-v2').thresholds);
  });

  it('refits the query model the passage score blends in, per fold as well', () => {
    const base = unfitted('all-MiniLM-L6-v2');
    const query = { ...base.passage, weights: [-3] };
    const folds = foldEvaluators(records(), { ...base, query, passageBlend: 0.5 });
    const q = folds.map((f) => logisticScore(f.query!, { rankInv: 1 }));
    expect(q[0]).toBeGreaterThan(0.95);
    for (const k of [1, 2, 3, 4]) expect(q[k]!).toBeLessThan(q[0]! - 0.05);
    expect(folds.every((f) => f.passageBlend === 0.5)).toBe(true);
  });

  it("refuses records that lack the shipped evaluator's features", () => {
    expect(() => foldEvaluators(records('other'), unfitted('all-MiniLM-L6-v2'))).toThrow(
      /records lack rankInv/,
    );
  });
});
