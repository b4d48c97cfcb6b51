// JS reference of the canonical int16 vector format (CFS-012 section 2): quantise with S = 32767,
// round half to even, clamp to +-32767; similarity is the exact int32 dot product.
// The WASM runtime (wasm/assembly/index.ts) must agree with this byte for byte (tested).
// Must not import anything but errors: the vector and search layers may reuse it.

/** The scale S: a unit vector maps to int16 values in [-32767, 32767]. */
export const QUANT_SCALE = 32767;

/** Rounds half to even (banker's rounding), as f64.nearest does in WebAssembly. */
export function roundHalfToEven(x: number): number {
  const r = Math.round(x);
  // Math.round rounds .5 up; correct the exact-halfway cases that land on an odd integer.
  return Math.abs(x % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

/** q = clamp(roundHalfToEven(x * 32767), -32767, 32767); x * 32767 is exact in f64 for f32 x. */
export function quantizeRef(x: ArrayLike<number>): Int16Array {
  const out = new Int16Array(x.length);
  for (let i = 0; i < x.length; i++) {
    const v = roundHalfToEven(Math.fround(x[i] ?? 0) * QUANT_SCALE);
    out[i] = Number.isNaN(v) ? 0 : Math.max(-QUANT_SCALE, Math.min(QUANT_SCALE, v));
  }
  return out;
}

export function dequantizeRef(q: ArrayLike<number>): Float32Array {
  const out = new Float32Array(q.length);
  for (let i = 0; i < q.length; i++) out[i] = (q[i] ?? 0) / QUANT_SCALE;
  return out;
}

/** Exact int32 dot product, wrapping like i32 (never wraps for quantised unit vectors). */
export function dotI16Ref(a: Int16Array, b: Int16Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s = (s + (a[i] ?? 0) * (b[i] ?? 0)) | 0;
  return s;
}

/** Cosine similarity of two quantised unit vectors. */
export function cosineFromDot(dot: number): number {
  return dot / (QUANT_SCALE * QUANT_SCALE);
}
