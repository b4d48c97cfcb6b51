// The rationale picker's sentence BM25: the sentence sharing the claim's rare terms ranks first.
import { describe, expect, it } from 'vitest';
import { bm25Sentences, topSentences } from './sentence-rank';

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
