// Test support: BERT_CANON_REVISION canon.1 rebuilt from the kernels that remain in the runtime
// (the f64 erf GELU `geluErf64` and USE-lite's `attention`), and `compareRevisions`, which
// compares two revisions' vectors (workers/embed/bert-canon-revision.test.ts,
// wasm/compare-bert-revisions.ts). Used by tests and that script only; no product code imports it.
import type { BertModel } from './bert';
import type { Kernel } from './kernel';
import { cosine } from './reference-check';
import { hashVectors, sha256Hex } from './self-test';

/**
 * A Kernel whose canon.2 BERT kernels are replaced by the canon.1 computations (wrap it in
 * canon2Kernel, canon2.testkit.ts, for the f32 dense layers canon.1 and canon.2 shared).
 */
export function canon1Kernel(kernel: Kernel): Kernel {
  return {
    ...kernel,
    matmulPackedGelu(a, bp, bias, c, m, k, n) {
      kernel.matmulPacked(a, bp, bias, c, m, k, n);
      kernel.geluErf64(c, m * n);
    },
    attentionPacked: (args) => kernel.attention(args),
  };
}

export interface RevisionComparison {
  /** Hashes of the older model's vectors (int16 and float32), to check against its golden file. */
  oldSha256: string[];
  oldFloatSha256: string[];
  /** Cosine between the two models' float vectors, and between their int16 vectors, per text. */
  cosine: number[];
  cosineInt16: number[];
}

/** Embeds every text with both models and compares the vectors. */
export async function compareRevisions(
  older: BertModel,
  newer: BertModel,
  texts: readonly string[],
): Promise<RevisionComparison> {
  const a = texts.map((t) => older.embedIds(older.tokenize(t)));
  const b = texts.map((t) => newer.embedIds(newer.tokenize(t)));
  return {
    oldSha256: await hashVectors(a.map((v) => v.int16)),
    oldFloatSha256: await Promise.all(
      a.map((v) =>
        sha256Hex(new Uint8Array(v.float.buffer, v.float.byteOffset, v.float.byteLength)),
      ),
    ),
    cosine: a.map((v, i) => cosine(v.float, b[i]!.float)),
    cosineInt16: a.map((v, i) => cosine(v.int16, b[i]!.int16)),
  };
}
