// The relevance bands shown beside answer scores: the query band follows the decision's
// thresholds exactly; a passage is high when relevant is the more likely, medium when it only
// clears the fitted passage threshold.
import { describe, expect, it } from 'vitest';
import { passageBand, queryBand } from './answer-api';

const t = { upper: 0.525, lower: 0.295, passage: 0.26 };

describe('relevance bands', () => {
  it('query: high at upper (CORRECT), low below lower (INCORRECT), medium between', () => {
    expect(queryBand(0.525, t)).toBe('high');
    expect(queryBand(0.524, t)).toBe('medium');
    expect(queryBand(0.295, t)).toBe('medium');
    expect(queryBand(0.294, t)).toBe('low');
  });
  it('query: a CORRECT held at AMBIGUOUS by the floors reads medium, whatever its score', () => {
    expect(queryBand(0.9, t, 'AMBIGUOUS')).toBe('medium');
    expect(queryBand(0.9, t, 'CORRECT')).toBe('high');
    expect(queryBand(0.1, t, 'INCORRECT')).toBe('low');
  });
  it('passage: high from 0.5, medium from the passage threshold, low below', () => {
    expect(passageBand(0.5, t)).toBe('high');
    expect(passageBand(0.49, t)).toBe('medium');
    expect(passageBand(0.26, t)).toBe('medium');
    expect(passageBand(0.259, t)).toBe('low');
    expect(passageBand(0.6, { ...t, passage: 0.7 })).toBe('low');
    expect(passageBand(0.7, { ...t, passage: 0.7 })).toBe('high');
  });
});
