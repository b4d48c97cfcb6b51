// Sift's canonical inference runtime: the ABI of wasm/ (every export here is the whole contract).
// Owns deterministic f32 kernels (fixed summation order, no FMA, no relaxed SIMD), our own
// exp/erf/tanh/sin/cos built only from IEEE-754 basic ops + sqrt, int16 quantisation and dot.
// Must not import host functions: the module has no imports, so results cannot depend on the host.
// Memory is a bump arena managed by alloc/mark/release; functions that can fail return a status.

// Status codes (mapped to AppErrors in workers/embed/kernel.ts, and only there).
export const STATUS_OK: i32 = 0;
export const STATUS_OOM: i32 = 1;
export const STATUS_BAD_ARG: i32 = 2;

// ---------------------------------------------------------------------------------------------
// Arena allocator: one linear bump region; callers mark() before scratch work and release() after.
// ---------------------------------------------------------------------------------------------
let top: usize = (__heap_base + 15) & ~(<usize>15);

/** Allocates `bytes` (16-byte aligned). Returns 0 when memory cannot grow (caller maps to OOM). */
export function alloc(bytes: usize): usize {
  const ptr = top;
  const end = (ptr + bytes + 15) & ~(<usize>15);
  const have = (<usize>memory.size()) << 16;
  if (end > have) {
    const need = <i32>((end - have + 0xffff) >>> 16);
    if (memory.grow(need) < 0) return 0;
  }
  top = end;
  return ptr;
}

export function mark(): usize {
  return top;
}

export function release(m: usize): void {
  top = m;
}

// ---------------------------------------------------------------------------------------------
// Deterministic elementary functions (f64 internally; only +, -, *, /, sqrt, nearest, bit ops).
// ---------------------------------------------------------------------------------------------
const LN2_HI: f64 = 6.9314718036912381649e-1;
const LN2_LO: f64 = 1.90821492927058770002e-10;
const INV_LN2: f64 = 1.442695040888963387;

/** 2^k for integer k in [-1074, 1023], built from bits (exact). */
function pow2i(k: i32): f64 {
  if (k > 1023) return Infinity;
  if (k >= -1022) return reinterpret<f64>((<i64>(k + 1023)) << 52);
  if (k < -1074) return 0.0;
  // subnormal: 2^-1022 * 2^(k+1022)
  return reinterpret<f64>((<i64>1) << 52) * reinterpret<f64>((<i64>(k + 1022 + 1023)) << 52);
}

/** e^x with ~1 ulp accuracy in f64; deterministic on every WebAssembly engine. */
export function dexp(x: f64): f64 {
  if (x != x) return x;
  if (x > 709.78) return Infinity;
  if (x < -745.2) return 0.0;
  const k = nearest(x * INV_LN2);
  const r = x - k * LN2_HI - k * LN2_LO;
  // Taylor series to degree 13 on |r| <= 0.35 (truncation error < 1e-17 relative).
  let p: f64 = 1.0 / 6227020800.0;
  p = p * r + 1.0 / 479001600.0;
  p = p * r + 1.0 / 39916800.0;
  p = p * r + 1.0 / 3628800.0;
  p = p * r + 1.0 / 362880.0;
  p = p * r + 1.0 / 40320.0;
  p = p * r + 1.0 / 5040.0;
  p = p * r + 1.0 / 720.0;
  p = p * r + 1.0 / 120.0;
  p = p * r + 1.0 / 24.0;
  p = p * r + 1.0 / 6.0;
  p = p * r + 0.5;
  p = p * r + 1.0;
  p = p * r + 1.0;
  const ki = <i32>k;
  if (ki < -1000) return p * pow2i(ki + 200) * pow2i(-200);
  if (ki > 1000) return p * pow2i(ki - 200) * pow2i(200);
  return p * pow2i(ki);
}

const PIO2_1: f64 = 1.57079632673412561417;
const PIO2_2: f64 = 6.0771005063039659766e-11;
const PIO2_3: f64 = 2.02226624879595063154e-21;
const TWO_OVER_PI: f64 = 6.36619772367581382433e-1;

function sinPoly(r: f64): f64 {
  const r2 = r * r;
  let p: f64 = -1.0 / 1307674368000.0;
  p = p * r2 + 1.0 / 6227020800.0;
  p = p * r2 - 1.0 / 39916800.0;
  p = p * r2 + 1.0 / 362880.0;
  p = p * r2 - 1.0 / 5040.0;
  p = p * r2 + 1.0 / 120.0;
  p = p * r2 - 1.0 / 6.0;
  return r + r * r2 * p;
}

function cosPoly(r: f64): f64 {
  const r2 = r * r;
  let p: f64 = 1.0 / 20922789888000.0;
  p = p * r2 - 1.0 / 87178291200.0;
  p = p * r2 + 1.0 / 479001600.0;
  p = p * r2 - 1.0 / 3628800.0;
  p = p * r2 + 1.0 / 40320.0;
  p = p * r2 - 1.0 / 720.0;
  p = p * r2 + 1.0 / 24.0;
  p = p * r2 - 0.5;
  return 1.0 + r2 * p;
}

/** sin or cos (cosine when `shift` = 1) with Cody-Waite reduction; accurate for |x| < 1e6. */
function sincos(x: f64, shift: i32): f64 {
  if (x != x || x == Infinity || x == -Infinity) return NaN;
  const k = nearest(x * TWO_OVER_PI);
  const r = x - k * PIO2_1 - k * PIO2_2 - k * PIO2_3;
  const q = (<i32>((<i64>k) & 3) + shift) & 3;
  if (q == 0) return sinPoly(r);
  if (q == 1) return cosPoly(r);
  if (q == 2) return -sinPoly(r);
  return -cosPoly(r);
}

export function dsin(x: f64): f64 {
  return sincos(x, 0);
}

export function dcos(x: f64): f64 {
  return sincos(x, 1);
}

export function dtanh(x: f64): f64 {
  if (x != x) return x;
  const ax = x < 0 ? -x : x;
  if (ax > 20.0) return x < 0 ? -1.0 : 1.0;
  let y: f64;
  if (ax < 0.03) {
    // Series avoids cancellation near 0: x - x^3/3 + 2x^5/15 - 17x^7/315.
    const a2 = ax * ax;
    y = ax * (1.0 + a2 * (-1.0 / 3.0 + a2 * (2.0 / 15.0 + a2 * (-17.0 / 315.0))));
  } else {
    const t = dexp(-2.0 * ax);
    y = (1.0 - t) / (1.0 + t);
  }
  return x < 0 ? -y : y;
}

const TWO_OVER_SQRT_PI: f64 = 1.1283791670955125739;
const INV_SQRT_PI: f64 = 0.56418958354775628695;

/** erf(x): Maclaurin series for |x| <= 2.5, continued fraction for erfc beyond (fixed depth). */
export function derf(x: f64): f64 {
  if (x != x) return x;
  const ax = x < 0 ? -x : x;
  let y: f64;
  if (ax <= 2.5) {
    const x2 = ax * ax;
    let term = ax; // x^(2n+1)/n! * (-1)^n
    let sum: f64 = ax;
    for (let n = 1; n < 60; n++) {
      term = (-term * x2) / <f64>n;
      sum += term / <f64>(2 * n + 1);
    }
    y = TWO_OVER_SQRT_PI * sum;
  } else if (ax >= 6.0) {
    y = 1.0;
  } else {
    // erfc(x) = exp(-x^2)/sqrt(pi) * 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + 2/(x + ...)))))
    let f: f64 = ax;
    for (let n = 60; n >= 1; n--) {
      f = ax + (<f64>n * 0.5) / f;
    }
    y = 1.0 - (dexp(-ax * ax) * INV_SQRT_PI) / f;
  }
  return x < 0 ? -y : y;
}

// ---------------------------------------------------------------------------------------------
// f32 kernels. Summation order is fixed: every output element accumulates k = 0, 1, ..., K-1 in
// f32 with a separate multiply and add (WebAssembly has no implicit FMA). SIMD lanes hold
// different output columns, never partial sums of one element, so blocking cannot change results.
// ---------------------------------------------------------------------------------------------

/**
 * C[M,N] = A[M,K] @ B[K,N] (+ bias[N] when bias != 0). Row-major, all f32.
 * Blocking: 8-column panels of B (K x 8 floats stay in L1) outermost, then 4-row blocks of A.
 * Each output element still accumulates k = 0..K-1 in order, so blocking never changes a bit.
 */
export function matmul(a: usize, b: usize, bias: usize, c: usize, m: i32, k: i32, n: i32): i32 {
  if (m < 0 || k < 0 || n < 0) return STATUS_BAD_ARG;
  const n8 = n & ~7;
  const n4 = n & ~3;
  const m4 = m & ~3;
  const rowB = (<usize>n) << 2;
  const rowA = (<usize>k) << 2;
  for (let j = 0; j < n8; j += 8) {
    let bb0 = f32x4.splat(0);
    let bb1 = f32x4.splat(0);
    if (bias != 0) {
      bb0 = v128.load(bias + ((<usize>j) << 2));
      bb1 = v128.load(bias + ((<usize>j) << 2), 16);
    }
    for (let i = 0; i < m4; i += 4) {
      const a0 = a + <usize>i * rowA;
      const a1 = a0 + rowA;
      const a2 = a1 + rowA;
      const a3 = a2 + rowA;
      let c00 = f32x4.splat(0),
        c01 = f32x4.splat(0);
      let c10 = f32x4.splat(0),
        c11 = f32x4.splat(0);
      let c20 = f32x4.splat(0),
        c21 = f32x4.splat(0);
      let c30 = f32x4.splat(0),
        c31 = f32x4.splat(0);
      let bp = b + ((<usize>j) << 2);
      for (let kk = 0; kk < k; kk++) {
        const b0 = v128.load(bp);
        const b1 = v128.load(bp, 16);
        const off = (<usize>kk) << 2;
        const x0 = v128.load32_splat(a0 + off);
        const x1 = v128.load32_splat(a1 + off);
        const x2 = v128.load32_splat(a2 + off);
        const x3 = v128.load32_splat(a3 + off);
        c00 = f32x4.add(c00, f32x4.mul(x0, b0));
        c01 = f32x4.add(c01, f32x4.mul(x0, b1));
        c10 = f32x4.add(c10, f32x4.mul(x1, b0));
        c11 = f32x4.add(c11, f32x4.mul(x1, b1));
        c20 = f32x4.add(c20, f32x4.mul(x2, b0));
        c21 = f32x4.add(c21, f32x4.mul(x2, b1));
        c30 = f32x4.add(c30, f32x4.mul(x3, b0));
        c31 = f32x4.add(c31, f32x4.mul(x3, b1));
        bp += rowB;
      }
      if (bias != 0) {
        c00 = f32x4.add(c00, bb0);
        c01 = f32x4.add(c01, bb1);
        c10 = f32x4.add(c10, bb0);
        c11 = f32x4.add(c11, bb1);
        c20 = f32x4.add(c20, bb0);
        c21 = f32x4.add(c21, bb1);
        c30 = f32x4.add(c30, bb0);
        c31 = f32x4.add(c31, bb1);
      }
      const cp = c + ((<usize>i * <usize>n + <usize>j) << 2);
      v128.store(cp, c00);
      v128.store(cp, c01, 16);
      v128.store(cp + rowB, c10);
      v128.store(cp + rowB, c11, 16);
      v128.store(cp + 2 * rowB, c20);
      v128.store(cp + 2 * rowB, c21, 16);
      v128.store(cp + 3 * rowB, c30);
      v128.store(cp + 3 * rowB, c31, 16);
    }
    // row tail of this panel
    for (let i = m4; i < m; i++) matmulRowTail(a, b, bias, c, i, k, n, j, j + 8);
  }
  // column tail (n not a multiple of 8): one row at a time
  for (let i = 0; i < m; i++) matmulRowTail(a, b, bias, c, i, k, n, n8, n4);
  return STATUS_OK;
}

