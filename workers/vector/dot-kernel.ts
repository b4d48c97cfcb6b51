// The portable JS implementation of the DotKernel seam (exact integer arithmetic).
// Owns: jsDotKernel. The lead plugs the WASM SIMD kernel (workers/embed/kernel.ts) in instead;
// both must return the same integers.
import type { DotKernel } from './types';

/**
 * Exact: |a[i] * b[i]| <= 32767^2 < 2^30 and for unit vectors every partial sum is bounded by
 * 32767^2 < 2^31, so the double accumulator holds exact integers and `| 0` changes nothing.
 * Unrolled by 4 because V8 keeps four independent accumulators in registers.
 */
function dot(a: Int16Array, aOff: number, b: Int16Array, bOff: number, dim: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let i = 0;
  const end4 = dim - (dim & 3);
  for (; i < end4; i += 4) {
    s0 += a[aOff + i]! * b[bOff + i]!;
    s1 += a[aOff + i + 1]! * b[bOff + i + 1]!;
    s2 += a[aOff + i + 2]! * b[bOff + i + 2]!;
    s3 += a[aOff + i + 3]! * b[bOff + i + 3]!;
  }
  for (; i < dim; i++) s0 += a[aOff + i]! * b[bOff + i]!;
  // Exact in a double (< 2^53 for any dim below 2^23); `| 0` then wraps like the WASM i32 lanes,
  // so the two kernels agree bit for bit even on vectors that break the unit-length premise.
  return (s0 + s1 + s2 + s3) | 0;
}

export const jsDotKernel: DotKernel = {
  dot,
  dotBatch(query, qOff, rows, slots, count, dim, out) {
    for (let j = 0; j < count; j++) out[j] = dot(query, qOff, rows, slots[j]! * dim, dim);
  },
};
