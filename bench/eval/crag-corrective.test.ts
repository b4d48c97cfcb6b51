// The corrective rule the fit chooses and the service applies: the second retrieval replaces the
// first only when it raises the query score by more than the fitted margin; the gain is averaged
// over every INCORRECT query (switched or not), so a rule that rarely switches cannot look big.
import { describe, expect, it } from 'vitest';
import { correctiveGain } from './crag-collect';

describe('correctiveGain', () => {
  const trials = [
    { scoreDelta: 0.4, ndcgDelta: 0.3 },
    { scoreDelta: 0.05, ndcgDelta: -0.2 },
    null, // no expansion terms
    { scoreDelta: -0.1, ndcgDelta: 0.5 },
  ];
  it('switches only above the margin and averages over all queries', () => {
    expect(correctiveGain(trials, 0)).toEqual({ gain: (0.3 - 0.2) / 4, queries: 4, applied: 2 });
    expect(correctiveGain(trials, 0.1)).toEqual({ gain: 0.3 / 4, queries: 4, applied: 1 });
    expect(correctiveGain(trials, 0.5)).toEqual({ gain: 0, queries: 4, applied: 0 });
  });
  it('is zero with no queries', () => {
    expect(correctiveGain([], 0)).toEqual({ gain: 0, queries: 0, applied: 0 });
  });
});
