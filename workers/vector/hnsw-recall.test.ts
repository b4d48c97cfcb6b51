// Recall@10 of HNSW against the exact oracle over a matrix of dimension, M and ef.
// Data: 1,500 seeded unit vectors around 150 centres (neighbourhoods like text embeddings),
// quantised to int16; 50 held-out queries from the same distribution. Floors are set a little
// below what was measured (see the report) so a real regression fails and noise does not.
import { describe, expect, it } from 'vitest';
import { createExactIndex } from './exact';
import { createHnswIndex } from './hnsw';
import { clusteredUnits, createRandom, randomUnit } from './vectors.testkit';
import type { VectorIndex } from './types';

const N = 1500;
const Q = 50;

function recallAt10(
  hnsw: VectorIndex,
  exact: VectorIndex,
  queries: Int16Array[],
  ef: number,
): number {
  let hit = 0;
  for (const q of queries) {
    const truth = new Set(exact.search(q, 10).map((h) => h.id));
    for (const h of hnsw.search(q, 10, { ef })) if (truth.has(h.id)) hit++;
  }
  return hit / (queries.length * 10);
}

describe('HNSW recall@10 vs exact', () => {
  for (const dim of [32, 128, 512]) {
    for (const M of [8, 16]) {
      it(`dim ${dim}, M ${M}: >= 0.88 at ef 50 and >= 0.95 at ef 100`, () => {
        const random = createRandom(dim * 31 + M);
        const data = clusteredUnits(random, dim, N + Q);
        const hnsw = createHnswIndex({ dim, M });
        const exact = createExactIndex({ dim });
        for (let i = 0; i < N; i++) {
          hnsw.add(i, data[i]!);
          exact.add(i, data[i]!);
        }
        const queries = data.slice(N);
        const r50 = recallAt10(hnsw, exact, queries, 50);
        const r100 = recallAt10(hnsw, exact, queries, 100);
        console.log(`recall@10 dim=${dim} M=${M}: ef50=${r50.toFixed(3)} ef100=${r100.toFixed(3)}`);
        expect(r50).toBeGreaterThanOrEqual(0.88);
        expect(r100).toBeGreaterThanOrEqual(0.95);
        expect(r100).toBeGreaterThanOrEqual(r50 - 0.01);
      });
    }
  }

  it('uniform random 512-d (the hard case, no structure): >= 0.9 at ef 100 with M 16', () => {
    const random = createRandom(99);
    const hnsw = createHnswIndex({ dim: 512 });
    const exact = createExactIndex({ dim: 512 });
    for (let i = 0; i < N; i++) {
      const v = randomUnit(random, 512);
      hnsw.add(i, v);
      exact.add(i, v);
    }
    const queries = Array.from({ length: Q }, () => randomUnit(random, 512));
    const r100 = recallAt10(hnsw, exact, queries, 100);
    const r400 = recallAt10(hnsw, exact, queries, 400);
    console.log(
      `recall@10 uniform dim=512 M=16: ef100=${r100.toFixed(3)} ef400=${r400.toFixed(3)}`,
    );
    expect(r100).toBeGreaterThanOrEqual(0.9);
    expect(r400).toBeGreaterThanOrEqual(0.99);
  });
});
