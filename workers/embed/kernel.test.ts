import { beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../shared/errors';
import type { Kernel } from './kernel';
import { createKernel } from './kernel';
import { createNodeKernel } from './node-kernel';
import { dequantize, dotToCosine, quantize, roundHalfToEven } from '../shared/quant';
import { jsDotKernel } from '../vector';
import { fuzzSeed, mulberry32, randomF32 } from './rng.testkit';

let K: Kernel;
beforeAll(async () => {
  K = await createNodeKernel();
});

/** f32 reference with the runtime's documented order: k ascending, separate mul and add. */
function matmulRef(
  a: Float32Array,
  b: Float32Array,
  bias: Float32Array | null,
  m: number,
  k: number,
  n: number,
) {
  const c = new Float32Array(m * n);
  for (let i = 0; i < m; i++) {
    for (let j = 0; j < n; j++) {
      let acc = 0;
      for (let t = 0; t < k; t++)
        acc = Math.fround(acc + Math.fround(a[i * k + t]! * b[t * n + j]!));
      if (bias) acc = Math.fround(acc + bias[j]!);
      c[i * n + j] = acc;
    }
  }
  return c;
}

describe('kernel: f32 kernels', () => {
  it.each([
    [1, 1, 1],
    [5, 7, 13],
    [9, 33, 24],
    [4, 64, 8],
    [17, 40, 37],
  ])('matmul %ix%ix%i is bit-identical to the sequential f32 reference', (m, k, n) => {
    const rand = mulberry32(m * 1000 + k * 10 + n);
    const a = randomF32(rand, m * k);
    const b = randomF32(rand, k * n);
    const bias = randomF32(rand, n);
    const mk = K.mark();
    const pa = K.putF32(a);
    const pb = K.putF32(b);
    const pbias = K.putF32(bias);
    const pc = K.alloc(m * n * 4);
    K.matmul(pa, pb, pbias, pc, m, k, n);
    expect(Array.from(K.f32(pc, m * n))).toEqual(Array.from(matmulRef(a, b, bias, m, k, n)));
    K.matmul(pa, pb, 0, pc, m, k, n);
    expect(Array.from(K.f32(pc, m * n))).toEqual(Array.from(matmulRef(a, b, null, m, k, n)));
    K.release(mk);
  });

  it.each([
    [1, 9, 8],
    [6, 16, 16],
    [7, 33, 24],
    [13, 64, 40],
  ])('matmulPacked %ix%ix%i gives the same bits as matmul', (m, k, n) => {
    const rand = mulberry32(m * 7919 + k * 31 + n);
    const mk = K.mark();
    const pa = K.putF32(randomF32(rand, m * k));
    const pb = K.putF32(randomF32(rand, k * n));
    const pbias = K.putF32(randomF32(rand, n));
    const packed = K.alloc(k * n * 4);
    K.packB(pb, k, n, packed);
    const c1 = K.alloc(m * n * 4);
    const c2 = K.alloc(m * n * 4);
    K.matmul(pa, pb, pbias, c1, m, k, n);
    K.matmulPacked(pa, packed, pbias, c2, m, k, n);
    expect(Array.from(K.f32(c2, m * n))).toEqual(Array.from(K.f32(c1, m * n)));
    expect(() => K.packB(pb, k, n + 1, packed)).toThrow(/rejected/);
    K.release(mk);
  });

  it.each([
    [108, 384, 384],
    [57, 1536, 48],
    [3, 40, 8],
  ])('matmulPacked %ix%ix%i (model shapes, row tails) matches matmul bit for bit', (m, k, n) => {
    const rand = mulberry32(m * 131 + k + n * 7);
    const mk = K.mark();
    const pa = K.putF32(randomF32(rand, m * k, 3));
    const pb = K.putF32(randomF32(rand, k * n, 0.1));
    const pbias = K.putF32(randomF32(rand, n));
    const packed = K.alloc(k * n * 4);
    K.packB(pb, k, n, packed);
    const c1 = K.alloc(m * n * 4);
    const c2 = K.alloc(m * n * 4);
    for (const bias of [pbias, 0]) {
      K.matmul(pa, pb, bias, c1, m, k, n);
      K.matmulPacked(pa, packed, bias, c2, m, k, n);
      expect(new Uint32Array(K.f32(c2, m * n).slice().buffer)).toEqual(
        new Uint32Array(K.f32(c1, m * n).slice().buffer),
      );
    }
    K.release(mk);
  });

  it('geluErf64 (canon.1) gives exactly the bits of geluScalar (series early exit, SIMD lanes, tails)', () => {
    const rand = mulberry32(4242);
    const values: number[] = [
      0,
      -0,
      1e-30,
      -1e-30,
      2.5 * Math.SQRT2,
      -2.5 * Math.SQRT2,
      3.5,
      -3.5,
      8.49,
      -8.49,
      9,
      -9,
      100,
      -100,
      Infinity,
      -Infinity,
      NaN,
      1.401298464324817e-45,
    ];
    // Dense sweep of the whole series range and beyond, plus random f32 bit patterns.
    for (let i = 0; i < 40000; i++) values.push((rand() * 2 - 1) * 6);
    for (let i = 0; i < 20000; i++) values.push((rand() * 2 - 1) * 0.01);
    const bits = new Uint32Array(20000);
    for (let i = 0; i < bits.length; i++) bits[i] = Math.floor(rand() * 2 ** 32);
    values.push(...new Float32Array(bits.buffer));
    const input = Float32Array.from(values);
    for (const len of [input.length, input.length - 1, 3]) {
      const mk = K.mark();
      const a = K.putF32(input.subarray(0, len));
      const b = K.putF32(input.subarray(0, len));
      K.geluErf64(a, len);
      K.geluScalar(b, len);
      const fast = new Uint32Array(K.f32(a, len).slice().buffer);
      const slow = new Uint32Array(K.f32(b, len).slice().buffer);
      let diff = 0;
      for (let i = 0; i < len; i++) if (fast[i] !== slow[i]) diff++;
      expect(diff).toBe(0);
      K.release(mk);
    }
  });

  it('matmulI8 (int8 weights, int16 activations, int32 sums) approximates matmul', () => {
    const rand = mulberry32(99);
    const [m, k, n] = [5, 1536, 12];
    const mk = K.mark();
    const pa = K.putF32(randomF32(rand, m * k));
    const pb = K.putF32(randomF32(rand, k * n, 0.1));
    const bias = K.putF32(randomF32(rand, n));
    const ref = K.alloc(m * n * 4);
    const got = K.alloc(m * n * 4);
    K.matmul(pa, pb, bias, ref, m, k, n);
    const w = K.packWeightsI8(pb, k, n);
    K.matmulI8(pa, w, bias, got, m, k, n);
    const r = Array.from(K.f32(ref, m * n));
    const g = Array.from(K.f32(got, m * n));
    const scale = Math.max(...r.map(Math.abs));
    for (let i = 0; i < r.length; i++) expect(Math.abs(g[i]! - r[i]!)).toBeLessThan(0.02 * scale);
    // deterministic: same bits on a second run
    const again = K.alloc(m * n * 4);
    K.matmulI8(pa, w, bias, again, m, k, n);
    expect(Array.from(K.f32(again, m * n))).toEqual(g);
    expect(() => K.packWeightsI8(pb, k - 1, n)).toThrow(/rejected/);
    K.release(mk);
  });

  it('elementary functions agree with the platform Math to ~1e-14', () => {
    const rand = mulberry32(7);
    for (let i = 0; i < 2000; i++) {
      const x = (rand() * 2 - 1) * 40;
      expect(Math.abs(K.math.exp(x / 4) - Math.exp(x / 4))).toBeLessThanOrEqual(
        1e-14 * Math.exp(x / 4),
      );
      expect(Math.abs(K.math.sin(x * 5) - Math.sin(x * 5))).toBeLessThan(1e-14);
      expect(Math.abs(K.math.cos(x * 5) - Math.cos(x * 5))).toBeLessThan(1e-14);
      expect(Math.abs(K.math.tanh(x / 8) - Math.tanh(x / 8))).toBeLessThan(1e-15);
    }
    expect(K.math.exp(-1e9)).toBe(0);
    expect(K.math.exp(1000)).toBe(Infinity);
    expect(K.math.exp(0)).toBe(1);
    expect(K.math.tanh(50)).toBe(1);
    // erf against known values (Abramowitz & Stegun table)
    const erf: Array<[number, number]> = [
      [0, 0],
      [0.5, 0.5204998778130465],
      [1, 0.8427007929497149],
      [2, 0.9953222650189527],
      [3, 0.9999779095030014],
      [4, 0.9999999845827421],
      [-1.5, -0.9661051464753108],
    ];
    for (const [x, y] of erf) expect(Math.abs(K.math.erf(x) - y)).toBeLessThan(1e-13);
  });

  it('softmax rows sum to 1 and attention ignores padded keys', () => {
    const rand = mulberry32(11);
    const L = 6;
    const H = 2;
    const d = 8;
    const stride = H * d * 3;
    const qkv = randomF32(rand, L * stride, 2);
    const mk = K.mark();
    const p = K.putF32(qkv);
    const out = K.alloc(L * H * d * 4);
    const valid = 4;
    K.attention({
      q: p,
      k: p + H * d * 4,
      v: p + 2 * H * d * 4,
      stride,
      out,
      seqLen: L,
      heads: H,
      headDim: d,
      validLen: valid,
      scale: 0.5,
    });
    const got = Array.from(K.f32(out, L * H * d));
    // Changing a padded key/value must not change any output.
    const qkv2 = qkv.slice();
    for (let j = valid; j < L; j++) for (let c = H * d; c < stride; c++) qkv2[j * stride + c] = 99;
    const p2 = K.putF32(qkv2);
    const out2 = K.alloc(L * H * d * 4);
    K.attention({
      q: p2,
      k: p2 + H * d * 4,
      v: p2 + 2 * H * d * 4,
      stride,
      out: out2,
      seqLen: L,
      heads: H,
      headDim: d,
      validLen: valid,
      scale: 0.5,
    });
    expect(Array.from(K.f32(out2, L * H * d))).toEqual(got);
    // softmax
    const x = K.putF32(randomF32(rand, 3 * 10, 30));
    K.softmax(x, 3, 10);
    const s = K.f32(x, 30);
    for (let r = 0; r < 3; r++) {
      let sum = 0;
      for (let c = 0; c < 10; c++) sum += s[r * 10 + c]!;
      expect(Math.abs(sum - 1)).toBeLessThan(1e-6);
    }
    K.release(mk);
  });

  it('layerNorm gives zero mean and unit variance with gamma 1, beta 0', () => {
    const rand = mulberry32(3);
    const n = 64;
    const mk = K.mark();
    const x = K.putF32(randomF32(rand, 2 * n, 5));
    const g = K.putF32(new Float32Array(n).fill(1));
    const b = K.putF32(new Float32Array(n));
    const out = K.alloc(2 * n * 4);
    K.layerNorm(x, out, 2, n, g, b, 1e-6);
    const y = K.f32(out, 2 * n);
    for (let r = 0; r < 2; r++) {
      let m = 0;
      let v = 0;
      for (let i = 0; i < n; i++) m += y[r * n + i]!;
      m /= n;
      for (let i = 0; i < n; i++) v += (y[r * n + i]! - m) ** 2;
      expect(Math.abs(m)).toBeLessThan(1e-5);
      expect(Math.abs(v / n - 1)).toBeLessThan(1e-4);
    }
    K.release(mk);
  });

  it('maps a bad argument status to an AppError WASM_ERROR', () => {
    const mk = K.mark();
    const ids = K.putI32(new Int32Array([0, 5]));
    const table = K.putF32(new Float32Array(8));
    const out = K.alloc(16);
    let caught: unknown;
    try {
      K.gatherRows(table, 2, 4, ids, 2, out);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(AppError);
    expect((caught as AppError).code).toBe('WASM_ERROR');
    K.release(mk);
  });

  it('rejects bytes that are not a module with WASM_ERROR', async () => {
    await expect(createKernel({ bytes: new Uint8Array([1, 2, 3]) })).rejects.toMatchObject({
      code: 'WASM_ERROR',
    });
  });
});

describe('kernel: int16 quantisation and dot (seeded fuzz against the JS reference)', () => {
  it('roundHalfToEven rounds ties to even', () => {
    expect([0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 2.4, 2.6].map(roundHalfToEven)).toEqual([
      0, 2, 2, -0, -2, -2, 2, 3,
    ]);
  });

  it('quantise/dequantise bounds and dot agreement', () => {
    const seed = fuzzSeed();
    const rand = mulberry32(seed);
    try {
      for (let iter = 0; iter < 200; iter++) {
        const n = 1 + Math.floor(rand() * 600);
        const x = new Float32Array(n);
        for (let i = 0; i < n; i++) {
          const pick = rand();
          // mix ordinary values, exact ties (k + 0.5) / 32767, out-of-range values and extremes
          x[i] =
            pick < 0.7
              ? rand() * 2 - 1
              : pick < 0.85
                ? (Math.floor(rand() * 65534) - 32767 + 0.5) / 32767
                : pick < 0.95
                  ? (rand() * 2 - 1) * 3
                  : [1, -1, 0, -0][Math.floor(rand() * 4)]!;
        }
        const ref = quantize(x);
        const mk = K.mark();
        const px = K.putF32(x);
        const pq = K.alloc(n * 2);
        K.quantize(px, pq, n);
        expect(Array.from(K.i16(pq, n))).toEqual(Array.from(ref));
        const back = dequantize(ref);
        for (let i = 0; i < n; i++) {
          const xi = x[i]!;
          expect(ref[i]!).toBeGreaterThanOrEqual(-32767);
          expect(ref[i]!).toBeLessThanOrEqual(32767);
          if (Math.abs(xi) <= 1)
            expect(Math.abs(back[i]! - xi)).toBeLessThanOrEqual(0.5 / 32767 + 1e-9);
          else expect(Math.abs(ref[i]!)).toBe(32767);
        }
        // dot agreement on unit vectors: exact vs JS, and cosine within the quantisation bound
        const u = new Float32Array(n);
        const w = new Float32Array(n);
        let nu = 0;
        let nw = 0;
        for (let i = 0; i < n; i++) {
          u[i] = rand() * 2 - 1;
          w[i] = rand() * 2 - 1;
          nu += u[i]! * u[i]!;
          nw += w[i]! * w[i]!;
        }
        let cos = 0;
        for (let i = 0; i < n; i++) {
          u[i] = u[i]! / Math.sqrt(nu);
          w[i] = w[i]! / Math.sqrt(nw);
        }
        for (let i = 0; i < n; i++) cos += u[i]! * w[i]!;
        const qu = quantize(u);
        const qw = quantize(w);
        const pu = K.putI16(qu);
        const pw = K.putI16(qw);
        const dot = K.dotI16(pu, pw, n);
        expect(dot).toBe(jsDotKernel.dot(qu, 0, qw, 0, n));
        // |cos_q - cos| <= (|u|_1 + |w|_1) * 0.5/S + n * (0.5/S)^2 <= sqrt(n)/S + n/(4 S^2)
        expect(Math.abs(dotToCosine(dot) - cos)).toBeLessThanOrEqual(
          Math.sqrt(n) / 32767 + n / (4 * 32767 ** 2) + 1e-9,
        );
        // dotI16Many gives the same scores row by row
        const scores = K.alloc(8);
        const mat = K.putI16(Int16Array.from([...qw, ...qu]));
        K.dotI16Many(pu, mat, 2, n, scores);
        expect(Array.from(K.i32(scores, 2))).toEqual([dot, jsDotKernel.dot(qu, 0, qu, 0, n)]);
        K.release(mk);
      }
    } catch (e) {
      console.error(`quantise fuzz failed with EMBED_FUZZ_SEED=${seed}`);
      throw e;
    }
  });
});
