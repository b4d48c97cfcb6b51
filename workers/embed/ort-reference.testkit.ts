// Test support: a reference runtime for the BERT self-test in Node, made of parts independent of
// the canonical path: the tokenizer of @huggingface/tokenizers (the library transformers.js uses)
// and onnxruntime-web's WASM backend running the ONNX export. Pools and normalises like
// transformers.js (mean over the attention mask, or the CLS row). The browser uses transformers.js
// itself (transformers-reference.ts); in Node transformers.js would need onnxruntime-node's
// native binaries. Used by tests and the embed-bert bench only; no product code imports it.
import { Tokenizer } from '@huggingface/tokenizers';
import * as ort from 'onnxruntime-web';
import type { ReferenceEmbed } from './reference-check';

ort.env.wasm.numThreads = 1;

/**
 * One token sequence through an onnxruntime session of the BERT export: the last hidden state
 * pooled (mean over the tokens, or the CLS row) and L2-normalised, as transformers.js does.
 */
export async function ortEmbedIds(
  session: ort.InferenceSession,
  ids: number[],
  pooling: 'mean' | 'cls',
): Promise<Float32Array> {
  const n = ids.length;
  const feed = (values: ArrayLike<number>) =>
    new ort.Tensor(
      'int64',
      BigInt64Array.from(values, (v) => BigInt(v)),
      [1, n],
    );
  const out = await session.run({
    input_ids: feed(ids),
    attention_mask: feed(new Array<number>(n).fill(1)),
    token_type_ids: feed(new Array<number>(n).fill(0)),
  });
  const hidden = out.last_hidden_state!.data as Float32Array;
  const H = hidden.length / n;
  const rows = pooling === 'cls' ? 1 : n;
  const v = new Float32Array(H);
  for (let t = 0; t < rows; t++) for (let h = 0; h < H; h++) v[h]! += hidden[t * H + h]! / rows;
  const norm = Math.sqrt(v.reduce((a, x) => a + x * x, 0));
  return v.map((x) => x / norm);
}

export const ortReference: ReferenceEmbed = async (request) => {
  const tokenizer = new Tokenizer(JSON.parse(request.tokenizerJson) as object, {
    model_max_length: request.maxTokens,
  });
  const session = await ort.InferenceSession.create(request.onnx);
  try {
    const vectors: Float32Array[] = [];
    const ids: number[][] = [];
    for (const text of request.texts) {
      const list = tokenizer.encode(text).ids.slice(0, request.maxTokens);
      vectors.push(await ortEmbedIds(session, list, request.pooling));
      ids.push(list);
    }
    return { runtime: `onnxruntime-web ${ort.env.versions.web} (Node test)`, vectors, ids };
  } finally {
    await session.release();
  }
};
