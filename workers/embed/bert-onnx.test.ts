// The ONNX export of a BERT-family encoder, run by onnxruntime (onnxruntime-web's WASM backend in
// Node, the runtime transformers.js uses in the browser): it must agree with the canonical
// runtime on seeded weights, and on the real all-MiniLM-L6-v2 weights with the PyTorch golden
// vectors (skipped without the weights). Padding in a batch must not change a text's vector.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ort from 'onnxruntime-web';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadBert, type BertConfig } from './bert';
import { bertToOnnx } from './bert-onnx';
import { createNodeKernel, MINILM_DIR, REPO_ROOT } from './node-kernel';
import { haveRealWeights } from './real-weights.testkit';
import { cosine } from './reference-check';
import { parseSafetensors, type Tensor } from './safetensors';
import { bertFolder } from './bert-weights.testkit';
import { createWordPieceTokenizer } from './wordpiece';

ort.env.wasm.numThreads = 1;

type TokenizerJson = Parameters<typeof createWordPieceTokenizer>[0];
const decode = (b: Uint8Array) => new TextDecoder().decode(b);
const bufferOf = (b: Uint8Array) =>
  b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;

/** Mean-pooled (or CLS), L2-normalised rows of last_hidden_state for each text, one batch. */
async function embedWithOrt(
  session: ort.InferenceSession,
  idLists: number[][],
  pooling: 'mean' | 'cls' = 'mean',
): Promise<Float32Array[]> {
  const batch = idLists.length;
  const seq = Math.max(...idLists.map((ids) => ids.length));
  const ids = new BigInt64Array(batch * seq);
  const mask = new BigInt64Array(batch * seq);
  idLists.forEach((list, b) =>
    list.forEach((id, i) => {
      ids[b * seq + i] = BigInt(id);
      mask[b * seq + i] = 1n;
    }),
  );
  const out = await session.run({
    input_ids: new ort.Tensor('int64', ids, [batch, seq]),
    attention_mask: new ort.Tensor('int64', mask, [batch, seq]),
    token_type_ids: new ort.Tensor('int64', new BigInt64Array(batch * seq), [batch, seq]),
  });
  const hidden = out.last_hidden_state!;
  const H = hidden.dims[2]!;
  const data = hidden.data as Float32Array;
  return idLists.map((list, b) => {
    const n = pooling === 'cls' ? 1 : list.length;
    const v = new Float32Array(H);
    for (let t = 0; t < n; t++) for (let h = 0; h < H; h++) v[h]! += data[(b * seq + t) * H + h]!;
    let norm = 0;
    for (let h = 0; h < H; h++) norm += (v[h]! / n) ** 2;
    return v.map((x) => x / n / Math.sqrt(norm));
  });
}

const TEXTS = [
  'Hello world',
  'The quick brown fox jumps over the lazy dog.',
  'Vitamin D deficiency is associated with an increased risk of respiratory infections.',
  'naïve café, 42 — ünïcödé!',
  'a',
];

describe('bertToOnnx on seeded weights', () => {
  const folder = bertFolder(7);
  const config = JSON.parse(decode(folder['config.json'])) as BertConfig;
  const tensors = parseSafetensors(bufferOf(folder['model.safetensors']));
  const tokenizer = createWordPieceTokenizer(
    JSON.parse(decode(folder['tokenizer.json'])) as TokenizerJson,
  );
  let session: ort.InferenceSession;

  beforeAll(async () => {
    session = await ort.InferenceSession.create(bertToOnnx(config, tensors));
  });

  it('declares the inputs and output transformers.js feeds and reads', () => {
    expect([...session.inputNames].sort()).toEqual([
      'attention_mask',
      'input_ids',
      'token_type_ids',
    ]);
    expect(session.outputNames).toEqual(['last_hidden_state']);
  });

  it('agrees with the canonical runtime (cosine >= 0.9999), in one padded batch', async () => {
    const model = loadBert(await createNodeKernel(), config, tensors, tokenizer, {
      id: 'seeded',
      version: 'test',
      maxTokens: 256,
    });
    const idLists = TEXTS.map((t) => model.tokenize(t));
    const batched = await embedWithOrt(session, idLists);
    for (let i = 0; i < TEXTS.length; i++) {
      const canonical = model.embedIds(idLists[i]!).float;
      expect(cosine(canonical, batched[i]!), TEXTS[i]).toBeGreaterThanOrEqual(0.9999);
      // Alone (no padding) the vector is the same as in the batch: the mask works.
      const [alone] = await embedWithOrt(session, [idLists[i]!]);
      expect(cosine(alone!, batched[i]!), TEXTS[i]).toBeGreaterThan(0.999999);
    }
  });

  it('names the missing tensor when the weights are incomplete', () => {
    const broken = new Map<string, Tensor>(tensors);
    broken.delete('encoder.layer.1.output.dense.weight');
    expect(() => bertToOnnx(config, broken)).toThrow(/encoder\.layer\.1\.output\.dense\.weight/);
  });
});

const haveWeights = haveRealWeights();
if (!haveWeights) {
  console.warn(
    `bert-onnx.test.ts real-weights suite skipped: no ${MINILM_DIR}/model.safetensors. ` +
      'Run `node tools/copy-model.mjs --fetch-minilm` to provide it.',
  );
}

describe.skipIf(!haveWeights)('bertToOnnx on the real all-MiniLM-L6-v2 weights', () => {
  it('matches the PyTorch golden vectors (cosine >= 0.9999 on every text)', async () => {
    const ref = JSON.parse(
      readFileSync(join(REPO_ROOT, 'wasm/golden/minilm-reference.json'), 'utf8'),
    ) as { texts: string[]; ids: number[][]; dim: number };
    const f32 = readFileSync(join(REPO_ROOT, 'wasm/golden/minilm-reference.f32'));
    const refVecs = new Float32Array(bufferOf(f32));
    const config = JSON.parse(readFileSync(join(MINILM_DIR, 'config.json'), 'utf8')) as BertConfig;
    const tensors = parseSafetensors(bufferOf(readFileSync(join(MINILM_DIR, 'model.safetensors'))));
    const session = await ort.InferenceSession.create(bertToOnnx(config, tensors));
    let min = Infinity;
    for (let t = 0; t < ref.texts.length; t++) {
      const [v] = await embedWithOrt(session, [ref.ids[t]!]);
      const c = cosine(v!, refVecs.subarray(t * ref.dim, (t + 1) * ref.dim));
      min = Math.min(min, c);
      expect(c, ref.texts[t]).toBeGreaterThanOrEqual(0.9999);
    }
    console.log(
      `ONNX export vs PyTorch, ${ref.texts.length} texts: minimum cosine ${min.toFixed(9)}`,
    );
  }, 120_000);
});
