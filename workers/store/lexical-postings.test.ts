// Posting lists in memory: packing clears the scratch counts; the cache keeps long lists of one
// index version only, evicts the least recently used to stay within its bound.
import { describe, expect, it } from 'vitest';
import { packPostings, PostingCache, type PostingList } from './lexical-postings';

const list = (n: number): PostingList => ({
  ids: Int32Array.from({ length: n }, (_, i) => i),
  tfTitle: new Int32Array(n),
  tfBody: new Int32Array(n).fill(1),
});

describe('packPostings', () => {
  it('packs the counts of the touched chunks in touched order and clears the scratch arrays', () => {
    const tfTitle = new Int32Array(8);
    const tfBody = new Int32Array(8);
    [tfTitle[5], tfBody[5], tfBody[2]] = [1, 3, 2];
    const packed = packPostings([5, 2], tfTitle, tfBody);
    expect([...packed.ids]).toEqual([5, 2]);
    expect([...packed.tfTitle]).toEqual([1, 0]);
    expect([...packed.tfBody]).toEqual([3, 2]);
    expect([...tfTitle, ...tfBody].every((v) => v === 0)).toBe(true);
  });
});

describe('PostingCache', () => {
  it('keeps only lists of at least minLength entries', () => {
    const cache = new PostingCache(100, 10);
    cache.reset('v1');
    cache.set('short', list(9));
    cache.set('long', list(10));
    expect(cache.has('short')).toBe(false);
    expect(cache.get('long')?.ids.length).toBe(10);
  });

  it('evicts the least recently used lists to stay within maxEntries', () => {
    const cache = new PostingCache(30, 1);
    cache.reset('v1');
    cache.set('a', list(10));
    cache.set('b', list(10));
    cache.set('c', list(10));
    cache.get('a'); // a is now more recent than b
    cache.set('d', list(10));
    expect(cache.has('b')).toBe(false);
    expect(['a', 'c', 'd'].every((s) => cache.has(s))).toBe(true);
    expect(cache.size).toBe(30);
    cache.set('huge', list(31)); // larger than the whole cache: not kept, nothing evicted
    expect(cache.has('huge')).toBe(false);
    expect(cache.size).toBe(30);
  });

  it('drops every list when the index version changes, keeps them when it does not', () => {
    const cache = new PostingCache(100, 1);
    const v1 = {};
    cache.reset(v1);
    cache.set('a', list(5));
    cache.reset(v1);
    expect(cache.has('a')).toBe(true);
    cache.reset({});
    expect(cache.has('a')).toBe(false);
    expect(cache.size).toBe(0);
  });
});
