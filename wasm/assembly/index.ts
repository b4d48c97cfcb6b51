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
 * 12-accumulator tiles spill on V8 and ran 1.5x slower), A values broadcast by load32_splat,
 * then single rows. Per-element order is k = 0..K-1 exactly as in matmul, so both kernels give
 * identical bits.
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
  if ((n & 7) != 0 || m < 0 || k < 0) return STATUS_BAD_ARG;
  const rowA = (<usize>k) << 2;
  const rowC = (<usize>n) << 2;
  const panelBytes = (<usize>k) << 5;
  const m4 = m & ~3;
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
      let ap = a + <usize>i * rowA;
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
        x = v128.load32_splat(ap + 3 * rowA);
        c30 = f32x4.add(c30, f32x4.mul(x, b0));
        c31 = f32x4.add(c31, f32x4.mul(x, b1));
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
    }
  }
  return STATUS_OK;
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
 * In-place GELU, erf form, one element at a time: 0.5 * x * (1 + erf(x / sqrt(2))). The
 * definition of the bytes; `gelu` computes the same bits faster (tests compare the two).
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
 * In-place GELU with exactly geluScalar's bits, 4 elements at a time: derf's Maclaurin series
 * (the |x| <= 2.5 branch) runs in two f64x2 vectors with the very same IEEE operations per lane
 * (mul, div, add are correctly rounded, so lanes equal the scalar code), and stops once adding
 * more terms provably cannot change the sum: from n >= 7 > x^2 the computed terms t_n shrink
 * monotonically, and |t_n| < |sum| * 2^-55 (less than half the spacing of f64 around sum) means
 * sum + t_m rounds back to sum for every later m. Lanes outside the series range (|x| > 2.5, NaN)
 * are recomputed by geluScalar.
 */
export function gelu(x: usize, len: i32): void {
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

/**
 * LayerNorm over the last axis, TF graph order: mean, var = mean((x - mean)^2),
 * y = (gamma * rsqrt(var + eps)) * (x - mean) + beta. Sums are sequential f32.
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
  const fn = <f32>n;
  for (let r = 0; r < rows; r++) {
    const xr = x + ((<usize>r * <usize>n) << 2);
    const orow = out + ((<usize>r * <usize>n) << 2);
    let s: f32 = 0;
    for (let i = 0; i < n; i++) s = s + load<f32>(xr + ((<usize>i) << 2));
    const mean = s / fn;
    let v: f32 = 0;
    for (let i = 0; i < n; i++) {
      const d = load<f32>(xr + ((<usize>i) << 2)) - mean;
      v = v + d * d;
    }
    const inv: f32 = <f32>1.0 / sqrt<f32>(v / fn + eps);
    for (let i = 0; i < n; i++) {
      const o = (<usize>i) << 2;
      const g = load<f32>(gamma + o) * inv;
      store<f32>(orow + o, g * (load<f32>(xr + o) - mean) + load<f32>(beta + o));
    }
  }
}

/** Row-wise softmax in place: max-shifted, own exp, sequential sum, divide. */
export function softmax(x: usize, rows: i32, n: i32): void {
  for (let r = 0; r < rows; r++) {
    const xr = x + ((<usize>r * <usize>n) << 2);
    softmaxRow(xr, n);
  }
}

function softmaxRow(xr: usize, n: i32): void {
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
