import { describe, expect, it } from 'vitest';
import { bm25Sentences, topSentences } from './sentence-rank';
import { contentStems, numbers, stem, textCues } from './stance-cues';

describe('stance cues', () => {
  it('reads the direction a text asserts, flipped by negation', () => {
    expect(textCues('Aspirin increases the risk of bleeding.').direction).toBe(1);
    expect(textCues('Aspirin reduces the risk of bleeding.').direction).toBe(-1);
    expect(textCues('Aspirin does not increase the risk.').direction).toBe(-1);
    expect(textCues("Aspirin doesn't reduce the risk.").direction).toBe(1);
    expect(textCues('Aspirin is a drug.').direction).toBe(0);
  });

  it('counts negations and null results', () => {
    const c = textCues('There was no significant difference between groups.');
    expect(c.negations).toBe(1);
    expect(c.nullResult).toBeGreaterThan(0);
    expect(textCues('Treatment improved survival.').nullResult).toBe(0);
  });

  it('stems plurals and verb forms to one key and keeps numbers as written', () => {
    expect(stem('increases')).toBe(stem('increased'));
    expect(stem('cells')).toBe('cell');
    expect(contentStems('The cells were increasing')).toEqual(['cell', 'increas']);
    expect(numbers('32% of 1.5 mg and 40mg')).toEqual(['32', '1.5', '40']);
  });
});

describe('sentence BM25', () => {
  const sents = [
    'The weather was fine.',
    'Vitamin D supplementation reduced fracture risk in older adults.',
    'Fracture risk was measured.',
  ];

  it('ranks the sentence sharing the rare claim terms first', () => {
    expect(topSentences('vitamin D lowers fracture risk', sents, 2)).toEqual([1, 2]);
    const s = bm25Sentences('vitamin D lowers fracture risk', sents);
    expect(s[0]).toBe(0);
  });

  it('breaks ties by position and handles an empty set', () => {
    expect(topSentences('nothing matches', ['a b', 'c d'], 2)).toEqual([0, 1]);
    expect(topSentences('x', [], 3)).toEqual([]);
  });
});