/**
 * One output row, columns [j0, j4) 4 at a time; when j4 is the last multiple of 4 the scalar
 * columns [j4, n) follow. Same per-element order as the blocked kernel.
 */
function matmulRowTail(
  a: usize,
  b: usize,
  bias: usize,
  c: usize,
  i: i32,
  k: i32,
  n: i32,
  j0: i32,
  j4: i32,
): void {
  const ar = a + ((<usize>i * <usize>k) << 2);
  const cr = c + ((<usize>i * <usize>n) << 2);
  const rowB = (<usize>n) << 2;
  let j = j0;
  for (; j < j4; j += 4) {
    let acc = f32x4.splat(0);
    let bp = b + ((<usize>j) << 2);
    for (let kk = 0; kk < k; kk++) {
      acc = f32x4.add(acc, f32x4.mul(v128.load32_splat(ar + ((<usize>kk) << 2)), v128.load(bp)));
      bp += rowB;
    }
    if (bias != 0) acc = f32x4.add(acc, v128.load(bias + ((<usize>j) << 2)));
    v128.store(cr + ((<usize>j) << 2), acc);
  }
  if (j4 != (n & ~3)) return;
  for (; j < n; j++) {
    let acc: f32 = 0;
    for (let kk = 0; kk < k; kk++) {
      acc =
        acc +
        load<f32>(ar + ((<usize>kk) << 2)) *
          load<f32>(b + ((<usize>kk * <usize>n + <usize>j) << 2));
    }
    if (bias != 0) acc = acc + load<f32>(bias + ((<usize>j) << 2));
    store<f32>(cr + ((<usize>j) << 2), acc);
  }
}

/**
 * Packs B[K,N] (N a multiple of 8) into 8-column panels: panel p holds rows k = 0..K-1 of
 * columns [8p, 8p+8) contiguously, so matmulPacked streams each panel sequentially.
 */
export function packB(b: usize, k: i32, n: i32, out: usize): i32 {
  if ((n & 7) != 0 || k < 0) return STATUS_BAD_ARG;
  let o = out;
  for (let j = 0; j < n; j += 8) {
    for (let kk = 0; kk < k; kk++) {
      const src = b + ((<usize>kk * <usize>n + <usize>j) << 2);
      v128.store(o, v128.load(src));
      v128.store(o, v128.load(src, 16), 16);
      o += 32;
    }
  }
  return STATUS_OK;
}

/**
 * C[M,N] = A[M,K] @ B (+ bias) with B packed by packB (N a multiple of 8). Blocks of 4 rows x 8
 * columns (8 accumulators, 2 B vectors and one broadcast A value stay in registers: 6- and
 * 12-accumulator tiles spill on V8 and ran 1.5x slower), A values broadcast by load32_splat
 * from a copy of A with each 4-row block interleaved (constant offsets, about 7% faster; the
 * copy lives in the arena during the call, so the call can fail with STATUS_OOM), then single
 * rows. Per-element order is k = 0..K-1 exactly as in matmul, so both kernels give identical
 * bits.
 */
export function matmulPacked(
  a: usize,
  bp: usize,
  bias: usize,
  c: usize,
  m: i32,
  k: i32,
  n: i32,
): i32 {
  return matmulPackedAct(a, bp, bias, c, m, k, n, false);
}

/**
 * matmulPacked followed by the canon.2 `gelu` on every output element (bias added first), fused:
 * each 4x8 tile is activated while it is still in L1. Same bits as matmulPacked then gelu.
 */
export function matmulPackedGelu(
  a: usize,
  bp: usize,
  bias: usize,
  c: usize,
  m: i32,
  k: i32,
  n: i32,
): i32 {
  return matmulPackedAct(a, bp, bias, c, m, k, n, true);
}

/** gelu on `rows` rows of 8 floats at cp (row stride rowC bytes), in place. */
function geluTile(cp: usize, rowC: usize, rows: i32): void {
  for (let r = 0; r < rows; r++) geluVectors(cp + <usize>r * rowC, 2);
}

function matmulPackedAct(
  a: usize,
  bp: usize,
  bias: usize,
  c: usize,
  m: i32,
  k: i32,
  n: i32,
  act: bool,
): i32 {
  if ((n & 7) != 0 || m < 0 || k < 0) return STATUS_BAD_ARG;
  const rowA = (<usize>k) << 2;
  const rowC = (<usize>n) << 2;
  const panelBytes = (<usize>k) << 5;
  const m4 = m & ~3;
  // A's 4-row blocks interleaved (a4[k][r] = A[i + r][k]) so a tile's k-step reads one 16-byte
  // group with constant offsets; freed before returning.
  const arena = top;
  const a4 = alloc(<usize>m4 * rowA);
  if (m4 > 0 && a4 == 0) return STATUS_OOM;
  packRows4(a, a4, m4, k);
  for (let j = 0; j < n; j += 8) {
    const panel = bp + <usize>(j >> 3) * panelBytes;
    let bb0 = f32x4.splat(0);
    let bb1 = f32x4.splat(0);
    if (bias != 0) {
      bb0 = v128.load(bias + ((<usize>j) << 2));
      bb1 = v128.load(bias + ((<usize>j) << 2), 16);
    }
    for (let i = 0; i < m4; i += 4) {
      let c00 = f32x4.splat(0),
        c01 = f32x4.splat(0);
      let c10 = f32x4.splat(0),
        c11 = f32x4.splat(0);
      let c20 = f32x4.splat(0),
        c21 = f32x4.splat(0);
      let c30 = f32x4.splat(0),
        c31 = f32x4.splat(0);
      let p = panel;
      let ap = a4 + <usize>i * rowA;
      const end = ap + ((<usize>k) << 4);
      // (Unrolling two k-steps per iteration ran 1.3x slower on V8.)
      while (ap < end) {
        const b0 = v128.load(p);
        const b1 = v128.load(p, 16);
        let x = v128.load32_splat(ap);
        c00 = f32x4.add(c00, f32x4.mul(x, b0));
        c01 = f32x4.add(c01, f32x4.mul(x, b1));
        x = v128.load32_splat(ap, 4);
        c10 = f32x4.add(c10, f32x4.mul(x, b0));
        c11 = f32x4.add(c11, f32x4.mul(x, b1));
        x = v128.load32_splat(ap, 8);
        c20 = f32x4.add(c20, f32x4.mul(x, b0));
        c21 = f32x4.add(c21, f32x4.mul(x, b1));
        x = v128.load32_splat(ap, 12);
        c30 = f32x4.add(c30, f32x4.mul(x, b0));
        c31 = f32x4.add(c31, f32x4.mul(x, b1));
        p += 32;
        ap += 16;
      }
      if (bias != 0) {
        c00 = f32x4.add(c00, bb0);
        c01 = f32x4.add(c01, bb1);
        c10 = f32x4.add(c10, bb0);
        c11 = f32x4.add(c11, bb1);
        c20 = f32x4.add(c20, bb0);
        c21 = f32x4.add(c21, bb1);
        c30 = f32x4.add(c30, bb0);
        c31 = f32x4.add(c31, bb1);
      }
      const cp = c + <usize>i * rowC + ((<usize>j) << 2);
      v128.store(cp, c00);
      v128.store(cp, c01, 16);
      v128.store(cp + rowC, c10);
      v128.store(cp + rowC, c11, 16);
      v128.store(cp + 2 * rowC, c20);
      v128.store(cp + 2 * rowC, c21, 16);
      v128.store(cp + 3 * rowC, c30);
      v128.store(cp + 3 * rowC, c31, 16);
      if (act) geluTile(cp, rowC, 4);
    }
    // Tail rows (m % 4 of them) as one 3- or 2-row tile: 6 or 4 independent accumulator chains
    // instead of 2 per row (a lone row is add-latency bound, and a 23-token query is 3 of them).
    // Same per-element order k = 0..K-1, so the same bits as one row at a time.
    const tail = m - m4;
    if (tail == 3) {
      let c00 = f32x4.splat(0),
        c01 = f32x4.splat(0);
      let c10 = f32x4.splat(0),
        c11 = f32x4.splat(0);
      let c20 = f32x4.splat(0),
        c21 = f32x4.splat(0);
      let p = panel;
      let ap = a + <usize>m4 * rowA;
      const end = ap + rowA;
      while (ap < end) {
        const b0 = v128.load(p);
        const b1 = v128.load(p, 16);
        let x = v128.load32_splat(ap);
        c00 = f32x4.add(c00, f32x4.mul(x, b0));
        c01 = f32x4.add(c01, f32x4.mul(x, b1));
        x = v128.load32_splat(ap + rowA);
        c10 = f32x4.add(c10, f32x4.mul(x, b0));
        c11 = f32x4.add(c11, f32x4.mul(x, b1));
        x = v128.load32_splat(ap + 2 * rowA);
        c20 = f32x4.add(c20, f32x4.mul(x, b0));
        c21 = f32x4.add(c21, f32x4.mul(x, b1));
        p += 32;
        ap += 4;
      }
      if (bias != 0) {
        c00 = f32x4.add(c00, bb0);
        c01 = f32x4.add(c01, bb1);
        c10 = f32x4.add(c10, bb0);
        c11 = f32x4.add(c11, bb1);
        c20 = f32x4.add(c20, bb0);
        c21 = f32x4.add(c21, bb1);
      }
      const cp = c + <usize>m4 * rowC + ((<usize>j) << 2);
      v128.store(cp, c00);
      v128.store(cp, c01, 16);
      v128.store(cp + rowC, c10);
      v128.store(cp + rowC, c11, 16);
      v128.store(cp + 2 * rowC, c20);
      v128.store(cp + 2 * rowC, c21, 16);
      if (act) geluTile(cp, rowC, 3);
      continue;
    }
    if (tail == 2) {
      let c00 = f32x4.splat(0),
        c01 = f32x4.splat(0);
      let c10 = f32x4.splat(0),
        c11 = f32x4.splat(0);
      let p = panel;
      let ap = a + <usize>m4 * rowA;
      const end = ap + rowA;
      while (ap < end) {
        const b0 = v128.load(p);
        const b1 = v128.load(p, 16);
        let x = v128.load32_splat(ap);
        c00 = f32x4.add(c00, f32x4.mul(x, b0));
        c01 = f32x4.add(c01, f32x4.mul(x, b1));
        x = v128.load32_splat(ap + rowA);
        c10 = f32x4.add(c10, f32x4.mul(x, b0));
        c11 = f32x4.add(c11, f32x4.mul(x, b1));
        p += 32;
        ap += 4;
      }
      if (bias != 0) {
        c00 = f32x4.add(c00, bb0);
        c01 = f32x4.add(c01, bb1);
        c10 = f32x4.add(c10, bb0);
        c11 = f32x4.add(c11, bb1);
      }
      const cp = c + <usize>m4 * rowC + ((<usize>j) << 2);
      v128.store(cp, c00);
      v128.store(cp, c01, 16);
      v128.store(cp + rowC, c10);
      v128.store(cp + rowC, c11, 16);
      if (act) geluTile(cp, rowC, 2);
      continue;
    }
    for (let i = m4; i < m; i++) {
      let c0 = f32x4.splat(0);
      let c1 = f32x4.splat(0);
      let p = panel;
      let ap = a + <usize>i * rowA;
      for (let kk = 0; kk < k; kk++) {
        const x = v128.load32_splat(ap);
        c0 = f32x4.add(c0, f32x4.mul(x, v128.load(p)));
        c1 = f32x4.add(c1, f32x4.mul(x, v128.load(p, 16)));
        p += 32;
        ap += 4;
      }
      if (bias != 0) {
        c0 = f32x4.add(c0, bb0);
        c1 = f32x4.add(c1, bb1);
      }
      const cp = c + <usize>i * rowC + ((<usize>j) << 2);
      v128.store(cp, c0);
      v128.store(cp, c1, 16);
      if (act) geluTile(cp, rowC, 1);
    }
  }
  top = arena;
  return STATUS_OK;
}

