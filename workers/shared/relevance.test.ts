import { describe, expect, it } from 'vitest';
import {
  bandOf,
  describeRelevance,
  RELEVANCE_FIT,
  relevanceOf,
  type RelevanceFit,
} from './relevance';

const counts = { high: 1, medium: 1, low: 1 };
const FIT: RelevanceFit = {
  command: 'test',
  date: '',
  fittedOn: '',
  probability: { high: 0.5, medium: 0.2 },
  lexical: {
    high: 0.5,
    medium: 0.3,
    precision: { high: 0.7, medium: 0.3, low: 0.1 },
    count: counts,
  },
  semantic: {
    bert: {
      high: 0.7,
      medium: 0.6,
      precision: { high: 0.6, medium: 0.25, low: 0.05 },
      count: counts,
    },
  },
};

describe('relevance bands', () => {
  it('maps a raw score to its band at the thresholds (inclusive)', () => {
    const t = { high: 0.5, medium: 0.3 };
    expect(bandOf(0.5, t)).toBe('high');
    expect(bandOf(0.4999, t)).toBe('medium');
    expect(bandOf(0.3, t)).toBe('medium');
    expect(bandOf(0.2999, t)).toBe('low');
    expect(bandOf(-1, t)).toBe('low');
  });

  it('rates BM25 as a share of the query best, so a poor first hit is Low, not High', () => {
    // Rank does not enter: the same raw score is Low whatever its place in the list.
    expect(relevanceOf({ lexical: { score: 2, maxScore: 10 } }, FIT)).toEqual({
      band: 'low',
      basis: 'keywords',
      precision: 0.1,
    });
    expect(relevanceOf({ lexical: { score: 6, maxScore: 10 } }, FIT)?.band).toBe('high');
    expect(relevanceOf({ lexical: { score: 3.5, maxScore: 10 } }, FIT)?.band).toBe('medium');
  });

  it('rates cosines with the thresholds of their own model, none for an unfitted model', () => {
    expect(relevanceOf({ cosine: 0.65, modelId: 'bert' }, FIT)).toEqual({
      band: 'medium',
      basis: 'meaning',
      precision: 0.25,
    });
    expect(relevanceOf({ cosine: 0.95, modelId: 'unknown-model' }, FIT)).toBeNull();
    expect(relevanceOf({ cosine: 0.95 }, FIT)).toBeNull();
    expect(relevanceOf({ lexical: { score: 1, maxScore: 0 } }, FIT)).toBeNull();
  });

  it('takes the stronger band of a hit found by both lists; ties keep keywords', () => {
    const both = (score: number, cosine: number) =>
      relevanceOf({ lexical: { score, maxScore: 1 }, cosine, modelId: 'bert' }, FIT);
    expect(both(0.1, 0.75)).toMatchObject({ band: 'high', basis: 'meaning' });
    expect(both(0.6, 0.1)).toMatchObject({ band: 'high', basis: 'keywords' });
    expect(both(0.35, 0.65)).toMatchObject({ band: 'medium', basis: 'keywords' });
  });

  it('describes a band by its measured precision, not by a place in the list', () => {
    const text = describeRelevance({ band: 'high', basis: 'keywords', precision: 0.677 });
    expect(text).toContain('High relevance (keyword match)');
    expect(text).toContain('68% of passages');
    expect(text).toContain('not where it ranks');
  });

  it('ships thresholds fitted on the train split, High above Medium for every signal', () => {
    expect(RELEVANCE_FIT.fittedOn).toContain('train');
    expect(RELEVANCE_FIT.fittedOn).not.toContain('test');
    for (const t of [RELEVANCE_FIT.lexical, ...Object.values(RELEVANCE_FIT.semantic)]) {
      expect(t.high).toBeGreaterThan(t.medium);
      // Bands that occurred on train are ordered by measured precision.
      if (t.count.high > 0) expect(t.precision.high).toBeGreaterThan(t.precision.medium);
      if (t.count.medium > 0) expect(t.precision.medium).toBeGreaterThan(t.precision.low);
    }
    expect(Object.keys(RELEVANCE_FIT.semantic)).toEqual(['use-lite', 'all-MiniLM-L6-v2']);
  });
});
