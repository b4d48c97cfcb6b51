import { describe, expect, it } from 'vitest';
import { hashId, levelForHash } from './codec';
import { jsDotKernel } from './dot-kernel';
import { createHnswIndex } from './hnsw';
import { clusteredUnits, createRandom, referenceTopK } from './vectors.testkit';
import type { DotKernel, VectorIndex } from './types';
import { vectorIndexContract } from './index-contract.testkit';

vectorIndexContract('hnsw (M 16)', (dim, initialCapacity) =>
  createHnswIndex({ dim, initialCapacity }),
);
// A tiny M forces the neighbour heuristic and link shrinking even on contract-sized data.
vectorIndexContract('hnsw (M 4, efConstruction 16)', (dim, initialCapacity) =>
  createHnswIndex({ dim, M: 4, efConstruction: 16, initialCapacity }),
);

describe('hnsw config', () => {
  it('rejects invalid build parameters', () => {
    expect(() => createHnswIndex({ dim: 0 })).toThrow(/dim/);
    expect(() => createHnswIndex({ dim: 8, M: 1 })).toThrow(/M/);
    expect(() => createHnswIndex({ dim: 8, efConstruction: 0 })).toThrow(/efConstruction/);
  });
});

describe('hnsw determinism', () => {
  it('gives byte-identical graphs and identical results for the same inserts in the same order', () => {
    const random = createRandom(42);
    const data = clusteredUnits(random, 64, 1200);
    const build = (): VectorIndex => {
      const index = createHnswIndex({ dim: 64, M: 8, efConstruction: 64 });
      data.forEach((v, i) => index.add(i * 3 + 1, v));
      for (let i = 0; i < 100; i++) index.remove(i * 9 + 1);
      return index;
    };
    const a = build();
    const b = build();
    expect(a.serialize()).toEqual(b.serialize());
    const queries = clusteredUnits(createRandom(7), 64, 20);
    for (const q of queries)
      expect(a.search(q, 10, { ef: 20 })).toEqual(b.search(q, 10, { ef: 20 }));
    a.compact();
    b.compact();
    expect(a.serialize()).toEqual(b.serialize());
  });

  it('draws levels from the id hash with P(level >= L) = M^-L', () => {
    expect(levelForHash(0, 16, 16)).toBe(16);
    expect(levelForHash(2 ** 32 / 16 - 1, 16, 16)).toBe(1);
    expect(levelForHash(2 ** 32 / 16, 16, 16)).toBe(0);
    expect(levelForHash(2 ** 32 / 256 - 1, 16, 16)).toBe(2);
    expect(hashId(12345, 0)).toBe(hashId(12345, 0));
    expect(hashId(12345, 0)).not.toBe(hashId(12345, 1));
    expect(hashId(2 ** 40 + 5, 0)).not.toBe(hashId(5, 0));
    let atLeast1 = 0;
    let atLeast2 = 0;
    const n = 200_000;
    for (let id = 0; id < n; id++) {
      const l = levelForHash(hashId(id, 0), 16, 16);
      if (l >= 1) atLeast1++;
      if (l >= 2) atLeast2++;
    }
    expect(atLeast1 / n).toBeGreaterThan(0.0625 * 0.95);
    expect(atLeast1 / n).toBeLessThan(0.0625 * 1.05);
    expect(atLeast2 / n).toBeGreaterThan(0.0039 * 0.85);
    expect(atLeast2 / n).toBeLessThan(0.0039 * 1.15);
  });
});

describe('hnsw filtered search', () => {
  const dim = 32;
  const data = clusteredUnits(createRandom(5), dim, 3000);
  const queries = clusteredUnits(createRandom(6), dim, 20);
  let dots = 0;
  const counting: DotKernel = {
    dot: (a, ao, b, bo, d) => {
      dots++;
      return jsDotKernel.dot(a, ao, b, bo, d);
    },
  };
  const index = createHnswIndex(
    { dim, filterExactMaxAllowed: 100, filterExactMaxFraction: 0.01 },
    { kernel: counting },
  );
  data.forEach((v, i) => index.add(i, v));
  const truthFor = (q: Int16Array, allowed: (id: number) => boolean, k: number): number[] =>
    referenceTopK(
      data.map((v, i) => [i, v] as [number, Int16Array]).filter(([i]) => allowed(i)),
      q,
      k,
    ).map((h) => h.id);

  it('scans only the allowed rows when the allowed set is small (exact answer)', () => {
    const allowed = new Set(Array.from({ length: 80 }, (_, i) => i * 37));
    for (const q of queries) {
      dots = 0;
      const hits = index.search(q, 10, { filter: allowed });
      expect(dots).toBe(80);
      expect(hits.map((h) => h.id)).toEqual(truthFor(q, (id) => allowed.has(id), 10));
    }
  });

  it('walks the graph with the filter inside the traversal when the set is large', () => {
    const allowed = new Set(Array.from({ length: 1500 }, (_, i) => i * 2));
    let hit = 0;
    for (const q of queries) {
      dots = 0;
      const hits = index.search(q, 10, { filter: allowed, ef: 100 });
      expect(dots).toBeLessThan(3000);
      for (const h of hits) expect(h.id % 2).toBe(0);
      const truth = new Set(truthFor(q, (id) => id % 2 === 0, 10));
      hit += hits.filter((h) => truth.has(h.id)).length;
    }
    expect(hit / (queries.length * 10)).toBeGreaterThanOrEqual(0.95);
  });

  it('keeps recall with a selective predicate (graph walk, no temporary index)', () => {
    let hit = 0;
    for (const q of queries) {
      const hits = index.search(q, 10, { filter: (id) => id % 10 === 3, ef: 100 });
      for (const h of hits) expect(h.id % 10).toBe(3);
      const truth = new Set(truthFor(q, (id) => id % 10 === 3, 10));
      hit += hits.filter((h) => truth.has(h.id)).length;
    }
    expect(hit / (queries.length * 10)).toBeGreaterThanOrEqual(0.9);
  });
});

describe('hnsw compaction', () => {
  it('keeps recall after deleting 40% of the rows and compacting', () => {
    const dim = 48;
    const data = clusteredUnits(createRandom(8), dim, 2000);
    const index = createHnswIndex({ dim, M: 8 });
    data.forEach((v, i) => index.add(i, v));
    const live = new Map<number, Int16Array>();
    data.forEach((v, i) => {
      if (i % 5 === 0 || i % 5 === 3) index.remove(i);
      else live.set(i, v);
    });
    index.compact();
    expect(index.stats().deleted).toBe(0);
    const queries = clusteredUnits(createRandom(9), dim, 30);
    let hit = 0;
    for (const q of queries) {
      const truth = new Set(referenceTopK(live, q, 10).map((h) => h.id));
      hit += index.search(q, 10, { ef: 100 }).filter((h) => truth.has(h.id)).length;
    }
    expect(hit / (queries.length * 10)).toBeGreaterThanOrEqual(0.95);
  });
});
