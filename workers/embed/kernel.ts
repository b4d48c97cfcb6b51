// The sole gateway to the canonical WebAssembly runtime (wasm/assembly/index.ts): instantiates it
// from injected bytes or a URL (Node and browser alike), exposes typed wrappers, and turns its
// status codes into AppErrors in one place (`check`). No other TypeScript touches the exports.
// Must not import anything Node-only (tests inject the bytes).
import { createError } from '../shared/errors';

/** Raw f32 GEMM export: C[m,n] = A[m,k] @ B[k,n] (+ bias), a status code back. */
type MatmulExport = (
  a: number,
  b: number,
  bias: number,
  c: number,
  m: number,
  k: number,
  n: number,
) => number;

/** Raw attention export (`attention`, `attentionPacked`): same arguments, a status code back. */
type AttentionExport = (
  q: number,
  k: number,
  v: number,
  stride: number,
  out: number,
  seqLen: number,
  heads: number,
  d: number,
  validLen: number,
  scaleQ: number,
  scratch: number,
) => number;

/** Raw exports of sift-kernels.wasm; the ABI is wasm/assembly/index.ts. */
interface KernelExports {
  memory: WebAssembly.Memory;
  STATUS_OK: WebAssembly.Global;
  STATUS_OOM: WebAssembly.Global;
  STATUS_BAD_ARG: WebAssembly.Global;
  alloc(bytes: number): number;
  mark(): number;
  release(mark: number): void;
  dexp(x: number): number;
  dsin(x: number): number;
  dcos(x: number): number;
  dtanh(x: number): number;
  derf(x: number): number;
  matmul: MatmulExport;
  packB(b: number, k: number, n: number, out: number): number;
  packWeightsI8(b: number, k: number, n: number, out: number, scale: number): number;
  quantizeRows(a: number, m: number, k: number, out: number, scale: number): void;
  packWeightsI16(b: number, k: number, n: number, out: number, scale: number): number;
  quantizeRowsI16(a: number, m: number, k: number, out: number, scale: number): number;
  matmulI16(
    a: number,
    qw: number,
    sw: number,
    bias: number,
    c: number,
    m: number,
    k: number,
    n: number,
    act: number,
  ): number;
  matmulI8(
    qa: number,
    sa: number,
    qw: number,
    sw: number,
    bias: number,
    c: number,
    m: number,
    k: number,
    n: number,
  ): number;
  matmulPacked: MatmulExport;
  matmulPackedGelu: MatmulExport;
  add(x: number, y: number, out: number, len: number): void;
  relu(x: number, len: number): void;
  gelu(x: number, len: number): void;
  geluErf64(x: number, len: number): void;
  geluScalar(x: number, len: number): void;
  tanhInPlace(x: number, len: number): void;
  scale(x: number, len: number, s: number): void;
  layerNorm(
    x: number,
    out: number,
    rows: number,
    n: number,
    gamma: number,
    beta: number,
    eps: number,
  ): void;
  softmax(x: number, rows: number, n: number): void;
  attention: AttentionExport;
  attentionPacked: AttentionExport;
  timingSignal(out: number, seqLen: number, inv: number, nts: number): void;
  gatherRows(
    table: number,
    tableRows: number,
    dim: number,
    ids: number,
    count: number,
    out: number,
  ): number;
  meanPool(x: number, n: number, validLen: number, out: number): void;
  l2Normalize(x: number, n: number, eps: number): void;
  quantize(x: number, out: number, n: number): void;
  dotI16(a: number, b: number, n: number): number;
  dotI16Many(query: number, matrix: number, count: number, n: number, scores: number): void;
}

/** Where the module comes from: bytes (Node, tests) or a URL (browser; fetch injected). */
export type KernelSource =
  { bytes: BufferSource } | { url: string; fetch?: (url: string) => Promise<Response> };

/** A pointer into the runtime's linear memory (byte offset). */
export type Ptr = number;

/** Multi-head attention over q, k, v rows of `stride` floats; keys >= validLen are masked. */
export interface AttentionArgs {
  q: Ptr;
  k: Ptr;
  v: Ptr;
  stride: number;
  out: Ptr;
  seqLen: number;
  heads: number;
  headDim: number;
  validLen: number;
  scale: number;
}

/**
 * Self-attention of each sequence of a batch over its own rows of a fused q|k|v matrix (rows of
 * 3 * width floats, sequences one after another), into `out` (rows of width floats): no padding,
 * no attention across sequences. `attend` is the model's kernel (`attention` or `attentionPacked`).
 */
