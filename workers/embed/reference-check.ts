// The Models page's cross-runtime check of a BERT-family model: what is handed to an independent
// reference runtime (transformers.js + onnxruntime in the browser, onnxruntime-web in Node tests),
// and how its vectors are compared with the canonical int16 vectors (cosine per sentence, token
// ids). The reference runs an ONNX graph exported on the device from the same stored weights
// (bert-onnx.ts), so the check needs no second download and works for imported folders.
// Must not import Node modules or the reference runtime itself (it is injected).
import type { ReferenceCheck } from '../shared/embed-api';
import type { BertConfig } from './bert';
import { bertToOnnx } from './bert-onnx';
import type { LoadedModelFiles } from './model-store';
import { parseSafetensors } from './safetensors';

/** A few varied sentences: plain, scientific, punctuation and digits, accents, non-Latin, short. */
export const REFERENCE_TEXTS = [
  'The quick brown fox jumps over the lazy dog.',
  'Vitamin D supplementation reduced the risk of acute respiratory infection in adults.',
  'Is 3.14159 a good enough value of π for engineering work?',
  'Café au lait, naïve résumé — déjà vu!',
  'Машинное обучение и 東京 in one sentence.',
  'search',
];

/** Cosine agreement every sentence must reach (the bar of the canonical-embeddings issue). */
export const REFERENCE_MIN_COSINE = 0.9999;

export interface ReferenceRequest {
  modelId: string;
  /** config.json as transformers.js reads it (model_type 'bert' included). */
  configJson: string;
  tokenizerJson: string;
  /** The ONNX graph of the stored weights (onnx/model.onnx for transformers.js). */
  onnx: Uint8Array;
  /** Sequence length including [CLS]/[SEP] (tokenizer_config model_max_length). */
  maxTokens: number;
  pooling: 'mean' | 'cls';
  /** The texts as the model sees them (profile prefix already applied). */
  texts: string[];
}

export interface ReferenceOutput {
  /** e.g. 'transformers.js 4.3.1 · onnxruntime-web 1.31.0 (WASM, CPU)'. */
  runtime: string;
  /** L2-normalised float vectors, one per text. */
  vectors: Float32Array[];
  /** The reference tokenizer's ids, one list per text. */
  ids: number[][];
}

export type ReferenceEmbed = (request: ReferenceRequest) => Promise<ReferenceOutput>;

/** Builds the reference request from a stored model (exports its weights to ONNX). */
export function referenceRequest(
  files: LoadedModelFiles & { tokenizerJson: string },
  options: { maxTokens: number; pooling: 'mean' | 'cls'; prefix: string },
): ReferenceRequest {
  const config: BertConfig & { model_type?: string } = files.config;
  return {
    modelId: files.manifest.id,
    configJson: JSON.stringify({ ...config, model_type: 'bert' }),
    tokenizerJson: files.tokenizerJson,
    onnx: bertToOnnx(files.config, parseSafetensors(files.weights)),
    maxTokens: options.maxTokens,
    pooling: options.pooling,
    texts: REFERENCE_TEXTS.map((t) => options.prefix + t),
  };
}

/**
 * Cosine of two vectors, e.g. a canonical int16 vector (dequantised: the scale cancels) and a
 * float one. NaN when the lengths differ, 0 when either is all zeros.
 */
export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) return NaN;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/** Compares canonical vectors and ids with the reference's, sentence by sentence. */
export function compareWithReference(
  canonical: { vectors: Int16Array[]; ids: number[][] },
  reference: ReferenceOutput,
  texts: readonly string[] = REFERENCE_TEXTS,
): ReferenceCheck {
  const rows = texts.map((text, i) => {
    const ref = reference.vectors[i];
    const c = ref ? cosine(canonical.vectors[i]!, ref) : NaN;
    const refIds = reference.ids[i] ?? [];
    const ours = canonical.ids[i] ?? [];
    const sameTokens = refIds.length === ours.length && refIds.every((id, k) => id === ours[k]);
    return { text, cosine: c, sameTokens };
  });
  const minCosine = rows.reduce(
    (m, r) => (Number.isNaN(r.cosine) ? NaN : Math.min(m, r.cosine)),
    1,
  );
  return {
    runtime: reference.runtime,
    threshold: REFERENCE_MIN_COSINE,
    minCosine,
    ok: rows.every((r) => r.cosine >= REFERENCE_MIN_COSINE && r.sameTokens),
    rows,
  };
}
