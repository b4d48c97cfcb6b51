// The one contract suite every VectorIndex implementation must pass (HNSW and the exact oracle).
// Sizes stay below efSearch so the expected answer is the exact top-k, computed independently.
// Test support only; imported by hnsw.test.ts and exact.test.ts.
import { describe, expect, it } from 'vitest';
import { isAppError } from '../shared/errors';
import { deserializeVectorIndex } from './persistence';
import { createRandom, randomUnit, referenceTopK } from './vectors.testkit';
import type { VectorIndex } from './types';

export type IndexFactory = (dim: number, initialCapacity?: number) => VectorIndex;

function expectCode(fn: () => unknown, code: string): void {
  try {
    fn();
  } catch (err) {
    expect(isAppError(err) ? err.code : err).toBe(code);
    return;
  }
  throw new Error(`expected an AppError ${code}`);
}

function build(make: IndexFactory, dim: number, n: number, seed: number, capacity?: number) {
  const random = createRandom(seed);
  const index = make(dim, capacity);
  const data = new Map<number, Int16Array>();
  for (let i = 0; i < n; i++) {
    const id = 1000 + i * 7;
    const v = randomUnit(random, dim);
    data.set(id, v);
    index.add(id, v);
  }
  return { index, data, random };
}

export function vectorIndexContract(name: string, make: IndexFactory): void {
  describe(`VectorIndex contract: ${name}`, () => {
    it('returns nothing from an empty index', () => {
      const index = make(8);
      expect(index.size).toBe(0);
      expect(index.search(new Int16Array(8), 5)).toEqual([]);
    });

    it('returns the exact top-k, best first, with exact dots and cosines', () => {
      const { index, data, random } = build(make, 24, 40, 1);
      expect(index.size).toBe(40);
      for (let q = 0; q < 10; q++) {
        const query = randomUnit(random, 24);
        const hits = index.search(query, 7);
        expect(hits.map((h) => ({ id: h.id, dot: h.dot }))).toEqual(referenceTopK(data, query, 7));
        for (const h of hits) expect(h.cosine).toBe(h.dot / (32767 * 32767));
      }
    });

    it('finds a stored vector as its own nearest neighbour', () => {
      const { index, data } = build(make, 16, 30, 2);
      for (const [id, v] of data) expect(index.search(v, 1)[0]!.id).toBe(id);
    });

    it('breaks equal dots by id ascending', () => {
      const index = make(4);
      const v = Int16Array.from([32767, 0, 0, 0]);
      for (const id of [9, 3, 7, 5]) index.add(id, v);
      index.add(1, Int16Array.from([0, 32767, 0, 0]));
      expect(index.search(v, 4).map((h) => h.id)).toEqual([3, 5, 7, 9]);
      expect(index.search(v, 10).map((h) => h.id)).toEqual([3, 5, 7, 9, 1]);
    });

    it('accepts any safe-integer id (SQLite rowids beyond 2^32) and persists it', () => {
      const random = createRandom(10);
      const index = make(8);
      const ids = [0, 2 ** 32 + 1, 2 ** 40 + 3, Number.MAX_SAFE_INTEGER, 17];
      const data = new Map(ids.map((id) => [id, randomUnit(random, 8)] as [number, Int16Array]));
      for (const [id, v] of data) index.add(id, v);
      const back = deserializeVectorIndex(index.serialize());
      for (const [id, v] of data) {
        expect(index.search(v, 1)[0]!.id).toBe(id);
        expect(back.search(v, 1)[0]!.id).toBe(id);
      }
      expect(back.ids()).toEqual(ids);
    });

    it('grows past its initial capacity and keeps every vector', () => {
      const { index, data } = build(make, 8, 37, 3, 2);
      expect(index.size).toBe(37);
      expect(index.ids()).toEqual([...data.keys()]);
      for (const [id, v] of data) expect(index.get(id)).toEqual(v);
    });

    it('replaces the vector of an id that is added again', () => {
      const { index, data, random } = build(make, 12, 20, 4);
      const id = [...data.keys()][5]!;
      const fresh = randomUnit(random, 12);
      index.add(id, fresh);
      data.set(id, fresh);
      expect(index.size).toBe(20);
      expect(index.get(id)).toEqual(fresh);
      expect(index.search(fresh, 1)[0]!.id).toBe(id);
      expect(index.search(fresh, 20).map((h) => h.id)).toEqual(
        referenceTopK(data, fresh, 20).map((h) => h.id),
      );
    });

    it('never returns removed ids, before and after compact()', () => {
      const { index, data, random } = build(make, 16, 45, 5);
      const removed = [...data.keys()].filter((_, i) => i % 3 === 0);
      for (const id of removed) {
        expect(index.remove(id)).toBe(true);
        data.delete(id);
      }
      expect(index.remove(removed[0]!)).toBe(false);
      expect(index.remove(424242)).toBe(false);
      expect(index.size).toBe(30);
      expect(index.has(removed[1]!)).toBe(false);
      expect(index.get(removed[1]!)).toBeNull();
      expect(index.stats().deleted).toBe(15);
      const queries = Array.from({ length: 8 }, () => randomUnit(random, 16));
      for (const q of queries)
        expect(index.search(q, 45).map((h) => h.id)).toEqual(
          referenceTopK(data, q, 45).map((h) => h.id),
        );
      const before = index.serialize().length;
      index.compact();
      expect(index.stats().deleted).toBe(0);
      expect(index.serialize().length).toBeLessThan(before);
      expect(index.ids()).toEqual([...data.keys()]);
      for (const q of queries)
        expect(index.search(q, 10).map((h) => h.id)).toEqual(
          referenceTopK(data, q, 10).map((h) => h.id),
        );
      // Still writable after compaction.
      const v = randomUnit(random, 16);
      index.add(1, v);
      expect(index.search(v, 1)[0]!.id).toBe(1);
    });

    it('applies an allowed-set filter (Set or predicate) inside the search', () => {
      const { index, data, random } = build(make, 16, 40, 6);
      const allowed = new Set([...data.keys()].filter((_, i) => i % 4 === 1));
      const allowedData = new Map([...data].filter(([id]) => allowed.has(id)));
      for (let q = 0; q < 5; q++) {
        const query = randomUnit(random, 16);
        const expected = referenceTopK(allowedData, query, 5).map((h) => h.id);
        expect(index.search(query, 5, { filter: allowed }).map((h) => h.id)).toEqual(expected);
        expect(
          index.search(query, 5, { filter: (id) => allowed.has(id) }).map((h) => h.id),
        ).toEqual(expected);
        expect(index.search(query, 50, { filter: allowed })).toHaveLength(10);
        expect(index.search(query, 5, { filter: new Set<number>() })).toEqual([]);
        expect(index.search(query, 5, { filter: () => false })).toEqual([]);
      }
    });

    it('gives the exact answer with { exact: true }', () => {
      const { index, data, random } = build(make, 32, 48, 7);
      const q = randomUnit(random, 32);
      expect(index.search(q, 12, { exact: true }).map((h) => h.id)).toEqual(
        referenceTopK(data, q, 12).map((h) => h.id),
      );
    });

    it('rejects malformed input with INVALID_ARGUMENT', () => {
      const index = make(4);
      expectCode(() => index.add(1, new Int16Array(3)), 'INVALID_ARGUMENT');
      expectCode(() => index.add(1.5, new Int16Array(4)), 'INVALID_ARGUMENT');
      expectCode(() => index.add(Number.NaN, new Int16Array(4)), 'INVALID_ARGUMENT');
      expectCode(() => index.add(2, Int16Array.from([-32768, 0, 0, 0])), 'INVALID_ARGUMENT');
      expectCode(() => index.search(new Int16Array(5), 1), 'INVALID_ARGUMENT');
      expectCode(() => index.search(new Int16Array(4), 0), 'INVALID_ARGUMENT');
      expectCode(() => index.search(new Int16Array(4), 1, { ef: 0 }), 'INVALID_ARGUMENT');
      expect(index.size).toBe(0);
    });

    it('round-trips through bytes: same results, byte-identical re-serialisation', () => {
      const { index, random } = build(make, 20, 35, 8);
      index.remove(1000 + 7 * 3);
      const bytes = index.serialize();
      const back = deserializeVectorIndex(bytes);
      expect(back.kind).toBe(index.kind);
      expect(back.dim).toBe(20);
      expect(back.size).toBe(34);
      expect(back.serialize()).toEqual(bytes);
      for (let q = 0; q < 5; q++) {
        const query = randomUnit(random, 20);
        expect(back.search(query, 10)).toEqual(index.search(query, 10));
      }
      // The restored index keeps working.
      const v = randomUnit(random, 20);
      back.add(77, v);
      expect(back.search(v, 1)[0]!.id).toBe(77);
      const empty = deserializeVectorIndex(make(3).serialize());
      expect(empty.size).toBe(0);
      empty.add(5, Int16Array.from([1, 2, 3]));
      expect(empty.search(Int16Array.from([1, 2, 3]), 1)[0]!.id).toBe(5);
    });

    it('detects missing, foreign, truncated, other-version and damaged bytes as INDEX_CORRUPT', () => {
      const { index } = build(make, 8, 20, 9);
      const bytes = index.serialize();
      expectCode(() => deserializeVectorIndex(new Uint8Array(0)), 'INDEX_CORRUPT');
      expectCode(
        () => deserializeVectorIndex(new TextEncoder().encode('SQLite format 3\0'.padEnd(200))),
        'INDEX_CORRUPT',
      );
      expectCode(() => deserializeVectorIndex(bytes.slice(0, bytes.length - 8)), 'INDEX_CORRUPT');
      const version = bytes.slice();
      version[8] = 99;
      expectCode(() => deserializeVectorIndex(version), 'INDEX_CORRUPT');
      // Every single-byte flip past the CRC field is caught (sampled positions).
      for (let pos = 20; pos < bytes.length; pos += Math.max(1, Math.floor(bytes.length / 97))) {
        const bad = bytes.slice();
        bad[pos] = bad[pos]! ^ 0x10;
        expectCode(() => deserializeVectorIndex(bad), 'INDEX_CORRUPT');
      }
    });
  });
}