export function attendEachSequence(
  attend: (args: AttentionArgs) => void,
  qkv: Ptr,
  out: Ptr,
  lens: readonly number[],
  head: { width: number; heads: number; headDim: number; scale: number },
): void {
  const w = head.width;
  let row = 0;
  for (const len of lens) {
    const q = qkv + row * 3 * w * 4;
    attend({
      q,
      k: q + w * 4,
      v: q + 2 * w * 4,
      stride: 3 * w,
      out: out + row * w * 4,
      seqLen: len,
      heads: head.heads,
      headDim: head.headDim,
      validLen: len,
      scale: head.scale,
    });
    row += len;
  }
}

/** An integer-quantised weight matrix in the runtime: values and one scale per column. */
export interface QuantWeights {
  q: Ptr;
  scale: Ptr;
}

/** An f32 GEMM wrapper: C[m,n] = A[m,k] @ B[k,n] (+ bias[n] unless bias is 0). */
type Matmul = (a: Ptr, b: Ptr, bias: Ptr, c: Ptr, m: number, k: number, n: number) => void;

/** Typed, checked wrappers over the runtime. All pointers are byte offsets in `memory`. */
export interface Kernel {
  /** Allocates `bytes` in the arena. @throws AppError WASM_ERROR when memory cannot grow. */
  alloc(bytes: number): Ptr;
  /** Arena position to return to with `release` (frees everything allocated after it). */
  mark(): number;
  release(mark: number): void;
  /** Fresh views (the memory buffer changes when it grows; never keep a view across calls). */
  f32(ptr: Ptr, length: number): Float32Array;
  i16(ptr: Ptr, length: number): Int16Array;
  i32(ptr: Ptr, length: number): Int32Array;
  /** Copies `data` into a new allocation and returns its pointer. */
  putF32(data: Float32Array): Ptr;
  putI32(data: Int32Array): Ptr;
  putI16(data: Int16Array): Ptr;
  /** C[m,n] = A[m,k] @ B[k,n] (+ bias[n] unless bias is 0). @throws AppError WASM_ERROR */
  matmul: Matmul;
  /** Packs B[k,n] (n % 8 == 0) into panels for matmulPacked. @throws AppError WASM_ERROR */
  packB(b: Ptr, k: number, n: number, out: Ptr): void;
  /**
   * Integer-weight GEMM (experiment): `packWeightsI8` once per weight (int8 + per-column scale),
   * then `matmulI8`, which quantises A's rows to int16 and accumulates exactly in int32.
   * @throws AppError WASM_ERROR on shapes it does not support (k odd, n % 4 != 0)
   */
  packWeightsI8(b: Ptr, k: number, n: number): QuantWeights;
  matmulI8(a: Ptr, w: QuantWeights, bias: Ptr, c: Ptr, m: number, k: number, n: number): void;
  /**
   * int16 GEMM, BERT canon.3's dense layers: `packWeightsI16` once per weight B[k,n] (|q| <= 2047
   * + per-column scale; the f32 copy it reads is freed before it returns), then `matmulI16`, which
   * quantises A's rows to int16 (|q| <= 32767, scale per row), sums exactly in int32 over 32-k
   * blocks and converts each block sum to f32 in k order; `gelu` fuses the canon.2 GELU.
   * @throws AppError WASM_ERROR when k % 32 != 0 or n % 8 != 0
   */
  packWeightsI16(b: Float32Array, k: number, n: number): QuantWeights;
  matmulI16(
    a: Ptr,
    w: QuantWeights,
    bias: Ptr,
    c: Ptr,
    m: number,
    k: number,
    n: number,
    gelu?: boolean,
  ): void;
  /** Same bits as matmul, faster, with B packed by packB. @throws AppError WASM_ERROR */
  matmulPacked: Matmul;
  /** matmulPacked then gelu on the output, fused (same bits). @throws AppError WASM_ERROR */
  matmulPackedGelu: Matmul;
  add(x: Ptr, y: Ptr, out: Ptr, len: number): void;
  relu(x: Ptr, len: number): void;
  /** In-place GELU (erf form) in f32 lanes, BERT canon.2 (|error| <= 1.15e-7 * max(1, |x|)). */
  gelu(x: Ptr, len: number): void;
  /** canon.1's GELU (erf series in f64), bit-identical to geluScalar and faster. */
  geluErf64(x: Ptr, len: number): void;
  /** canon.1's element-at-a-time f64 GELU: its definition, and the accuracy reference of gelu. */
  geluScalar(x: Ptr, len: number): void;
  tanh(x: Ptr, len: number): void;
  scale(x: Ptr, len: number, s: number): void;
  layerNorm(x: Ptr, out: Ptr, rows: number, n: number, gamma: Ptr, beta: Ptr, eps: number): void;
  softmax(x: Ptr, rows: number, n: number): void;
  /** Multi-head attention with key padding mask. @throws AppError WASM_ERROR on bad shapes. */
  attention(args: AttentionArgs): void;
  /**
   * The same attention for BERT canon.2: packed 4x8 tiles and an f32 softmax (not the bits of
   * `attention`, which USE-lite keeps). headDim % 8 == 0, validLen >= 1.
   * @throws AppError WASM_ERROR on bad shapes.
   */
  attentionPacked(args: AttentionArgs): void;
  timingSignal(out: Ptr, seqLen: number, invTimescales: Ptr, nts: number): void;
  /** @throws AppError WASM_ERROR when an id is outside the table. */
  gatherRows(table: Ptr, tableRows: number, dim: number, ids: Ptr, count: number, out: Ptr): void;
  meanPool(x: Ptr, n: number, validLen: number, out: Ptr): void;
  l2Normalize(x: Ptr, n: number, eps: number): void;
  quantize(x: Ptr, out: Ptr, n: number): void;
  dotI16(a: Ptr, b: Ptr, n: number): number;
  dotI16Many(query: Ptr, matrix: Ptr, count: number, n: number, scores: Ptr): void;
  /** The runtime's own elementary functions (f64 in/out), exposed for tests. */
  math: {
    exp(x: number): number;
    sin(x: number): number;
    cos(x: number): number;
    tanh(x: number): number;
    erf(x: number): number;
  };
  /** Bytes of linear memory in use (for peak-memory reports). */
  memoryBytes(): number;
}

