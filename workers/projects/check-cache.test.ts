import { describe, expect, it } from 'vitest';
import { cachedEmbed, createSentenceCache, Lru } from './check-cache';

describe('check caches', () => {
  it('drops the least recently used entry', () => {
    const lru = new Lru<string, number>(2);
    lru.set('a', 1);
    lru.set('b', 2);
    expect(lru.get('a')).toBe(1); // a is now newest
    lru.set('c', 3);
    expect(lru.get('b')).toBeUndefined();
    expect([lru.get('a'), lru.get('c'), lru.size]).toEqual([1, 3, 2]);
  });

  it('splits a document once while its text is unchanged', () => {
    const split = createSentenceCache(4);
    const a = split(1, 'One. Two.');
    expect(split(1, 'One. Two.')).toBe(a);
    const b = split(1, 'One. Two. Three.');
    expect(b.map((s) => s.text)).toEqual(['One.', 'Two.', 'Three.']);
  });

  it('embeds only texts it has not seen, once each, in one call', async () => {
    const calls: string[][] = [];
    const embed = cachedEmbed(async (texts) => {
      calls.push(texts);
      return texts.map((t) => Int16Array.of(t.length));
    }, 3);
    expect((await embed(['aa', 'b', 'aa'])).map((v) => v[0])).toEqual([2, 1, 2]);
    expect((await embed(['b', 'cccc'])).map((v) => v[0])).toEqual([1, 4]);
    expect(calls).toEqual([['aa', 'b'], ['cccc']]);
    await embed(['dd', 'e']); // evicts the oldest entries
    await embed(['aa']);
    expect(calls.at(-1)).toEqual(['aa']);
    // A call with more texts than the cache holds still returns every vector.
    const many = ['p', 'qq', 'rrr', 'ssss', 'ttttt'];
    expect((await embed(many)).map((v) => v[0])).toEqual([1, 2, 3, 4, 5]);
  });
});
