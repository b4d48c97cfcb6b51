// The BERT canon.2 kernels against the canon.1 ones they replace: the f32-lane GELU against the
// f64 erf GELU (accuracy bound) and against an independent float32 emulation of its operation
// sequence (exact bits), the fused matmul + GELU against the two steps, and the packed attention
// against `attention` (USE-lite's, unchanged), including masked keys.
import { beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../shared/errors';
import type { AttentionArgs, Kernel } from './kernel';
import { createNodeKernel } from './node-kernel';
import { mulberry32, randomF32 } from './rng.testkit';

let K: Kernel;
beforeAll(async () => {
  K = await createNodeKernel();
});

/**
 * [input bits, output bits] from a NumPy float32 emulation of gelu4's operations in the same
 * order (each mul/add/div rounded to f32, nearest-even): the definition is the operation
 * sequence, not the engine that runs it.
 */
const GELU_BITS: Array<[number, number]> = [
  [0x00000000, 0x00000000], // gelu(0) = 0
  [0x80000000, 0x80000000], // gelu(-0) = -0
  [0x3f000000, 0x3eb103af], // gelu(0.5) = 0.3457312285900116
  [0xbf000000, 0xbe1df8a2], // gelu(-0.5) = -0.1542687714099884
  [0x3f87c3b6, 0x3f68506e], // gelu(1.0606601) = 0.9074772596359253 (small-|z| branch edge)
  [0xbf87c3b7, 0xbe1cdbf8], // gelu(-1.0606602) = -0.15318286418914795 (erfc branch)
  [0x3f800000, 0x3f57625f], // gelu(1) = 0.8413447737693787
  [0xbf800000, 0xbe227684], // gelu(-1) = -0.15865522623062134
  [0x40000000, 0x3ffa2d0c], // gelu(2) = 1.9544997215270996
  [0xc0000000, 0xbd3a5e7c], // gelu(-2) = -0.0455002635717392
  [0xc0600000, 0xba557029], // gelu(-3.5) = -0.0008142018341459334
  [0x40a00000, 0x409ffffd], // gelu(5) = 4.999998569488525
  [0xc0e80000, 0xabd4a052], // gelu(-7.25) = -1.5108003823677274e-12
  [0x41400000, 0x41400000], // gelu(12) = 12
  [0xc1400000, 0x8add60e4], // gelu(-12) = -2.13179720878262e-32
  [0xc2200000, 0x852ff83e], // gelu(-40) = -8.274055344668828e-36 (|z| clamped to 9)
  [0x1e3ce508, 0x1dbce508], // gelu(1e-20) = 5e-21
  [0xb4a10fb0, 0xb4210fad], // gelu(-3e-7) = -1.4999996267306415e-7
];

function geluOf(values: Float32Array, fn: 'gelu' | 'geluScalar'): Float32Array {
  const mk = K.mark();
  const p = K.putF32(values);
  K[fn](p, values.length);
  const out = K.f32(p, values.length).slice();
  K.release(mk);
  return out;
}

describe('canon.2 GELU (f32 lanes)', () => {
  it('reproduces the float32 emulation bit for bit, in SIMD lanes and in the tail', () => {
    const input = new Float32Array(new Uint32Array(GELU_BITS.map(([x]) => x)).buffer);
    const want = GELU_BITS.map(([, y]) => y);
    // 18 values: four full vectors and a tail of 2; then shifted by one (tail of 1 and 3).
    expect(Array.from(new Uint32Array(geluOf(input, 'gelu').buffer))).toEqual(want);
    const shifted = geluOf(Float32Array.from([0.25, ...input]), 'gelu');
    expect(Array.from(new Uint32Array(shifted.buffer)).slice(1)).toEqual(want);
  });

  it('stays within 1.2e-7 * max(1, |x|) (+ the reference rounding) of the f64 erf GELU', () => {
    const rand = mulberry32(2026);
    const values: number[] = [];
    for (let i = 0; i < 60000; i++) values.push((rand() * 2 - 1) * 8);
    for (let i = 0; i < 20000; i++) values.push((rand() * 2 - 1) * 1.2);
    for (let i = 0; i < 2000; i++) values.push((rand() * 2 - 1) * 60);
    const input = Float32Array.from(values);
    const fast = geluOf(input, 'gelu');
    const ref = geluOf(input, 'geluScalar');
    let worst = 0;
    for (let i = 0; i < input.length; i++) {
      const x = input[i]!;
      // geluScalar is exact to f64 then rounded to f32: allow its half ulp (2^-24 relative).
      const bound = 1.2e-7 * Math.max(1, Math.abs(x)) + Math.abs(ref[i]!) * 2 ** -24;
      worst = Math.max(worst, Math.abs(fast[i]! - ref[i]!) / bound);
    }
    expect(worst).toBeLessThanOrEqual(1);
  });

  it('matmulPackedGelu equals matmulPacked followed by gelu, bit for bit', () => {
    const rand = mulberry32(5);
    for (const [m, k, n] of [
      [7, 48, 24],
      [4, 384, 16],
      [1, 5, 8],
    ] as const) {
      const mk = K.mark();
      const a = K.putF32(randomF32(rand, m * k, 2));
      const b = K.putF32(randomF32(rand, k * n, 0.5));
      const bias = K.putF32(randomF32(rand, n));
      const packed = K.alloc(k * n * 4);
      K.packB(b, k, n, packed);
      const c1 = K.alloc(m * n * 4);
      const c2 = K.alloc(m * n * 4);
      K.matmulPacked(a, packed, bias, c1, m, k, n);
      K.gelu(c1, m * n);
      K.matmulPackedGelu(a, packed, bias, c2, m, k, n);
      expect(new Uint32Array(K.f32(c2, m * n).slice().buffer)).toEqual(
        new Uint32Array(K.f32(c1, m * n).slice().buffer),
      );
      K.release(mk);
    }
  });
});

describe('canon.2 attention (packed tiles, f32 softmax)', () => {
  /** Runs `fn` on q, k, v interleaved in rows of 3 * heads * d floats; returns the output. */
  function run(
    fn: 'attention' | 'attentionPacked',
    qkv: Float32Array,
    shape: { L: number; H: number; d: number; valid: number },
  ): Float32Array {
    const { L, H, d, valid } = shape;
    const mk = K.mark();
    const p = K.putF32(qkv);
    const out = K.alloc(L * H * d * 4);
    const args: AttentionArgs = {
      q: p,
      k: p + H * d * 4,
      v: p + 2 * H * d * 4,
      stride: 3 * H * d,
      out,
      seqLen: L,
      heads: H,
      headDim: d,
      validLen: valid,
      scale: 1 / Math.sqrt(d),
    };
    K[fn](args);
    const r = K.f32(out, L * H * d).slice();
    K.release(mk);
    return r;
  }

  it('agrees with attention to 2e-6 (lengths around the padding to 8, masked keys)', () => {
    const rand = mulberry32(77);
    for (const [L, valid] of [
      [1, 1],
      [5, 5],
      [8, 8],
      [13, 13],
      [13, 9],
      [40, 33],
    ] as const) {
      const shape = { L, H: 3, d: 8, valid };
      const qkv = randomF32(rand, L * 3 * 3 * 8, 3);
      const want = run('attention', qkv, shape);
      const got = run('attentionPacked', qkv, shape);
      for (let i = 0; i < want.length; i++) {
        expect(Math.abs(got[i]! - want[i]!)).toBeLessThan(2e-6);
      }
    }
  });

  it('ignores masked keys and values entirely and is deterministic', () => {
    const rand = mulberry32(12);
    const shape = { L: 11, H: 2, d: 16, valid: 7 };
    const stride = 3 * 2 * 16;
    const qkv = randomF32(rand, 11 * stride);
    const got = run('attentionPacked', qkv, shape);
    const changed = qkv.slice();
    for (let j = 7; j < 11; j++) for (let c = 2 * 16; c < stride; c++) changed[j * stride + c] = 99;
    expect(run('attentionPacked', changed, shape)).toEqual(got);
    expect(run('attentionPacked', qkv, shape)).toEqual(got);
  });

  it('rejects shapes it does not support with WASM_ERROR', () => {
    const qkv = new Float32Array(4 * 3 * 12);
    for (const shape of [
      { L: 4, H: 1, d: 12, valid: 4 }, // head size not a multiple of 8
      { L: 4, H: 1, d: 8, valid: 0 }, // nothing to attend to
    ]) {
      let caught: unknown;
      try {
        run('attentionPacked', qkv, shape);
      } catch (e) {
        caught = e;
      }
      expect(caught).toBeInstanceOf(AppError);
      expect((caught as AppError).code).toBe('WASM_ERROR');
    }
  });
});
