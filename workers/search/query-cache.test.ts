import { describe, expect, it } from 'vitest';
import { createQueryCache, queryCacheKey } from './query-cache';

function clock(start = 1_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe('query cache', () => {
  it('returns what was stored for the same library version', () => {
    const cache = createQueryCache<number[]>();
    expect(cache.get('q', 1)).toBeUndefined();
    cache.set('q', 1, [3, 1, 2]);
    expect(cache.get('q', 1)).toEqual([3, 1, 2]);
    expect(cache.stats()).toMatchObject({ size: 1, hits: 1, misses: 1 });
  });

  it('expires entries after the TTL (5 minutes by default)', () => {
    const c = clock();
    const cache = createQueryCache<string>({ now: c.now });
    cache.set('q', 1, 'v');
    c.advance(5 * 60 * 1000 - 1);
    expect(cache.get('q', 1)).toBe('v');
    c.advance(1);
    expect(cache.get('q', 1)).toBeUndefined();
    expect(cache.stats().size).toBe(0);
  });

  it('evicts the least recently used entry beyond 1,000 entries', () => {
    const cache = createQueryCache<number>();
    for (let i = 0; i < 1000; i++) cache.set(`q${i}`, 1, i);
    expect(cache.get('q0', 1)).toBe(0); // q0 is now most recently used
    cache.set('new', 1, -1);
    expect(cache.stats()).toMatchObject({ size: 1000, evictions: 1 });
    expect(cache.get('q1', 1)).toBeUndefined();
    expect(cache.get('q0', 1)).toBe(0);
    expect(cache.get('new', 1)).toBe(-1);
  });

  it('drops everything when the library version moves on, and ignores stale writers', () => {
    const cache = createQueryCache<string>({ maxEntries: 10 });
    cache.set('a', 1, 'old');
    cache.set('b', 1, 'old');
    expect(cache.get('a', 2)).toBeUndefined();
    expect(cache.stats().size).toBe(0);
    cache.set('a', 1, 'stale'); // a search that started before the write finishes late
    expect(cache.get('a', 2)).toBeUndefined();
    cache.set('a', 2, 'fresh');
    expect(cache.get('a', 1)).toBeUndefined();
    expect(cache.get('a', 2)).toBe('fresh');
  });

  it('refreshes the TTL when a key is written again', () => {
    const c = clock();
    const cache = createQueryCache<string>({ now: c.now, ttlMs: 100 });
    cache.set('q', 1, 'a');
    c.advance(80);
    cache.set('q', 1, 'b');
    c.advance(80);
    expect(cache.get('q', 1)).toBe('b');
  });
});

describe('queryCacheKey', () => {
  it('is the same for equivalent requests and differs when results could differ', () => {
    const base = queryCacheKey({
      query: ' merkle  tree ',
      filters: { mime: ['text/plain', 'text/markdown'], pathGlob: 'docs/**' },
    });
    expect(
      queryCacheKey({
        query: 'merkle tree',
        mode: 'hybrid',
        limit: 10,
        filters: { pathGlob: 'docs/**', mime: ['text/markdown', 'text/plain'] },
      }),
    ).toBe(base);
    expect(
      queryCacheKey({
        query: 'merkle tree',
        mode: 'lexical',
        filters: { mime: ['text/plain', 'text/markdown'], pathGlob: 'docs/**' },
      }),
    ).not.toBe(base);
    expect(
      queryCacheKey({
        query: 'Merkle tree',
        filters: { mime: ['text/plain', 'text/markdown'], pathGlob: 'docs/**' },
      }),
    ).not.toBe(base);
    expect(
      queryCacheKey({
        query: 'merkle tree',
        limit: 20,
        filters: { mime: ['text/plain', 'text/markdown'], pathGlob: 'docs/**' },
      }),
    ).not.toBe(base);
    expect(
      queryCacheKey(
        {
          query: 'merkle tree',
          filters: { mime: ['text/plain', 'text/markdown'], pathGlob: 'docs/**' },
        },
        { fusion: 'adaptive' },
      ),
    ).not.toBe(base);
  });
});
