// int16 vector arithmetic for HyDE: dequantise, average, re-normalise and re-quantise with the
// canonical rule (workers/shared/quant.ts: S = 32767, round half to even, clamp; values stay
// within [-32767, 32767] so the SIMD dot never wraps). Pure.
import { QUANT_SCALE, quantizeUnit } from '../shared/quant';

/** Mean of the dequantised vectors, L2-normalised, re-quantised. @throws Error on empty/mismatched input. */
export function averageUnit(vectors: Int16Array[]): Int16Array {
  const first = vectors[0];
  if (!first) throw new Error('averageUnit needs at least one vector');
  const sum = new Float64Array(first.length);
  for (const v of vectors) {
    if (v.length !== first.length) throw new Error('vector dimensions differ');
    for (let i = 0; i < v.length; i++) sum[i] = (sum[i] ?? 0) + (v[i] ?? 0) / QUANT_SCALE;
  }
  return quantizeUnit(sum);
}

/** Cosine similarity of two int16 vectors. */
export function cosine(a: Int16Array, b: Int16Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}