/**
 * Instantiates the runtime. The module has no imports, so nothing from the host can influence it.
 * @throws AppError WASM_ERROR when the bytes cannot be fetched or compiled (e.g. no SIMD support).
 */
export async function createKernel(source: KernelSource): Promise<Kernel> {
  let bytes: BufferSource;
  try {
    if ('bytes' in source) {
      bytes = source.bytes;
    } else {
      const doFetch = source.fetch ?? ((u: string) => fetch(u));
      const res = await doFetch(source.url);
      if (!res.ok) throw new Error(`HTTP ${res.status} for ${source.url}`);
      bytes = await res.arrayBuffer();
    }
  } catch (cause) {
    throw createError('WASM_ERROR', {
      reason: 'The embedding runtime could not be downloaded.',
      cause,
    });
  }
  let instance: WebAssembly.Instance;
  try {
    const module = await WebAssembly.compile(bytes);
    instance = await WebAssembly.instantiate(module, {});
  } catch (cause) {
    throw createError('WASM_ERROR', {
      reason: 'The embedding runtime failed to start (this browser may lack WebAssembly SIMD).',
      cause,
    });
  }
  return wrap(instance.exports as unknown as KernelExports);
}

function wrap(ex: KernelExports): Kernel {
  const OK = ex.STATUS_OK.value as number;
  const OOM = ex.STATUS_OOM.value as number;

  /** The one place where runtime status codes become errors. */
  function check(status: number, op: string): void {
    if (status === OK) return;
    if (status === OOM) {
      throw createError('WASM_ERROR', {
        reason: `The embedding runtime ran out of memory in ${op}.`,
        status,
        op,
      });
    }
    throw createError('WASM_ERROR', {
      reason: `The embedding runtime rejected its arguments in ${op}.`,
      status,
      op,
    });
  }

  function alloc(bytes: number): Ptr {
    const p = ex.alloc(bytes);
    if (p === 0) check(OOM, 'alloc');
    return p;
  }

  /** Copies a typed array's bytes into a new allocation (putF32, putI32, putI16). */
  function put(data: Float32Array | Int32Array | Int16Array): Ptr {
    const p = alloc(data.byteLength);
    new Uint8Array(ex.memory.buffer, p, data.byteLength).set(
      new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
    );
    return p;
  }

  /** Runs one attention export with `scratchFloats` of scratch, released afterwards. */
  function runAttention(
    fn: AttentionExport,
    op: string,
    a: AttentionArgs,
    scratchFloats: number,
  ): void {
    const m = ex.mark();
    const scratch = alloc(Math.max(scratchFloats, 1) * 4);
    const status = fn(
      a.q,
      a.k,
      a.v,
      a.stride,
      a.out,
      a.seqLen,
      a.heads,
      a.headDim,
      a.validLen,
      a.scale,
      scratch,
    );
    ex.release(m);
    check(status, op);
  }

  return {
    alloc,
    mark: () => ex.mark(),
    release: (m) => ex.release(m),
    f32: (p, n) => new Float32Array(ex.memory.buffer, p, n),
    i16: (p, n) => new Int16Array(ex.memory.buffer, p, n),
    i32: (p, n) => new Int32Array(ex.memory.buffer, p, n),
    putF32: put,
    putI32: put,
    putI16: put,
    matmul: (a, b, bias, c, m, k, n) => check(ex.matmul(a, b, bias, c, m, k, n), 'matmul'),
    packB: (b, k, n, out) => check(ex.packB(b, k, n, out), 'packB'),
    packWeightsI8(b, k, n) {
      const q = alloc(k * n * 2);
      const scale = alloc(n * 4);
      check(ex.packWeightsI8(b, k, n, q, scale), 'packWeightsI8');
      return { q, scale };
    },
    matmulI8(a, w, bias, c, m, k, n) {
      const mk = ex.mark();
      const qa = alloc(m * k * 2);
      const sa = alloc(m * 4);
      ex.quantizeRows(a, m, k, qa, sa);
      const status = ex.matmulI8(qa, sa, w.q, w.scale, bias, c, m, k, n);
      ex.release(mk);
      check(status, 'matmulI8');
    },
    packWeightsI16(b, k, n) {
      const q = alloc(k * n * 2);
      const scale = alloc(n * 4);
      // The f32 source sits above the result and is released with it: only the int16 copy stays.
      const mk = ex.mark();
      const status = ex.packWeightsI16(put(b), k, n, q, scale);
      ex.release(mk);
      check(status, 'packWeightsI16');
      return { q, scale };
    },
    matmulI16: (a, w, bias, c, m, k, n, gelu = false) =>
      check(ex.matmulI16(a, w.q, w.scale, bias, c, m, k, n, gelu ? 1 : 0), 'matmulI16'),
    matmulPacked: (a, bp, bias, c, m, k, n) =>
      check(ex.matmulPacked(a, bp, bias, c, m, k, n), 'matmulPacked'),
    matmulPackedGelu: (a, bp, bias, c, m, k, n) =>
      check(ex.matmulPackedGelu(a, bp, bias, c, m, k, n), 'matmulPackedGelu'),
    add: (x, y, out, len) => ex.add(x, y, out, len),
    relu: (x, len) => ex.relu(x, len),
    gelu: (x, len) => ex.gelu(x, len),
    geluErf64: (x, len) => ex.geluErf64(x, len),
    geluScalar: (x, len) => ex.geluScalar(x, len),
    tanh: (x, len) => ex.tanhInPlace(x, len),
    scale: (x, len, s) => ex.scale(x, len, s),
    layerNorm: (x, out, rows, n, gamma, beta, eps) =>
      ex.layerNorm(x, out, rows, n, gamma, beta, eps),
    softmax: (x, rows, n) => ex.softmax(x, rows, n),
    attention: (a) =>
      runAttention(ex.attention, 'attention', a, 3 * a.seqLen * a.headDim + a.seqLen * a.seqLen),
    attentionPacked(a) {
      const nPad = (a.seqLen + 7) & ~7;
      const floats = 2 * a.seqLen * a.headDim + 2 * nPad * a.headDim + a.seqLen * nPad;
      runAttention(ex.attentionPacked, 'attentionPacked', a, floats);
    },
    timingSignal: (out, seqLen, inv, nts) => ex.timingSignal(out, seqLen, inv, nts),
    gatherRows: (table, rows, dim, ids, count, out) =>
      check(ex.gatherRows(table, rows, dim, ids, count, out), 'gatherRows'),
    meanPool: (x, n, validLen, out) => ex.meanPool(x, n, validLen, out),
    l2Normalize: (x, n, eps) => ex.l2Normalize(x, n, eps),
    quantize: (x, out, n) => ex.quantize(x, out, n),
    dotI16: (a, b, n) => ex.dotI16(a, b, n),
    dotI16Many: (q, mtx, count, n, scores) => ex.dotI16Many(q, mtx, count, n, scores),
    math: { exp: ex.dexp, sin: ex.dsin, cos: ex.dcos, tanh: ex.dtanh, erf: ex.derf },
    memoryBytes: () => ex.memory.buffer.byteLength,
  };
}
