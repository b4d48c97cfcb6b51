// The WASM SIMD kernel behind the DotKernel seam must give the same integers as the JS one,
// and therefore the same graph bytes (real runtime from wasm/build, no mocks).
import { describe, expect, it } from 'vitest';
import { createNodeKernel } from '../embed/node-kernel';
import { jsDotKernel } from './dot-kernel';
import { createHnswIndex } from './hnsw';
import { clusteredUnits, createRandom, randomUnit } from './vectors.testkit';
import { createWasmDotKernel } from './wasm-dot-kernel';

describe('WASM dot kernel adapter', () => {
  it('matches the JS kernel exactly, including extreme values and odd lengths', async () => {
    const wasm = createWasmDotKernel(await createNodeKernel());
    const random = createRandom(11);
    for (const dim of [1, 7, 8, 33, 384, 512]) {
      const rows = new Int16Array(40 * dim);
      for (let i = 0; i < rows.length; i++) rows[i] = Math.round((random() * 2 - 1) * 32767);
      rows.fill(32767, 0, dim); // row 0 and the query: the largest products
      const q = rows.slice(0, dim);
      const slots = Int32Array.from({ length: 40 }, (_, j) => (j * 7) % 40);
      const a = new Int32Array(40);
      const b = new Int32Array(40);
      wasm.dotBatch!(q, 0, rows, slots, 40, dim, a);
      jsDotKernel.dotBatch!(q, 0, rows, slots, 40, dim, b);
      expect(a).toEqual(b);
      expect(wasm.dot(rows, dim, rows, 2 * dim, dim)).toBe(
        jsDotKernel.dot(rows, dim, rows, 2 * dim, dim),
      );
    }
  });

  it('stays correct after the runtime memory grows (cached views are re-made)', async () => {
    const rt = await createNodeKernel();
    const wasm = createWasmDotKernel(rt);
    const random = createRandom(14);
    const a = randomUnit(random, 64);
    const b = randomUnit(random, 64);
    const expected = jsDotKernel.dot(a, 0, b, 0, 64);
    expect(wasm.dot(a, 0, b, 0, 64)).toBe(expected);
    rt.alloc(64 * 1024 * 1024); // forces memory.grow: earlier views are detached
    expect(wasm.dot(a, 0, b, 0, 64)).toBe(expected);
    const out = new Int32Array(1);
    wasm.dotBatch!(a, 0, b, Int32Array.from([0]), 1, 64, out);
    expect(out[0]).toBe(expected);
  });

  it('builds the byte-identical graph and answers identically', async () => {
    const wasm = createWasmDotKernel(await createNodeKernel());
    const data = clusteredUnits(createRandom(12), 96, 800);
    const a = createHnswIndex({ dim: 96, M: 8, efConstruction: 48 }, { kernel: wasm });
    const b = createHnswIndex({ dim: 96, M: 8, efConstruction: 48 });
    // Without dotBatch the index takes its one-dot-at-a-time paths: still the same graph.
    const c = createHnswIndex(
      { dim: 96, M: 8, efConstruction: 48 },
      { kernel: { dot: jsDotKernel.dot } },
    );
    data.forEach((v, i) => {
      a.add(i, v);
      b.add(i, v);
      c.add(i, v);
    });
    expect(a.serialize()).toEqual(b.serialize());
    expect(c.serialize()).toEqual(b.serialize());
    const random = createRandom(13);
    for (let i = 0; i < 10; i++) {
      const q = randomUnit(random, 96);
      expect(a.search(q, 10)).toEqual(b.search(q, 10));
    }
  });
});