/** a4[(i / 4) * 4k + kk * 4 + (i % 4)] = A[i][kk] for rows i < m4 (a multiple of 4). */
function packRows4(a: usize, a4: usize, m4: i32, k: i32): void {
  const rowA = (<usize>k) << 2;
  for (let i = 0; i < m4; i += 4) {
    const r0 = a + <usize>i * rowA;
    let o = a4 + <usize>i * rowA;
    for (let kk = 0; kk < k; kk++) {
      const off = (<usize>kk) << 2;
      store<f32>(o, load<f32>(r0 + off));
      store<f32>(o, load<f32>(r0 + rowA + off), 4);
      store<f32>(o, load<f32>(r0 + 2 * rowA + off), 8);
      store<f32>(o, load<f32>(r0 + 3 * rowA + off), 12);
      o += 16;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Integer-weight GEMM (experiment): int8 weights with a per-column scale, int16 activations with a
// per-row scale, exact int32 accumulation with i32x4.dot_i16x8_s. Deterministic by construction
// (integer sums are order-free); accuracy is measured in bench/embed-int8.ts.
// ---------------------------------------------------------------------------------------------

/**
 * Packs f32 B[K,N] (K even, N % 4 == 0) as int8 values in int16 lanes: per 4-column group and
 * k pair, 8 lanes [w(k,j), w(k+1,j), w(k,j+1), w(k+1,j+1), ...]. scale[j] = max|B[:,j]| / 127.
 */
export function packWeightsI8(b: usize, k: i32, n: i32, out: usize, scale: usize): i32 {
  if ((k & 1) != 0 || (n & 3) != 0) return STATUS_BAD_ARG;
  for (let j = 0; j < n; j++) {
    let mx: f32 = 0;
    for (let kk = 0; kk < k; kk++) {
      const v = abs<f32>(load<f32>(b + ((<usize>kk * <usize>n + <usize>j) << 2)));
      if (v > mx) mx = v;
    }
    store<f32>(scale + ((<usize>j) << 2), mx > 0 ? mx / <f32>127 : <f32>1);
  }
  let o = out;
  for (let j = 0; j < n; j += 4) {
    for (let kk = 0; kk < k; kk += 2) {
      for (let c = 0; c < 4; c++) {
        const s = load<f32>(scale + ((<usize>(j + c)) << 2));
        for (let t = 0; t < 2; t++) {
          const w = load<f32>(b + ((<usize>(kk + t) * <usize>n + <usize>(j + c)) << 2));
          store<i16>(o, <i16>(<i32>nearest<f32>(w / s)));
          o += 2;
        }
      }
    }
  }
  return STATUS_OK;
}

/**
 * Quantises rows of A[M,K] to int16 with a per-row scale so that no int32 sum can overflow:
 * |q| <= amax = min(32767, floor((2^31 - 1) / (K * 127))).
 */
export function quantizeRows(a: usize, m: i32, k: i32, out: usize, scale: usize): void {
  let amax = <f64>2147483647 / (<f64>k * 127.0);
  if (amax > 32767) amax = 32767;
  const qmax = <f32>Math.floor(amax);
  for (let i = 0; i < m; i++) {
    const row = a + ((<usize>i * <usize>k) << 2);
    let mx: f32 = 0;
    for (let kk = 0; kk < k; kk++) {
      const v = abs<f32>(load<f32>(row + ((<usize>kk) << 2)));
      if (v > mx) mx = v;
    }
    const s: f32 = mx > 0 ? mx / qmax : <f32>1;
    store<f32>(scale + ((<usize>i) << 2), s);
    const orow = out + ((<usize>i * <usize>k) << 1);
    for (let kk = 0; kk < k; kk++) {
      store<i16>(
        orow + ((<usize>kk) << 1),
        <i16>(<i32>nearest<f32>(load<f32>(row + ((<usize>kk) << 2)) / s)),
      );
    }
  }
}

/** C[M,N] = f32(sum_k qa*qw) * (sa[i] * sw[j]) + bias[j], with qw packed by packWeightsI8. */
export function matmulI8(
  qa: usize,
  sa: usize,
  qw: usize,
  sw: usize,
  bias: usize,
  c: usize,
  m: i32,
  k: i32,
  n: i32,
): i32 {
  if ((k & 1) != 0 || (n & 3) != 0) return STATUS_BAD_ARG;
  const rowA = (<usize>k) << 1;
  const groupBytes = (<usize>k) << 3; // 4 columns x k values x 2 bytes
  const m4 = m & ~3;
  for (let j = 0; j < n; j += 8) {
    const two = j + 8 <= n;
    const g0 = qw + <usize>(j >> 2) * groupBytes;
    const g1 = two ? g0 + groupBytes : g0;
    let i = 0;
    for (; i < m4; i += 4) {
      let c00 = i32x4.splat(0),
        c01 = i32x4.splat(0);
      let c10 = i32x4.splat(0),
        c11 = i32x4.splat(0);
      let c20 = i32x4.splat(0),
        c21 = i32x4.splat(0);
      let c30 = i32x4.splat(0),
        c31 = i32x4.splat(0);
      const a0 = qa + <usize>i * rowA;
      let p0 = g0;
      let p1 = g1;
      for (let kk = 0; kk < k; kk += 2) {
        const b0 = v128.load(p0);
        const b1 = v128.load(p1);
        const off = (<usize>kk) << 1;
        let x = i32x4.splat(load<i32>(a0 + off));
        c00 = i32x4.add(c00, i32x4.dot_i16x8_s(x, b0));
        c01 = i32x4.add(c01, i32x4.dot_i16x8_s(x, b1));
        x = i32x4.splat(load<i32>(a0 + rowA + off));
        c10 = i32x4.add(c10, i32x4.dot_i16x8_s(x, b0));
        c11 = i32x4.add(c11, i32x4.dot_i16x8_s(x, b1));
        x = i32x4.splat(load<i32>(a0 + 2 * rowA + off));
        c20 = i32x4.add(c20, i32x4.dot_i16x8_s(x, b0));
        c21 = i32x4.add(c21, i32x4.dot_i16x8_s(x, b1));
        x = i32x4.splat(load<i32>(a0 + 3 * rowA + off));
        c30 = i32x4.add(c30, i32x4.dot_i16x8_s(x, b0));
        c31 = i32x4.add(c31, i32x4.dot_i16x8_s(x, b1));
        p0 += 16;
        p1 += 16;
      }
      storeI8Block(c00, c01, i, j, two, sa, sw, bias, c, n);
      storeI8Block(c10, c11, i + 1, j, two, sa, sw, bias, c, n);
      storeI8Block(c20, c21, i + 2, j, two, sa, sw, bias, c, n);
      storeI8Block(c30, c31, i + 3, j, two, sa, sw, bias, c, n);
    }
    for (; i < m; i++) {
      let c0 = i32x4.splat(0),
        c1 = i32x4.splat(0);
      const a0 = qa + <usize>i * rowA;
      let p0 = g0;
      let p1 = g1;
      for (let kk = 0; kk < k; kk += 2) {
        const x = i32x4.splat(load<i32>(a0 + ((<usize>kk) << 1)));
        c0 = i32x4.add(c0, i32x4.dot_i16x8_s(x, v128.load(p0)));
        c1 = i32x4.add(c1, i32x4.dot_i16x8_s(x, v128.load(p1)));
        p0 += 16;
        p1 += 16;
      }
      storeI8Block(c0, c1, i, j, two, sa, sw, bias, c, n);
    }
  }
  return STATUS_OK;
}

function storeI8Block(
  acc0: v128,
  acc1: v128,
  i: i32,
  j: i32,
  two: bool,
  sa: usize,
  sw: usize,
  bias: usize,
  c: usize,
  n: i32,
): void {
  const s = v128.load32_splat(sa + ((<usize>i) << 2));
  const cp = c + ((<usize>i * <usize>n + <usize>j) << 2);
  let r0 = f32x4.mul(f32x4.convert_i32x4_s(acc0), f32x4.mul(s, v128.load(sw + ((<usize>j) << 2))));
  if (bias != 0) r0 = f32x4.add(r0, v128.load(bias + ((<usize>j) << 2)));
  v128.store(cp, r0);
  if (two) {
    let r1 = f32x4.mul(
      f32x4.convert_i32x4_s(acc1),
      f32x4.mul(s, v128.load(sw + ((<usize>(j + 4)) << 2))),
    );
    if (bias != 0) r1 = f32x4.add(r1, v128.load(bias + ((<usize>(j + 4)) << 2)));
    v128.store(cp, r1, 16);
  }
}

// ---------------------------------------------------------------------------------------------
// int16 GEMM (BERT canon.3 dense layers): weights quantised to |q| <= 2047 with a scale per
// output column, activations to |q| <= 32767 with a scale per row (dynamic), i32x4.dot_i16x8_s
// summed exactly in int32 over blocks of 32 k (32 * 2047 * 32767 < 2^31: no overflow by
// construction), each block's sum converted to f32 and added to the output in block order, then
// scaled and biased. Integer sums are order-free and the f32 steps have a fixed order, so the bits
// do not depend on the engine; no relaxed SIMD.
// ---------------------------------------------------------------------------------------------

export const I16_WEIGHT_QMAX: i32 = 2047;
export const I16_ACT_QMAX: i32 = 32767;
const I16_BLOCK: i32 = 32;

/**
 * Packs f32 B[K,N] (K % 32 == 0, N % 8 == 0) as int16 with scale[j] = max|B[:,j]| / 2047, in
 * strips of 8 columns (matmulI16's tile width): strip s, k pair p at byte s * 16K + p * 32 holds
 * columns 8s..8s+3 then 8s+4..8s+7, each as (w(2p, j), w(2p + 1, j)), the two vectors the
 * kernel multiplies per k pair, so one pointer walks a strip with constant offsets.
 */
export function packWeightsI16(b: usize, k: i32, n: i32, out: usize, scale: usize): i32 {
  if (k % I16_BLOCK != 0 || (n & 7) != 0) return STATUS_BAD_ARG;
  const qmax = <f32>I16_WEIGHT_QMAX;
  for (let j = 0; j < n; j++) {
    let mx: f32 = 0;
    for (let kk = 0; kk < k; kk++) {
      const v = abs<f32>(load<f32>(b + ((<usize>kk * <usize>n + <usize>j) << 2)));
      if (v > mx) mx = v;
    }
    store<f32>(scale + ((<usize>j) << 2), mx > 0 ? mx / qmax : <f32>1);
  }
  let o = out;
  for (let j = 0; j < n; j += 8) {
    for (let kk = 0; kk < k; kk += 2) {
      for (let c = 0; c < 8; c++) {
        const s = load<f32>(scale + ((<usize>(j + c)) << 2));
        for (let t = 0; t < 2; t++) {
          const w = load<f32>(b + ((<usize>(kk + t) * <usize>n + <usize>(j + c)) << 2));
          let q = <i32>nearest<f32>(w / s);
          if (q > I16_WEIGHT_QMAX) q = I16_WEIGHT_QMAX;
          if (q < -I16_WEIGHT_QMAX) q = -I16_WEIGHT_QMAX;
          store<i16>(o, <i16>q);
          o += 2;
        }
      }
    }
  }
  return STATUS_OK;
}

/** max|row| / 32767 (1 for an all-zero row): the activation scale of one row of k floats. */
function rowScaleI16(row: usize, k: i32): f32 {
  const rowEnd = row + ((<usize>k) << 2);
  let mv = f32x4.splat(0);
  for (let p = row; p < rowEnd; p += 16) mv = f32x4.max(mv, f32x4.abs(v128.load(p)));
  const mx = max<f32>(
    max<f32>(f32x4.extract_lane(mv, 0), f32x4.extract_lane(mv, 1)),
    max<f32>(f32x4.extract_lane(mv, 2), f32x4.extract_lane(mv, 3)),
  );
  return mx > 0 ? mx / <f32>I16_ACT_QMAX : <f32>1;
}

/** 8 floats at p to int16: nearest-even of x * inv, clamped to +-32767 (as quantizeRowsI16). */
function quantize8I16(p: usize, inv: v128): v128 {
  const hi = i32x4.splat(I16_ACT_QMAX);
  const lo = i32x4.splat(-I16_ACT_QMAX);
  let q0 = i32x4.trunc_sat_f32x4_s(f32x4.nearest(f32x4.mul(v128.load(p), inv)));
  let q1 = i32x4.trunc_sat_f32x4_s(f32x4.nearest(f32x4.mul(v128.load(p, 16), inv)));
  q0 = i32x4.max_s(i32x4.min_s(q0, hi), lo);
  q1 = i32x4.max_s(i32x4.min_s(q1, hi), lo);
  return i16x8.narrow_i32x4_s(q0, q1);
}

/**
 * Rows of A[M,K] (K % 32 == 0) to int16 with a per-row scale max|row| / 32767: q = nearest-even of
 * x * (1 / scale), clamped to +-32767, in f32x4 lanes (same bits as one element at a time).
 */
export function quantizeRowsI16(a: usize, m: i32, k: i32, out: usize, scale: usize): i32 {
  if (k % I16_BLOCK != 0 || m < 0) return STATUS_BAD_ARG;
  const rowBytes = (<usize>k) << 2;
  for (let i = 0; i < m; i++) {
    const row = a + <usize>i * rowBytes;
    const rowEnd = row + rowBytes;
    const s = rowScaleI16(row, k);
    store<f32>(scale + ((<usize>i) << 2), s);
    const inv = f32x4.splat(<f32>1 / s);
    let o = out + ((<usize>i * <usize>k) << 1);
    for (let p = row; p < rowEnd; p += 32) {
      v128.store(o, quantize8I16(p, inv));
      o += 16;
    }
  }
  return STATUS_OK;
}

/**
 * quantizeRowsI16 (the same scales and int16 values) written straight into 4-row tiles
 * interleaved by k pair, the layout matmulI16 broadcasts from: tile t at byte t * 8K, k pair p of
 * its row r at + p * 16 + r * 4. Rows from m up to the next multiple of 4 are zeros (scale 1), so
 * the GEMM has no row tail; their outputs are discarded.
 */
function quantizeTilesI16(a: usize, m: i32, k: i32, qa4: usize, sa: usize): void {
  const rowBytes = (<usize>k) << 2;
  const m4 = (m + 3) & ~3;
  let o = qa4;
  for (let i = 0; i < m4; i += 4) {
    const p0 = a + <usize>i * rowBytes;
    // A padding row reads row i again with inv = 0: every q is 0 and nothing outside A is read.
    const s0 = rowScaleI16(p0, k);
    const s1: f32 = i + 1 < m ? rowScaleI16(p0 + rowBytes, k) : 1;
    const s2: f32 = i + 2 < m ? rowScaleI16(p0 + 2 * rowBytes, k) : 1;
    const s3: f32 = i + 3 < m ? rowScaleI16(p0 + 3 * rowBytes, k) : 1;
    const sp = sa + ((<usize>i) << 2);
    store<f32>(sp, s0);
    store<f32>(sp, s1, 4);
    store<f32>(sp, s2, 8);
    store<f32>(sp, s3, 12);
    const r1: usize = i + 1 < m ? rowBytes : 0;
    const r2: usize = i + 2 < m ? rowBytes << 1 : 0;
    const r3: usize = i + 3 < m ? rowBytes * 3 : 0;
    const iv0 = f32x4.splat(<f32>1 / s0);
    const iv1 = f32x4.splat(i + 1 < m ? <f32>1 / s1 : 0);
    const iv2 = f32x4.splat(i + 2 < m ? <f32>1 / s2 : 0);
    const iv3 = f32x4.splat(i + 3 < m ? <f32>1 / s3 : 0);
    const end = p0 + rowBytes;
    for (let p = p0; p < end; p += 32) {
      // 4 k pairs (i32 lanes) of each row, transposed so each k pair's 4 rows are adjacent.
      const v0 = quantize8I16(p, iv0);
      const v1 = quantize8I16(p + r1, iv1);
      const v2 = quantize8I16(p + r2, iv2);
      const v3 = quantize8I16(p + r3, iv3);
      const t0 = v128.shuffle<i32>(v0, v1, 0, 4, 1, 5);
      const t1 = v128.shuffle<i32>(v2, v3, 0, 4, 1, 5);
      const t2 = v128.shuffle<i32>(v0, v1, 2, 6, 3, 7);
      const t3 = v128.shuffle<i32>(v2, v3, 2, 6, 3, 7);
      v128.store(o, v128.shuffle<i64>(t0, t1, 0, 2));
      v128.store(o, v128.shuffle<i64>(t0, t1, 1, 3), 16);
      v128.store(o, v128.shuffle<i64>(t2, t3, 0, 2), 32);
      v128.store(o, v128.shuffle<i64>(t2, t3, 1, 3), 48);
      o += 64;
    }
  }
}

/** Adds (or, for the first block, stores) one block's int32 sums as f32 to 8 outputs at cp. */
function flushI16(cp: usize, acc0: v128, acc1: v128, first: bool): void {
  let f0 = f32x4.convert_i32x4_s(acc0);
  let f1 = f32x4.convert_i32x4_s(acc1);
  if (!first) {
    f0 = f32x4.add(v128.load(cp), f0);
    f1 = f32x4.add(v128.load(cp, 16), f1);
  }
  v128.store(cp, f0);
  v128.store(cp, f1, 16);
}

/**
 * C[M,N] = (sum over 32-k blocks, in order, of f32(int32 block sum)) * (sa[i] * sw[j]) + bias[j],
 * then the canon.2 `gelu` when act. a: f32 rows, quantised here per row (quantizeTilesI16, the
 * bits of quantizeRowsI16); qw, sw from packWeightsI16. Tiles of 4 rows x 8 columns; the last
 * 1-3 rows of an M that is not a multiple of 4 run as one 3-row tile (zero rows fill a 1- or
 * 2-row tail) into scratch, and only the real rows are copied out. Scratch is freed on return.
 */
export function matmulI16(
  a: usize,
  qw: usize,
  sw: usize,
  bias: usize,
  c: usize,
  m: i32,
  k: i32,
  n: i32,
  act: bool,
): i32 {
  if (k % I16_BLOCK != 0 || (n & 7) != 0 || m < 0) return STATUS_BAD_ARG;
  if (m == 0) return STATUS_OK;
  const m4 = (m + 3) & ~3;
  const rowC = (<usize>n) << 2;
  const tileA = (<usize>k) << 3; // bytes of one 4-row tile of qa4
  const stripB = (<usize>k) << 4; // bytes of one 8-column strip of qw
  const arena = top;
  const qa4 = alloc((<usize>m4 * tileA) >> 2);
  const sa = alloc((<usize>m4) << 2);
  const pad = alloc(rowC << 2);
  if (qa4 == 0 || sa == 0 || pad == 0) {
    top = arena;
    return STATUS_OOM;
  }
  quantizeTilesI16(a, m, k, qa4, sa);
  for (let j = 0; j < n; j += 8) {
    const bs = qw + <usize>(j >> 3) * stripB;
    // A last tile of 1-3 real rows runs as a 3-row tile (matmulI16Rows3) on the same layout.
    const full = m & ~3;
    if (full != m4)
      matmulI16Rows3(qa4 + <usize>(full >> 2) * tileA, tileA, bs, pad, rowC, j, sa, full, sw, bias);
    for (let i = 0; i < full; i += 4) {
      const cp = c + <usize>i * rowC + ((<usize>j) << 2);
      let ap = qa4 + <usize>(i >> 2) * tileA;
      const aEnd = ap + tileA;
      let bp = bs;
      let first = true;
      while (ap < aEnd) {
        // One 32-k block (16 k pairs: 256 bytes of A, 512 of B), exact in int32; the first k
        // pair starts the sums (no zeroing and adding 0).
        let b0 = v128.load(bp);
        let b1 = v128.load(bp, 16);
        let x = v128.load32_splat(ap);
        let c00 = i32x4.dot_i16x8_s(x, b0);
        let c01 = i32x4.dot_i16x8_s(x, b1);
        x = v128.load32_splat(ap, 4);
        let c10 = i32x4.dot_i16x8_s(x, b0);
        let c11 = i32x4.dot_i16x8_s(x, b1);
        x = v128.load32_splat(ap, 8);
        let c20 = i32x4.dot_i16x8_s(x, b0);
        let c21 = i32x4.dot_i16x8_s(x, b1);
        x = v128.load32_splat(ap, 12);
        let c30 = i32x4.dot_i16x8_s(x, b0);
        let c31 = i32x4.dot_i16x8_s(x, b1);
        const blockEnd = ap + 256;
        ap += 16;
        bp += 32;
        while (ap < blockEnd) {
          b0 = v128.load(bp);
          b1 = v128.load(bp, 16);
          x = v128.load32_splat(ap);
          c00 = i32x4.add(c00, i32x4.dot_i16x8_s(x, b0));
          c01 = i32x4.add(c01, i32x4.dot_i16x8_s(x, b1));
          x = v128.load32_splat(ap, 4);
          c10 = i32x4.add(c10, i32x4.dot_i16x8_s(x, b0));
          c11 = i32x4.add(c11, i32x4.dot_i16x8_s(x, b1));
          x = v128.load32_splat(ap, 8);
          c20 = i32x4.add(c20, i32x4.dot_i16x8_s(x, b0));
          c21 = i32x4.add(c21, i32x4.dot_i16x8_s(x, b1));
          x = v128.load32_splat(ap, 12);
          c30 = i32x4.add(c30, i32x4.dot_i16x8_s(x, b0));
          c31 = i32x4.add(c31, i32x4.dot_i16x8_s(x, b1));
          ap += 16;
          bp += 32;
        }
        flushI16(cp, c00, c01, first);
        flushI16(cp + rowC, c10, c11, first);
        flushI16(cp + 2 * rowC, c20, c21, first);
        flushI16(cp + 3 * rowC, c30, c31, first);
        first = false;
      }
      for (let r = 0; r < 4; r++) finishI16(cp + <usize>r * rowC, sa, i + r, sw, bias, j);
    }
  }
  if (m4 != m) memory.copy(c + <usize>(m4 - 4) * rowC, pad, <usize>(m - (m4 - 4)) * rowC);
  if (act) geluVectors(c, (m * n) >> 2);
  top = arena;
  return STATUS_OK;
}

/**
 * matmulI16's 4x8 tile for the first 3 rows of the 4-row tile at ap (tileA bytes) into pad rows
 * 0-2, columns j..j+8: the same block sums, conversions and finish for those rows.
 */
function matmulI16Rows3(
  ap: usize,
  tileA: usize,
  bs: usize,
  pad: usize,
  rowC: usize,
  j: i32,
  sa: usize,
  i: i32,
  sw: usize,
  bias: usize,
): void {
  const cp = pad + ((<usize>j) << 2);
  const aEnd = ap + tileA;
  let bp = bs;
  let first = true;
  while (ap < aEnd) {
    let b0 = v128.load(bp);
    let b1 = v128.load(bp, 16);
    let x = v128.load32_splat(ap);
    let c00 = i32x4.dot_i16x8_s(x, b0);
    let c01 = i32x4.dot_i16x8_s(x, b1);
    x = v128.load32_splat(ap, 4);
    let c10 = i32x4.dot_i16x8_s(x, b0);
    let c11 = i32x4.dot_i16x8_s(x, b1);
    x = v128.load32_splat(ap, 8);
    let c20 = i32x4.dot_i16x8_s(x, b0);
    let c21 = i32x4.dot_i16x8_s(x, b1);
    const blockEnd = ap + 256;
    ap += 16;
    bp += 32;
    while (ap < blockEnd) {
      b0 = v128.load(bp);
      b1 = v128.load(bp, 16);
      x = v128.load32_splat(ap);
      c00 = i32x4.add(c00, i32x4.dot_i16x8_s(x, b0));
      c01 = i32x4.add(c01, i32x4.dot_i16x8_s(x, b1));
      x = v128.load32_splat(ap, 4);
      c10 = i32x4.add(c10, i32x4.dot_i16x8_s(x, b0));
      c11 = i32x4.add(c11, i32x4.dot_i16x8_s(x, b1));
      x = v128.load32_splat(ap, 8);
      c20 = i32x4.add(c20, i32x4.dot_i16x8_s(x, b0));
      c21 = i32x4.add(c21, i32x4.dot_i16x8_s(x, b1));
      ap += 16;
      bp += 32;
    }
    flushI16(cp, c00, c01, first);
    flushI16(cp + rowC, c10, c11, first);
    flushI16(cp + 2 * rowC, c20, c21, first);
    first = false;
  }
  for (let r = 0; r < 3; r++) finishI16(cp + <usize>r * rowC, sa, i + r, sw, bias, j);
}

/** out = sums * (sa[i] * sw[j..j+8]) (+ bias) on 8 outputs at cp. */
function finishI16(cp: usize, sa: usize, i: i32, sw: usize, bias: usize, j: i32): void {
  const s = v128.load32_splat(sa + ((<usize>i) << 2));
  const wo = sw + ((<usize>j) << 2);
  let r0 = f32x4.mul(v128.load(cp), f32x4.mul(s, v128.load(wo)));
  let r1 = f32x4.mul(v128.load(cp, 16), f32x4.mul(s, v128.load(wo, 16)));
  if (bias != 0) {
    r0 = f32x4.add(r0, v128.load(bias + ((<usize>j) << 2)));
    r1 = f32x4.add(r1, v128.load(bias + ((<usize>j) << 2), 16));
  }
  v128.store(cp, r0);
  v128.store(cp, r1, 16);
}

/** out[i] = x[i] + y[i] for i < len (out may alias x or y). */
export function add(x: usize, y: usize, out: usize, len: i32): void {
  let i = 0;
  for (; i + 4 <= len; i += 4) {
    const o = (<usize>i) << 2;
    v128.store(out + o, f32x4.add(v128.load(x + o), v128.load(y + o)));
  }
  for (; i < len; i++) {
    const o = (<usize>i) << 2;
    store<f32>(out + o, load<f32>(x + o) + load<f32>(y + o));
  }
}

/** In-place ReLU. */
export function relu(x: usize, len: i32): void {
  const z = f32x4.splat(0);
  let i = 0;
  for (; i + 4 <= len; i += 4) {
    const o = (<usize>i) << 2;
    v128.store(x + o, f32x4.max(v128.load(x + o), z));
  }
  for (; i < len; i++) {
    const o = (<usize>i) << 2;
    const v = load<f32>(x + o);
    store<f32>(x + o, v > 0 ? v : 0);
  }
}

/**
 * In-place GELU, erf form, one element at a time, in f64: 0.5 * x * (1 + erf(x / sqrt(2))). The
 * definition of BERT_CANON_REVISION canon.1's bytes and the accuracy reference of `gelu`;
 * `geluErf64` computes the same bits faster (tests compare the two).
 */
export function geluScalar(x: usize, len: i32): void {
  for (let i = 0; i < len; i++) {
    const o = (<usize>i) << 2;
    const v = <f64>load<f32>(x + o);
    store<f32>(x + o, <f32>(0.5 * v * (1.0 + derf(v * 0.7071067811865475244))));
  }
}

const TWO_POW_M55: f64 = 2.77555756156289135106e-17;

/**
 * canon.1's GELU (kept as the reference the canon.2 tests compare against): exactly geluScalar's
 * bits, 4 elements at a time: derf's Maclaurin series
 * (the |x| <= 2.5 branch) runs in two f64x2 vectors with the very same IEEE operations per lane
 * (mul, div, add are correctly rounded, so lanes equal the scalar code), and stops once adding
 * more terms provably cannot change the sum: from n >= 7 > x^2 the computed terms t_n shrink
 * monotonically, and |t_n| < |sum| * 2^-55 (less than half the spacing of f64 around sum) means
 * sum + t_m rounds back to sum for every later m. Lanes outside the series range (|x| > 2.5, NaN)
 * are recomputed by geluScalar.
 */
export function geluErf64(x: usize, len: i32): void {
  let i = 0;
  for (; i + 4 <= len; i += 4) geluSeries4(x + ((<usize>i) << 2));
  if (i < len) geluScalar(x + ((<usize>i) << 2), len - i);
}

function geluSeries4(p: usize): void {
  const c = f64x2.splat(0.7071067811865475244);
  const lim = f64x2.splat(2.5);
  const one = f64x2.splat(1.0);
  const va = f64x2.promote_low_f32x4(v128.load64_zero(p));
  const vb = f64x2.promote_low_f32x4(v128.load64_zero(p, 8));
  const xa = f64x2.mul(va, c);
  const xb = f64x2.mul(vb, c);
  const oka = f64x2.le(f64x2.abs(xa), lim);
  const okb = f64x2.le(f64x2.abs(xb), lim);
  // Lanes the series must not handle run it on 1.0 (converges fast); they are redone below.
  const aa = v128.bitselect(f64x2.abs(xa), one, oka);
  const ab = v128.bitselect(f64x2.abs(xb), one, okb);
  const x2a = f64x2.mul(aa, aa);
  const x2b = f64x2.mul(ab, ab);
  const tiny = f64x2.splat(TWO_POW_M55);
  let ta = aa;
  let tb = ab;
  let sa = aa;
  let sb = ab;
  for (let n = 1; n < 60; n++) {
    const fn = f64x2.splat(<f64>n);
    const fd = f64x2.splat(<f64>(2 * n + 1));
    ta = f64x2.div(f64x2.mul(f64x2.neg(ta), x2a), fn);
    tb = f64x2.div(f64x2.mul(f64x2.neg(tb), x2b), fn);
    const qa = f64x2.div(ta, fd);
    const qb = f64x2.div(tb, fd);
    sa = f64x2.add(sa, qa);
    sb = f64x2.add(sb, qb);
    if (n >= 7) {
      const da = f64x2.lt(f64x2.abs(qa), f64x2.mul(f64x2.abs(sa), tiny));
      const db = f64x2.lt(f64x2.abs(qb), f64x2.mul(f64x2.abs(sb), tiny));
      if (i64x2.all_true(v128.and(da, db))) break;
    }
  }
  const k = f64x2.splat(TWO_OVER_SQRT_PI);
  const zero = f64x2.splat(0);
  let ya = f64x2.mul(k, sa);
  let yb = f64x2.mul(k, sb);
  ya = v128.bitselect(f64x2.neg(ya), ya, f64x2.lt(xa, zero));
  yb = v128.bitselect(f64x2.neg(yb), yb, f64x2.lt(xb, zero));
  const half = f64x2.splat(0.5);
  const ga = f64x2.mul(f64x2.mul(half, va), f64x2.add(one, ya));
  const gb = f64x2.mul(f64x2.mul(half, vb), f64x2.add(one, yb));
  const lanesOk = v128.and(oka, okb);
  const out = v128.shuffle<i32>(
    f32x4.demote_f64x2_zero(ga),
    f32x4.demote_f64x2_zero(gb),
    0,
    1,
    4,
    5,
  );
  if (i64x2.all_true(lanesOk)) {
    v128.store(p, out);
    return;
  }
  // Some lane is outside the series range: keep the series lanes, redo the others one by one.
  const keep = v128.shuffle<i32>(oka, okb, 0, 2, 4, 6);
  if (i32x4.extract_lane(keep, 0) != 0) store<f32>(p, f32x4.extract_lane(out, 0));
  else geluScalar(p, 1);
  if (i32x4.extract_lane(keep, 1) != 0) store<f32>(p + 4, f32x4.extract_lane(out, 1));
  else geluScalar(p + 4, 1);
  if (i32x4.extract_lane(keep, 2) != 0) store<f32>(p + 8, f32x4.extract_lane(out, 2));
  else geluScalar(p + 8, 1);
  if (i32x4.extract_lane(keep, 3) != 0) store<f32>(p + 12, f32x4.extract_lane(out, 3));
  else geluScalar(p + 12, 1);
}

// ---------------------------------------------------------------------------------------------
// canon.2 GELU: f32x4 with a fixed sequence of IEEE f32 operations (separate mul and add, no FMA,
// no relaxed SIMD), so every engine gives the same bits. Phi(x) = 0.5 * erfc(-x / sqrt(2)) from
// two approximations fitted for this runtime (Lawson-weighted least squares against mpmath):
// |z| < 0.75: erf(z) = z * S(z^2) (degree 6); else erfc(z) = t * exp(B(t) - z^2) with
// t = 1 / (1 + z / 2) (degree 9, z clamped to 9 where erfc < 1e-36) and our own f32 exp.
// Both branches run on every lane and a mask picks one. Error of Phi <= 8.5e-8 absolute (f32
// rounding near 1 dominates); |gelu - exact| <= 1.15e-7 * max(1, |x|) (kernel.test.ts checks it).
// ---------------------------------------------------------------------------------------------
// The f32 constants of expf4 and gelu4, read from memory and broadcast (one x64 instruction) where
// a v128.const costs V8 three (built from immediates through a general register) and gelu4 needs
// about 30 per vector. The values are the same f32s as the literals they replace: no bit changes.
const KF: usize = memory.data<f32>(
  [
    1.44269504, // 0 LOG2E_F
    0.693359375, // 1 LN2_HI_F: 9 significant bits, k * LN2_HI_F is exact for |k| < 2^15
    -2.1219444e-4, // 2 LN2_LO_F
    5.0000001201e-1, // 3 expf: P (Cephes expf)
    1.6666665459e-1, // 4
    4.1665795894e-2, // 5
    8.3334519073e-3, // 6
    1.3981999507e-3, // 7
    1.98756915e-4, // 8
    1, // 9 one
    0.5, // 10 half
    0.7071067811865476, // 11 1 / sqrt(2)
    9, // 12 z clamp
    0.75, // 13 branch point
    1.128379225730896, // 14 gelu: S
    -3.7612637877464294e-1, // 15
    1.1283767223358154e-1, // 16
    -2.6864077895879745e-2, // 17
    5.21473865956068e-3, // 18
    -8.327806135639548e-4, // 19
    9.311354369856417e-5, // 20
    -1.2655402421951294, // 21 gelu: B
    1.0008000135421753, // 22
    3.6505964398384094e-1, // 23
    1.543196141719818e-1, // 24
    -4.0724414587020874e-1, // 25
    8.111847043037415e-1, // 26
    -1.9438806772232056, // 27
    2.239692211151123, // 28
    -1.2113406658172607, // 29
    2.569652795791626e-1, // 30
  ],
  16,
);
/** Integer lanes: the exponent bias 127 (at 0), the f32 sign bit (16), all bits but the sign (32). */
const KI: usize = memory.data<i32>(
  [
    127, 127, 127, 127, -0x80000000, -0x80000000, -0x80000000, -0x80000000, 0x7fffffff, 0x7fffffff,
    0x7fffffff, 0x7fffffff,
  ],
  16,
);

/** KF[i] in 4 lanes (i is a literal at every call: the address folds to a constant). */
function kf(i: i32): v128 {
  return v128.load32_splat(KF + ((<usize>i) << 2));
}

/**
 * e^a for f32 lanes a in [-87, 88] (relative error < 1e-7): a = k ln2 + r (Cody-Waite, |r| <=
 * ln2 / 2), e^a = 2^k * (1 + r + r^2 * P(r)), P of degree 5 (Cephes expf) by Estrin's scheme.
 */
function expf4(a: v128): v128 {
  const k = f32x4.nearest(f32x4.mul(a, kf(0)));
  let r = f32x4.sub(a, f32x4.mul(k, kf(1)));
  r = f32x4.sub(r, f32x4.mul(k, kf(2)));
  const r2 = f32x4.mul(r, r);
  const p01 = f32x4.add(kf(3), f32x4.mul(kf(4), r));
  const p23 = f32x4.add(kf(5), f32x4.mul(kf(6), r));
  const p45 = f32x4.add(kf(7), f32x4.mul(kf(8), r));
  const p = f32x4.add(p01, f32x4.mul(f32x4.add(p23, f32x4.mul(p45, r2)), r2));
  const y = f32x4.add(f32x4.add(f32x4.mul(p, r2), r), kf(9));
  const scale = i32x4.shl(i32x4.add(i32x4.trunc_sat_f32x4_s(k), v128.load(KI)), 23);
  return f32x4.mul(y, scale);
}

/** c0 + c1 * x with the coefficients KF[i], KF[i + 1]: the pairs of Estrin's scheme. */
function lin4(i: i32, x: v128): v128 {
  return f32x4.add(kf(i), f32x4.mul(kf(i + 1), x));
}

/** z = |x| / sqrt(2) of 4 lanes (|x| as a bit operation, which is what f32x4.abs is). */
function geluZ(x: v128): v128 {
  return f32x4.mul(v128.and(x, v128.load(KI, 32)), kf(11));
}

/**
 * min(z, 9): pmin, which agrees with min on every non-NaN lane here because z = |x| / sqrt(2) is
 * never -0.
 */
function geluZb(z: v128): v128 {
  return f32x4.pmin(z, kf(12));
}

/** Scratch of geluVectors' phases: t, the small-|z| Phi and the exp argument of 64 vectors. */
const GELU_CHUNK: i32 = 64;
const GELU_SCRATCH: usize = memory.data(GELU_CHUNK * 16 * 3, 16);

/**
 * GELU (see the section comment) of `count` vectors at p, in place; lanes are independent of
 * each other. One vector's chain of dependent operations is about 100 cycles long, longer than
 * the out-of-order window covers for more than two vectors, so the work runs in three passes
 * over chunks of 64 vectors (each with short chains and independent iterations), handing t, the
 * small-|z| Phi and the exp argument over through GELU_SCRATCH: the same f32 operations on the
 * same values as one pass, so the same bits. Polynomials use Estrin's scheme.
 */
function geluVectors(p: usize, count: i32): void {
  const ts = GELU_SCRATCH;
  const ps = ts + ((<usize>GELU_CHUNK) << 4);
  const as = ps + ((<usize>GELU_CHUNK) << 4);
  for (let done = 0; done < count; done += GELU_CHUNK) {
    const base = p + ((<usize>done) << 4);
    const bytes = (<usize>min<i32>(GELU_CHUNK, count - done)) << 4;
    const end = base + bytes;
    // Pass 1: small |z|: Phi = 0.5 +- 0.5 * z * S(z^2), S of degree 6 in u = z^2; and for large
    // |z|, t = 1 / (1 + z / 2) with z clamped to 9.
    for (let q = base, o: usize = 0; q < end; q += 16, o += 16) {
      const x = v128.load(q);
      const half = kf(10);
      const z = geluZ(x);
      const u = f32x4.mul(z, z);
      const u2 = f32x4.mul(u, u);
      const u4 = f32x4.mul(u2, u2);
      const s01 = lin4(14, u);
      const s23 = lin4(16, u);
      const s45 = lin4(18, u);
      const s46 = f32x4.add(s45, f32x4.mul(kf(20), u2));
      const s = f32x4.add(f32x4.add(s01, f32x4.mul(s23, u2)), f32x4.mul(s46, u4));
      const hs = f32x4.mul(half, f32x4.mul(z, s));
      const neg = f32x4.lt(x, f32x4.splat(0));
      v128.store(ps + o, f32x4.add(half, v128.bitselect(v128.xor(hs, v128.load(KI, 16)), hs, neg)));
      const one = kf(9);
      v128.store(ts + o, f32x4.div(one, f32x4.add(f32x4.mul(geluZb(z), half), one)));
    }
    // Pass 2: 0.5 * erfc(z) = 0.5 * t * exp(B(t) - z^2), B of degree 9 in t: the argument.
    for (let q = base, o: usize = 0; q < end; q += 16, o += 16) {
      const zb = geluZb(geluZ(v128.load(q)));
      const t = v128.load(ts + o);
      const t2 = f32x4.mul(t, t);
      const t4 = f32x4.mul(t2, t2);
      const t8 = f32x4.mul(t4, t4);
      const b01 = lin4(21, t);
      const b23 = lin4(23, t);
      const b45 = lin4(25, t);
      const b67 = lin4(27, t);
      const b89 = lin4(29, t);
      const b03 = f32x4.add(b01, f32x4.mul(b23, t2));
      const b47 = f32x4.add(b45, f32x4.mul(b67, t2));
      const b = f32x4.add(f32x4.add(b03, f32x4.mul(b47, t4)), f32x4.mul(b89, t8));
      v128.store(as + o, f32x4.sub(b, f32x4.mul(zb, zb)));
    }
    for (let o: usize = 0; o < bytes; o += 16) v128.store(as + o, expf4(v128.load(as + o)));
    // Pass 3: Phi = that (x < 0) or 1 - that for large |z|, the small-|z| Phi below 0.75; x * Phi.
    for (let q = base, o: usize = 0; q < end; q += 16, o += 16) {
      const x = v128.load(q);
      const hb = f32x4.mul(kf(10), f32x4.mul(v128.load(ts + o), v128.load(as + o)));
      const phiLarge = v128.bitselect(f32x4.sub(kf(9), hb), hb, f32x4.ge(x, f32x4.splat(0)));
      const phi = v128.bitselect(v128.load(ps + o), phiLarge, f32x4.lt(geluZ(x), kf(13)));
      v128.store(q, f32x4.mul(x, phi));
    }
  }
}

/** 16 bytes for gelu's last 1-3 elements. */
const GELU_TAIL: usize = memory.data(16, 16);

/**
 * In-place GELU (erf form), canon.2: 4 lanes at a time; the last 1-3 elements go through the same
 * lane code (zero-padded), so every element's bits are the same function of its input wherever
 * it sits.
 */
export function gelu(x: usize, len: i32): void {
  const n4 = len & ~3;
  geluVectors(x, n4 >> 2);
  if (n4 == len) return;
  const rest = (<usize>(len - n4)) << 2;
  const p = x + ((<usize>n4) << 2);
  v128.store(GELU_TAIL, f32x4.splat(0));
  memory.copy(GELU_TAIL, p, rest);
  geluVectors(GELU_TAIL, 1);
  memory.copy(p, GELU_TAIL, rest);
}

/** In-place tanh. */
export function tanhInPlace(x: usize, len: i32): void {
  for (let i = 0; i < len; i++) {
    const o = (<usize>i) << 2;
    store<f32>(x + o, <f32>dtanh(<f64>load<f32>(x + o)));
  }
}

/** In-place scale by s. */
export function scale(x: usize, len: i32, s: f32): void {
  for (let i = 0; i < len; i++) {
    const o = (<usize>i) << 2;
    store<f32>(x + o, load<f32>(x + o) * s);
  }
}

/** The 4x4 transpose of f32 lanes: out j = (a[j], b[j], c[j], d[j]). */
function transposeLane(t0: v128, t1: v128, t2: v128, t3: v128, j: i32): v128 {
  if (j == 0) return v128.shuffle<i64>(t0, t1, 0, 2);
  if (j == 1) return v128.shuffle<i64>(t0, t1, 1, 3);
  if (j == 2) return v128.shuffle<i64>(t2, t3, 0, 2);
  return v128.shuffle<i64>(t2, t3, 1, 3);
}

/**
 * LayerNorm over the last axis, TF graph order: mean, var = mean((x - mean)^2),
 * y = (gamma * rsqrt(var + eps)) * (x - mean) + beta. Sums are sequential f32 per row. Four rows
 * run side by side in the lanes of one vector (their sums are chains of dependent adds, so one
 * row at a time waits on add latency): lane r adds row r's elements in index order, the same
 * operations in the same order as one row alone, so the same bits. A last group of fewer than 4
 * rows repeats its last row in the spare lanes and writes only its own rows.
 */
export function layerNorm(
  x: usize,
  out: usize,
  rows: i32,
  n: i32,
  gamma: usize,
  beta: usize,
  eps: f32,
): void {
  const fn = f32x4.splat(<f32>n);
  const rowBytes = (<usize>n) << 2;
  const n4 = n & ~3;
  for (let r = 0; r < rows; r += 4) {
    const x0 = x + <usize>r * rowBytes;
    const x1 = r + 1 < rows ? x0 + rowBytes : x0;
    const x2 = r + 2 < rows ? x0 + 2 * rowBytes : x1;
    const x3 = r + 3 < rows ? x0 + 3 * rowBytes : x2;
    let s = f32x4.splat(0);
    for (let i = 0; i < n4; i += 4) {
      const o = (<usize>i) << 2;
      const a = v128.load(x0 + o);
      const b = v128.load(x1 + o);
      const c = v128.load(x2 + o);
      const d = v128.load(x3 + o);
      const t0 = v128.shuffle<i32>(a, b, 0, 4, 1, 5);
      const t1 = v128.shuffle<i32>(c, d, 0, 4, 1, 5);
      const t2 = v128.shuffle<i32>(a, b, 2, 6, 3, 7);
      const t3 = v128.shuffle<i32>(c, d, 2, 6, 3, 7);
      s = f32x4.add(s, transposeLane(t0, t1, t2, t3, 0));
      s = f32x4.add(s, transposeLane(t0, t1, t2, t3, 1));
      s = f32x4.add(s, transposeLane(t0, t1, t2, t3, 2));
      s = f32x4.add(s, transposeLane(t0, t1, t2, t3, 3));
    }
    for (let i = n4; i < n; i++) s = f32x4.add(s, gather4(x0, x1, x2, x3, i));
    const mean = f32x4.div(s, fn);
    let v = f32x4.splat(0);
    for (let i = 0; i < n4; i += 4) {
      const o = (<usize>i) << 2;
      const a = v128.load(x0 + o);
      const b = v128.load(x1 + o);
      const c = v128.load(x2 + o);
      const d = v128.load(x3 + o);
      const t0 = v128.shuffle<i32>(a, b, 0, 4, 1, 5);
      const t1 = v128.shuffle<i32>(c, d, 0, 4, 1, 5);
      const t2 = v128.shuffle<i32>(a, b, 2, 6, 3, 7);
      const t3 = v128.shuffle<i32>(c, d, 2, 6, 3, 7);
      const d0 = f32x4.sub(transposeLane(t0, t1, t2, t3, 0), mean);
      v = f32x4.add(v, f32x4.mul(d0, d0));
      const d1 = f32x4.sub(transposeLane(t0, t1, t2, t3, 1), mean);
      v = f32x4.add(v, f32x4.mul(d1, d1));
      const d2 = f32x4.sub(transposeLane(t0, t1, t2, t3, 2), mean);
      v = f32x4.add(v, f32x4.mul(d2, d2));
      const d3 = f32x4.sub(transposeLane(t0, t1, t2, t3, 3), mean);
      v = f32x4.add(v, f32x4.mul(d3, d3));
    }
    for (let i = n4; i < n; i++) {
      const dd = f32x4.sub(gather4(x0, x1, x2, x3, i), mean);
      v = f32x4.add(v, f32x4.mul(dd, dd));
    }
    const inv = f32x4.div(
      f32x4.splat(1),
      f32x4.sqrt(f32x4.add(f32x4.div(v, fn), f32x4.splat(eps))),
    );
    const valid = min<i32>(4, rows - r);
    layerNormRow(
      x0,
      out + <usize>r * rowBytes,
      n,
      gamma,
      beta,
      f32x4.extract_lane(mean, 0),
      f32x4.extract_lane(inv, 0),
    );
    if (valid > 1)
      layerNormRow(
        x1,
        out + <usize>(r + 1) * rowBytes,
        n,
        gamma,
        beta,
        f32x4.extract_lane(mean, 1),
        f32x4.extract_lane(inv, 1),
      );
    if (valid > 2)
      layerNormRow(
        x2,
        out + <usize>(r + 2) * rowBytes,
        n,
        gamma,
        beta,
        f32x4.extract_lane(mean, 2),
        f32x4.extract_lane(inv, 2),
      );
    if (valid > 3)
      layerNormRow(
        x3,
        out + <usize>(r + 3) * rowBytes,
        n,
        gamma,
        beta,
        f32x4.extract_lane(mean, 3),
        f32x4.extract_lane(inv, 3),
      );
  }
}

/** (x0[i], x1[i], x2[i], x3[i]). */
function gather4(x0: usize, x1: usize, x2: usize, x3: usize, i: i32): v128 {
  const o = (<usize>i) << 2;
  let g = f32x4.splat(load<f32>(x0 + o));
  g = f32x4.replace_lane(g, 1, load<f32>(x1 + o));
  g = f32x4.replace_lane(g, 2, load<f32>(x2 + o));
  return f32x4.replace_lane(g, 3, load<f32>(x3 + o));
}

/** One row's output: (gamma[i] * inv) * (x[i] - mean) + beta[i], 4 lanes at a time. */
function layerNormRow(
  xr: usize,
  orow: usize,
  n: i32,
  gamma: usize,
  beta: usize,
  mean: f32,
  inv: f32,
): void {
  const mv = f32x4.splat(mean);
  const iv = f32x4.splat(inv);
  const n4 = n & ~3;
  for (let i = 0; i < n4; i += 4) {
    const o = (<usize>i) << 2;
    const g = f32x4.mul(v128.load(gamma + o), iv);
    v128.store(
      orow + o,
      f32x4.add(f32x4.mul(g, f32x4.sub(v128.load(xr + o), mv)), v128.load(beta + o)),
    );
  }
  for (let i = n4; i < n; i++) {
    const o = (<usize>i) << 2;
    const g = load<f32>(gamma + o) * inv;
    store<f32>(orow + o, g * (load<f32>(xr + o) - mean) + load<f32>(beta + o));
  }
}

/** Row-wise softmax in place: max-shifted, own exp, sequential sum, divide. */
export function softmax(x: usize, rows: i32, n: i32): void {
  for (let r = 0; r < rows; r++) {
    const xr = x + ((<usize>r * <usize>n) << 2);
    softmaxRow(xr, n);
  }
}

/** The definition of a softmax row's bits, one element at a time (tests compare softmaxRow). */
export function softmaxRowScalar(xr: usize, n: i32): void {
  let mx: f32 = -Infinity;
  for (let i = 0; i < n; i++) {
    const v = load<f32>(xr + ((<usize>i) << 2));
    if (v > mx) mx = v;
  }
  let s: f32 = 0;
  for (let i = 0; i < n; i++) {
    const o = (<usize>i) << 2;
    const e = <f32>dexp(<f64>(load<f32>(xr + o) - mx));
    store<f32>(xr + o, e);
    s = s + e;
  }
  for (let i = 0; i < n; i++) {
    const o = (<usize>i) << 2;
    store<f32>(xr + o, load<f32>(xr + o) / s);
  }
}

/**
 * dexp on two f64 lanes with dexp's exact operations, for lanes in [-690, 700] (where dexp's
 * scaling is the plain 2^k bit pattern); callers redo other lanes with dexp.
 */
function dexp2(x: v128): v128 {
  const k = f64x2.nearest(f64x2.mul(x, f64x2.splat(INV_LN2)));
  const r = f64x2.sub(
    f64x2.sub(x, f64x2.mul(k, f64x2.splat(LN2_HI))),
    f64x2.mul(k, f64x2.splat(LN2_LO)),
  );
  let p = f64x2.splat(1.0 / 6227020800.0);
  p = f64x2.add(f64x2.mul(p, r), f64x2.splat(1.0 / 479001600.0));
  p = f64x2.add(f64x2.mul(p, r), f64x2.splat(1.0 / 39916800.0));
  p = f64x2.add(f64x2.mul(p, r), f64x2.splat(1.0 / 3628800.0));
  p = f64x2.add(f64x2.mul(p, r), f64x2.splat(1.0 / 362880.0));
  p = f64x2.add(f64x2.mul(p, r), f64x2.splat(1.0 / 40320.0));
  p = f64x2.add(f64x2.mul(p, r), f64x2.splat(1.0 / 5040.0));
  p = f64x2.add(f64x2.mul(p, r), f64x2.splat(1.0 / 720.0));
  p = f64x2.add(f64x2.mul(p, r), f64x2.splat(1.0 / 120.0));
  p = f64x2.add(f64x2.mul(p, r), f64x2.splat(1.0 / 24.0));
  p = f64x2.add(f64x2.mul(p, r), f64x2.splat(1.0 / 6.0));
  p = f64x2.add(f64x2.mul(p, r), f64x2.splat(0.5));
  p = f64x2.add(f64x2.mul(p, r), f64x2.splat(1.0));
  p = f64x2.add(f64x2.mul(p, r), f64x2.splat(1.0));
  const ki = i64x2.extend_low_i32x4_s(i32x4.trunc_sat_f64x2_s_zero(k));
  const scale = i64x2.shl(i64x2.add(ki, i64x2.splat(1023)), 52);
  return f64x2.mul(p, scale);
}

/**
 * softmaxRowScalar's bits, exponentials 4 at a time: dexp2 per lane pair (lanes outside its
 * range, e.g. masked keys at -1e9, use dexp), the row sum still sequential f32 in index order,
 * the division f32x4 (IEEE division per lane).
 */
function softmaxRow(xr: usize, n: i32): void {
  let mx: f32 = -Infinity;
  for (let i = 0; i < n; i++) {
    const v = load<f32>(xr + ((<usize>i) << 2));
    if (v > mx) mx = v;
  }
  const mv = f32x4.splat(mx);
  const lo = f64x2.splat(-690.0);
  const hi = f64x2.splat(700.0);
  let s: f32 = 0;
  let i = 0;
  for (; i + 4 <= n; i += 4) {
    const o = xr + ((<usize>i) << 2);
    const d = f32x4.sub(v128.load(o), mv);
    const d0 = f64x2.promote_low_f32x4(d);
    const d1 = f64x2.promote_low_f32x4(v128.shuffle<i32>(d, d, 2, 3, 0, 1));
    const ok = v128.and(
      v128.and(f64x2.ge(d0, lo), f64x2.le(d0, hi)),
      v128.and(f64x2.ge(d1, lo), f64x2.le(d1, hi)),
    );
    let e: v128;
    if (i64x2.all_true(ok)) {
      e = v128.shuffle<i32>(
        f32x4.demote_f64x2_zero(dexp2(d0)),
        f32x4.demote_f64x2_zero(dexp2(d1)),
        0,
        1,
        4,
        5,
      );
    } else {
      e = f32x4.splat(0);
      e = f32x4.replace_lane(e, 0, <f32>dexp(<f64>f32x4.extract_lane(d, 0)));
      e = f32x4.replace_lane(e, 1, <f32>dexp(<f64>f32x4.extract_lane(d, 1)));
      e = f32x4.replace_lane(e, 2, <f32>dexp(<f64>f32x4.extract_lane(d, 2)));
      e = f32x4.replace_lane(e, 3, <f32>dexp(<f64>f32x4.extract_lane(d, 3)));
    }
    v128.store(o, e);
    s = s + f32x4.extract_lane(e, 0);
    s = s + f32x4.extract_lane(e, 1);
    s = s + f32x4.extract_lane(e, 2);
    s = s + f32x4.extract_lane(e, 3);
  }
  for (; i < n; i++) {
    const o = (<usize>i) << 2;
    const e = <f32>dexp(<f64>(load<f32>(xr + o) - mx));
    store<f32>(xr + o, e);
    s = s + e;
  }
  const sv = f32x4.splat(s);
  i = 0;
  for (; i + 4 <= n; i += 4) {
    const o = xr + ((<usize>i) << 2);
    v128.store(o, f32x4.div(v128.load(o), sv));
  }
  for (; i < n; i++) {
    const o = (<usize>i) << 2;
    store<f32>(xr + o, load<f32>(xr + o) / s);
  }
}

/** Row-wise softmax, one element at a time (the reference for `softmax`). */
export function softmaxScalar(x: usize, rows: i32, n: i32): void {
  for (let r = 0; r < rows; r++) softmaxRowScalar(x + ((<usize>r * <usize>n) << 2), n);
}

/**
 * Multi-head scaled dot-product attention with a key padding mask.
 * q, k, v: [L, stride] row-major, head h uses columns [h*d, (h+1)*d) of each.
 * Keys j >= validLen get bias -1e9 (as the TF graph's attention_bias_ignore_padding).
 * out: [L, heads*d]. scratch: (3*L*d + L*L) floats.
 * Order per head: Qs = q * scale; S = Qs @ K^T (t = 0..d-1 in order); softmax rows; O = P @ V
 * (j = 0..L-1 in order). Done with the matmul kernel on contiguous per-head copies.
 */
export function attention(
  q: usize,
  k: usize,
  v: usize,
  stride: i32,
  out: usize,
  seqLen: i32,
  heads: i32,
  d: i32,
  validLen: i32,
  scaleQ: f32,
  scratch: usize,
): i32 {
  if (seqLen < 0 || heads <= 0 || d <= 0 || validLen < 0 || validLen > seqLen)
    return STATUS_BAD_ARG;
  const n = seqLen;
  const width = heads * d;
  const rowS = (<usize>stride) << 2;
  const qh = scratch;
  const kt = qh + ((<usize>n * <usize>d) << 2);
  const vh = kt + ((<usize>n * <usize>d) << 2);
  const sc = vh + ((<usize>n * <usize>d) << 2);
  for (let h = 0; h < heads; h++) {
    const hoff = (<usize>(h * d)) << 2;
    for (let i = 0; i < n; i++) {
      const qi = q + <usize>i * rowS + hoff;
      const ki = k + <usize>i * rowS + hoff;
      const vi = v + <usize>i * rowS + hoff;
      for (let t = 0; t < d; t++) {
        const o = (<usize>t) << 2;
        store<f32>(qh + ((<usize>i * <usize>d + <usize>t) << 2), load<f32>(qi + o) * scaleQ);
        store<f32>(kt + ((<usize>t * <usize>n + <usize>i) << 2), load<f32>(ki + o));
      }
      memory.copy(vh + ((<usize>i * <usize>d) << 2), vi, (<usize>d) << 2);
    }
    matmul(qh, kt, 0, sc, n, d, n);
    if (validLen < n) {
      for (let i = 0; i < n; i++) {
        for (let j = validLen; j < n; j++) {
          const p = sc + ((<usize>i * <usize>n + <usize>j) << 2);
          store<f32>(p, load<f32>(p) + <f32>-1e9);
        }
      }
    }
    for (let i = 0; i < n; i++) softmaxRow(sc + ((<usize>i * <usize>n) << 2), n);
    // O = P @ V into the q scratch (no longer needed), then scatter into out's head columns.
    matmul(sc, vh, 0, qh, n, n, d);
    for (let i = 0; i < n; i++) {
      memory.copy(
        out + ((<usize>i * <usize>width) << 2) + hoff,
        qh + ((<usize>i * <usize>d) << 2),
        (<usize>d) << 2,
      );
    }
  }
  return STATUS_OK;
}

/**
 * BERT canon.2 softmax of one attention row of `nPad` (multiple of 4) scores in place: columns
 * >= valid become 0; the others exp(x - max) with the f32 `expf4` (differences below -87 give 0),
 * summed in 4 lane accumulators combined as (l0 + l1) + (l2 + l3), then scaled by 1 / sum.
 */
function softmaxRowF32(xr: usize, nPad: i32, valid: i32): void {
  let mx: f32 = -Infinity;
  for (let j = 0; j < valid; j++) mx = max<f32>(mx, load<f32>(xr + ((<usize>j) << 2)));
  const mv = f32x4.splat(mx);
  const lo = f32x4.splat(<f32>-87);
  const lanes = i32x4(0, 1, 2, 3);
  const vv = i32x4.splat(valid);
  let acc = f32x4.splat(0);
  for (let j = 0; j < nPad; j += 4) {
    const p = xr + ((<usize>j) << 2);
    const d = f32x4.sub(v128.load(p), mv);
    const keep = v128.and(f32x4.ge(d, lo), i32x4.lt_s(i32x4.add(lanes, i32x4.splat(j)), vv));
    const e = v128.and(expf4(f32x4.max(d, lo)), keep);
    v128.store(p, e);
    acc = f32x4.add(acc, e);
  }
  const sum =
    f32x4.extract_lane(acc, 0) +
    f32x4.extract_lane(acc, 1) +
    (f32x4.extract_lane(acc, 2) + f32x4.extract_lane(acc, 3));
  const inv = f32x4.splat(<f32>1 / sum);
  for (let j = 0; j < nPad; j += 4) {
    const p = xr + ((<usize>j) << 2);
    v128.store(p, f32x4.mul(v128.load(p), inv));
  }
}

/**
 * BERT canon.2 multi-head attention, the same contract as `attention` (keys >= validLen are
 * masked) with faster kernels: per head, K^T and V are written straight into matmulPacked's panel
 * layout with the key axis padded to nPad = n rounded up to 8 (zeros), S = (q * scale) @ K^T and
 * O = P @ V run on the packed 4x8 tiles (sums in index order, padded terms add exact zeros), and
 * the softmax is softmaxRowF32. validLen must be >= 1.
 * scratch: (2 * n * d + 2 * nPad * d + n * nPad) floats.
 */
export function attentionPacked(
  q: usize,
  k: usize,
  v: usize,
  stride: i32,
  out: usize,
  seqLen: i32,
  heads: i32,
  d: i32,
  validLen: i32,
  scaleQ: f32,
  scratch: usize,
): i32 {
  if (seqLen < 1 || heads <= 0 || d <= 0 || (d & 7) != 0 || validLen < 1 || validLen > seqLen)
    return STATUS_BAD_ARG;
  const n = seqLen;
  const nPad = (n + 7) & ~7;
  const width = heads * d;
  const rowS = (<usize>stride) << 2;
  const qh = scratch;
  const kp = qh + ((<usize>n * <usize>d) << 2);
  const vp = kp + ((<usize>nPad * <usize>d) << 2);
  const sc = vp + ((<usize>nPad * <usize>d) << 2);
  const oh = sc + ((<usize>n * <usize>nPad) << 2);
  const sv = f32x4.splat(scaleQ);
  // Padded key rows/columns stay zero for every head.
  memory.fill(kp, 0, (<usize>nPad * <usize>d) << 3);
  for (let h = 0; h < heads; h++) {
    const hoff = (<usize>(h * d)) << 2;
    for (let i = 0; i < n; i++) {
      const qi = q + <usize>i * rowS + hoff;
      const ki = k + <usize>i * rowS + hoff;
      const vi = v + <usize>i * rowS + hoff;
      const qo = qh + ((<usize>i * <usize>d) << 2);
      for (let t = 0; t < d; t += 4) {
        const o = (<usize>t) << 2;
        v128.store(qo + o, f32x4.mul(v128.load(qi + o), sv));
      }
      // K^T [d, nPad] packed: panel i >> 3 holds key columns 8p..8p+7, row t at (t * 8) floats.
      const kcol = kp + ((<usize>(i >> 3) * <usize>d) << 5) + ((<usize>(i & 7)) << 2);
      for (let t = 0; t < d; t++)
        store<f32>(kcol + ((<usize>t) << 5), load<f32>(ki + ((<usize>t) << 2)));
      // V [nPad, d] packed: panel t >> 3 holds value columns 8p..8p+7, row i at (i * 8) floats.
      for (let t = 0; t < d; t += 8) {
        const dst = vp + ((<usize>(t >> 3) * <usize>nPad) << 5) + ((<usize>i) << 5);
        v128.store(dst, v128.load(vi + ((<usize>t) << 2)));
        v128.store(dst, v128.load(vi + ((<usize>t) << 2), 16), 16);
      }
    }
    matmulPackedAct(qh, kp, 0, sc, n, d, nPad, false);
    for (let i = 0; i < n; i++) softmaxRowF32(sc + ((<usize>i * <usize>nPad) << 2), nPad, validLen);
    matmulPackedAct(sc, vp, 0, oh, n, nPad, d, false);
    for (let i = 0; i < n; i++) {
      memory.copy(
        out + ((<usize>i * <usize>width) << 2) + hoff,
        oh + ((<usize>i * <usize>d) << 2),
        (<usize>d) << 2,
      );
    }
  }
  return STATUS_OK;
}

/**
 * Sinusoidal timing signal (tensor2tensor layout): out[p, c] = sin(p * inv[c]) for c < nts and
 * cos(p * inv[c - nts]) for nts <= c < 2*nts. The product p * inv is rounded to f32 first.
 */
export function timingSignal(out: usize, seqLen: i32, inv: usize, nts: i32): void {
  const width = nts * 2;
  for (let p = 0; p < seqLen; p++) {
    const row = out + ((<usize>p * <usize>width) << 2);
    for (let c = 0; c < nts; c++) {
      const arg = <f32>p * load<f32>(inv + ((<usize>c) << 2));
      store<f32>(row + ((<usize>c) << 2), <f32>dsin(<f64>arg));
      store<f32>(row + ((<usize>(c + nts)) << 2), <f32>dcos(<f64>arg));
    }
  }
}

/** Copies rows ids[i] of table[rows, dim] into out[count, dim]; BAD_ARG on an id out of range. */
export function gatherRows(
  table: usize,
  tableRows: i32,
  dim: i32,
  ids: usize,
  count: i32,
  out: usize,
): i32 {
  const bytes = (<usize>dim) << 2;
  for (let i = 0; i < count; i++) {
    const id = load<i32>(ids + ((<usize>i) << 2));
    if (id < 0 || id >= tableRows) return STATUS_BAD_ARG;
    memory.copy(out + <usize>i * bytes, table + <usize>id * bytes, bytes);
  }
  return STATUS_OK;
}

/** out[n] = (sum of rows 0..validLen-1 of x[*, n], sequential) / max(validLen, 1). */
export function meanPool(x: usize, n: i32, validLen: i32, out: usize): void {
  for (let c = 0; c < n; c++) store<f32>(out + ((<usize>c) << 2), 0);
  for (let r = 0; r < validLen; r++) add(out, x + ((<usize>r * <usize>n) << 2), out, n);
  const div: f32 = validLen > 1 ? <f32>validLen : <f32>1;
  for (let c = 0; c < n; c++) {
    const o = (<usize>c) << 2;
    store<f32>(out + o, load<f32>(out + o) / div);
  }
}

/** In-place L2 normalisation: x * (1 / sqrt(max(sum x^2, eps))), sequential f32 sum. */
export function l2Normalize(x: usize, n: i32, eps: f32): void {
  let s: f32 = 0;
  for (let i = 0; i < n; i++) {
    const v = load<f32>(x + ((<usize>i) << 2));
    s = s + v * v;
  }
  if (s < eps) s = eps;
  const inv: f32 = <f32>1.0 / sqrt<f32>(s);
  for (let i = 0; i < n; i++) {
    const o = (<usize>i) << 2;
    store<f32>(x + o, load<f32>(x + o) * inv);
  }
}

// ---------------------------------------------------------------------------------------------
// int16 vectors. q = clamp(roundHalfToEven(x * 32767), -32767, 32767); x * 32767 is exact in
// f64 for any f32 x, and f64.nearest rounds half to even. Never -32768, so dot_i16x8 cannot wrap.
// ---------------------------------------------------------------------------------------------
export function quantize(x: usize, out: usize, n: i32): void {
  for (let i = 0; i < n; i++) {
    let v = nearest(<f64>load<f32>(x + ((<usize>i) << 2)) * 32767.0);
    if (v != v) v = 0;
    if (v > 32767.0) v = 32767.0;
    if (v < -32767.0) v = -32767.0;
    store<i16>(out + ((<usize>i) << 1), <i16>(<i32>v));
  }
}

/** int32 dot product of two int16 vectors (i32x4.dot_i16x8_s; integer sums are order-free). */
export function dotI16(a: usize, b: usize, n: i32): i32 {
  let acc = i32x4.splat(0);
  let i = 0;
  for (; i + 8 <= n; i += 8) {
    const o = (<usize>i) << 1;
    acc = i32x4.add(acc, i32x4.dot_i16x8_s(v128.load(a + o), v128.load(b + o)));
  }
  let s =
    i32x4.extract_lane(acc, 0) +
    i32x4.extract_lane(acc, 1) +
    i32x4.extract_lane(acc, 2) +
    i32x4.extract_lane(acc, 3);
  for (; i < n; i++) {
    const o = (<usize>i) << 1;
    s += <i32>load<i16>(a + o) * <i32>load<i16>(b + o);
  }
  return s;
}

/** scores[r] = dotI16(query, matrix row r) for r < count; matrix is [count, n] int16. */
export function dotI16Many(query: usize, matrix: usize, count: i32, n: i32, scores: usize): void {
  const rowBytes = (<usize>n) << 1;
  for (let r = 0; r < count; r++) {
    store<i32>(scores + ((<usize>r) << 2), dotI16(query, matrix + <usize>r * rowBytes, n));
  }
}
