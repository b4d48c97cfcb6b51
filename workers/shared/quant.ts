// The canonical int16 vector format (CFS-012 section 2), the one rule every layer uses:
// q = clamp(roundHalfToEven(x * 32767), -32767, 32767); similarity is the exact int32 dot product
// and cosine = dot / 32767^2. The WASM runtime (wasm/assembly/index.ts `quantize`) must agree with
// `quantize` byte for byte on f32 inputs (workers/embed/kernel.test.ts). Pure; imports nothing.

/** The scale S: a unit vector maps to int16 values in [-32767, 32767]. */
export const QUANT_SCALE = 32767;
/** S^2: cosine = dot / S^2 for two canonical int16 vectors (CFS-012 section 9). */
export const DOT_SCALE = QUANT_SCALE * QUANT_SCALE;

/** Rounds half to even (banker's rounding), as f64.nearest does in WebAssembly. */
export function roundHalfToEven(x: number): number {
  const r = Math.round(x);
  // Math.round rounds .5 up; correct the exact-halfway cases that land on an odd integer.
  return Math.abs(x % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

/**
 * q = clamp(roundHalfToEven(x * 32767), -32767, 32767), NaN -> 0. Values are used as given: for
 * f32 inputs x * 32767 is exact in f64, which is what the WASM runtime computes.
 */
export function quantize(x: ArrayLike<number>): Int16Array {
  const out = new Int16Array(x.length);
  for (let i = 0; i < x.length; i++) {
    const v = roundHalfToEven((x[i] ?? 0) * QUANT_SCALE);
    out[i] = Number.isNaN(v) ? 0 : Math.max(-QUANT_SCALE, Math.min(QUANT_SCALE, v));
  }
  return out;
}

/** L2-normalises (x / |x|; a zero vector stays zero) then quantises. */
export function quantizeUnit(x: ArrayLike<number>): Int16Array {
  let norm = 0;
  for (let i = 0; i < x.length; i++) norm += (x[i] ?? 0) * (x[i] ?? 0);
  norm = Math.sqrt(norm) || 1;
  return quantize(Array.from(x, (v) => v / norm));
}

/** q / 32767 per value. */
export function dequantize(q: ArrayLike<number>): Float32Array {
  const out = new Float32Array(q.length);
  for (let i = 0; i < q.length; i++) out[i] = (q[i] ?? 0) / QUANT_SCALE;
  return out;
}

/** CFS-012's cosine of an int dot: one correctly rounded division, identical on every engine. */
export function dotToCosine(dot: number): number {
  return dot / DOT_SCALE;
}
