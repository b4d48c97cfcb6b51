// Test support: BERT_CANON_REVISION canon.2 rebuilt from the kernels that remain in the runtime
// (f32 dense layers on packB/matmulPacked, the GELU fused by matmulPackedGelu), so canon.3 vectors
// can be compared with the ones they replace (workers/embed/bert-canon-revision.test.ts,
// wasm/compare-bert-revisions.ts, bench/embed-bert-int16.bench.ts). Used by tests, that script and
// that bench only; no product code imports it.
import type { Kernel } from './kernel';

/**
 * A Kernel whose canon.3 int16 dense layers are replaced by canon.2's f32 ones: `packWeightsI16`
 * packs the f32 weights into matmulPacked's panels (returned as `q`, no scales) and `matmulI16`
 * runs matmulPacked or matmulPackedGelu on them. Wrap canon1Kernel(kernel) to rebuild canon.1.
 */
export function canon2Kernel(kernel: Kernel): Kernel {
  return {
    ...kernel,
    packWeightsI16(b, k, n) {
      const q = kernel.alloc(b.byteLength);
      const m = kernel.mark();
      kernel.packB(kernel.putF32(b), k, n, q);
      kernel.release(m);
      return { q, scale: 0 };
    },
    matmulI16(a, w, bias, c, m, k, n, gelu = false) {
      if (gelu) kernel.matmulPackedGelu(a, w.q, bias, c, m, k, n);
      else kernel.matmulPacked(a, w.q, bias, c, m, k, n);
    },
  };
}
