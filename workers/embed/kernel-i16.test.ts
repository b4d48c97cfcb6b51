// matmulI16 (BERT canon.3's dense layers) against an independent JS emulation of its arithmetic
// (the same f32 roundings via Math.fround, exact integer block sums), against the f32 matmul within
// the quantisation error, and row-independence (a row's bits do not depend on its batch). Seeded.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Kernel } from './kernel';
import { createNodeKernel } from './node-kernel';
import { fuzzSeed, mulberry32, randomF32 } from './rng.testkit';
import { roundHalfToEven } from '../shared/quant';

let K: Kernel;
beforeAll(async () => {
  K = await createNodeKernel();
});

const f = Math.fround;
const W_QMAX = 2047;
const A_QMAX = 32767;

/** The kernel's arithmetic in JS: per-column weight scales, per-row activation scales. */
function emulate(
  a: Float32Array,
  b: Float32Array,
  bias: Float32Array,
  m: number,
  k: number,
  n: number,
) {
  const sw = new Float32Array(n);
  const qw = new Int32Array(k * n);
  for (let j = 0; j < n; j++) {
    let mx = 0;
    for (let t = 0; t < k; t++) mx = Math.max(mx, Math.abs(b[t * n + j]!));
    sw[j] = mx > 0 ? f(mx / W_QMAX) : 1;
    for (let t = 0; t < k; t++) {
      const q = roundHalfToEven(f(b[t * n + j]! / sw[j]!));
      qw[t * n + j] = Math.max(-W_QMAX, Math.min(W_QMAX, q));
    }
  }
  const out = new Float32Array(m * n);
  for (let i = 0; i < m; i++) {
    let mx = 0;
    for (let t = 0; t < k; t++) mx = Math.max(mx, Math.abs(a[i * k + t]!));
    const sa = mx > 0 ? f(mx / A_QMAX) : 1;
    const inv = f(1 / sa);
    const qa = new Int32Array(k);
    for (let t = 0; t < k; t++)
      qa[t] = Math.max(-A_QMAX, Math.min(A_QMAX, roundHalfToEven(f(a[i * k + t]! * inv))));
    for (let j = 0; j < n; j++) {
      let acc = 0;
      for (let blk = 0; blk < k; blk += 32) {
        let s = 0;
        for (let t = blk; t < blk + 32; t++) s += qa[t]! * qw[t * n + j]!;
        acc = blk === 0 ? f(s) : f(acc + f(s));
      }
      out[i * n + j] = f(f(acc * f(sa * sw[j]!)) + bias[j]!);
    }
  }
  return out;
}

describe('kernel: matmulI16 (canon.3 dense layers)', () => {
  it('equals the JS emulation bit for bit and stays within the quantisation error of matmul', () => {
    const seed = fuzzSeed();
    const rand = mulberry32(seed);
    // Every row tail of the 4-row tiles (m % 4), several 8-column strips, one and many 32-k
    // blocks, and the query-sized shape of the model (23 rows).
    for (const [m, k, n] of [
      [1, 32, 8],
      [2, 32, 16],
      [3, 64, 8],
      [4, 32, 24],
      [5, 96, 16],
      [6, 64, 8],
      [7, 64, 16],
      [8, 128, 8],
      [9, 32, 40],
      [13, 384, 24],
      [23, 384, 16],
    ] as const) {
      const a = Float32Array.from({ length: m * k }, () =>
        f((rand() * 2 - 1) * (rand() < 0.02 ? 20 : 1)),
      );
      if (m > 2) a.fill(0, k, 2 * k); // an all-zero row (scale 1) inside a tile
      const b = randomF32(rand, k * n, 0.1);
      const bias = randomF32(rand, n, 0.5);
      const mk = K.mark();
      const pa = K.putF32(a);
      const pb = K.putF32(b);
      const pbias = K.putF32(bias);
      const w = K.packWeightsI16(b, k, n);
      const c = K.alloc(m * n * 4);
      K.matmulI16(pa, w, pbias, c, m, k, n);
      const got = K.f32(c, m * n).slice();
      const c2 = K.alloc(m * n * 4);
      K.matmul(pa, pb, pbias, c2, m, k, n);
      const exact = K.f32(c2, m * n).slice();
      K.release(mk);
      expect(Array.from(got), `seed ${seed} ${m}x${k}x${n}`).toEqual(
        Array.from(emulate(a, b, bias, m, k, n)),
      );
      let worst = 0;
      for (let i = 0; i < m * n; i++) worst = Math.max(worst, Math.abs(got[i]! - exact[i]!));
      // |error| <= k * (half a weight step * max|a| + half an activation step * max|w|), loosely.
      expect(worst, `seed ${seed}`).toBeLessThan(k * (0.05 / W_QMAX) * 20);
    }
  });

  it('gives a row the same bits alone as inside a batch (tile rows and tail rows agree)', () => {
    const seed = fuzzSeed();
    const rand = mulberry32(seed);
    const [m, k, n] = [6, 96, 16];
    const a = randomF32(rand, m * k);
    const b = randomF32(rand, k * n, 0.5);
    const mk = K.mark();
    const pa = K.putF32(a);
    const w = K.packWeightsI16(b, k, n);
    const c = K.alloc(m * n * 4);
    K.matmulI16(pa, w, 0, c, m, k, n, true);
    const batch = K.f32(c, m * n).slice();
    for (let i = 0; i < m; i++) {
      K.matmulI16(pa + i * k * 4, w, 0, c, 1, k, n, true);
      expect(Array.from(K.f32(c, n)), `seed ${seed} row ${i}`).toEqual(
        Array.from(batch.subarray(i * n, (i + 1) * n)),
      );
    }
    K.release(mk);
  });

  it('fuses GELU with the bits of the gelu kernel applied after it', () => {
    const seed = fuzzSeed();
    const rand = mulberry32(seed);
    for (const [m, k, n] of [
      [5, 64, 24],
      [23, 96, 8],
    ] as const) {
      const a = randomF32(rand, m * k, 3);
      const b = randomF32(rand, k * n, 0.2);
      const mk = K.mark();
      const pa = K.putF32(a);
      const w = K.packWeightsI16(b, k, n);
      const c = K.alloc(m * n * 4);
      K.matmulI16(pa, w, 0, c, m, k, n, true);
      const fused = K.f32(c, m * n).slice();
      K.matmulI16(pa, w, 0, c, m, k, n, false);
      K.gelu(c, m * n);
      expect(Array.from(fused), `seed ${seed} ${m}x${k}x${n}`).toEqual(Array.from(K.f32(c, m * n)));
      K.release(mk);
    }
  });

  it('keeps only the int16 weights and their scales, not the f32 copy it quantised', () => {
    const [k, n] = [384, 64];
    const mk = K.mark();
    K.packWeightsI16(new Float32Array(k * n).fill(0.5), k, n);
    const used = K.mark() - mk;
    K.release(mk);
    expect(used).toBeGreaterThanOrEqual(k * n * 2 + n * 4);
    expect(used).toBeLessThan(k * n * 4);
  });

  it('rejects shapes it does not support', () => {
    const mk = K.mark();
    expect(() => K.packWeightsI16(new Float32Array(48 * 8), 48, 8)).toThrow();
    expect(() => K.packWeightsI16(new Float32Array(32 * 12), 32, 12)).toThrow();
    K.release(mk);
  });
});
