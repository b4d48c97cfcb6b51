// BERT path with seeded random weights of the real all-MiniLM-L6-v2 shapes (no real weights are
// available offline): the canonical forward pass against an independent float64 JS reference,
// the real tokenizer, safetensors round trip, and determinism.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadBert, type BertConfig, type BertModel } from './bert';
import { createNodeKernel, loadBertFolder, MINILM_DIR, REPO_ROOT } from './node-kernel';
import { haveRealWeights } from './real-weights.testkit';
import { parseSafetensors, type Tensor } from './safetensors';
import { mulberry32 } from './rng.testkit';
import { createWordPieceTokenizer } from './wordpiece';

const DIR = join(REPO_ROOT, '../shared/models/all-MiniLM-L6-v2-tokenizer');
const config = JSON.parse(readFileSync(join(DIR, 'config.json'), 'utf8')) as BertConfig;
const tokenizer = createWordPieceTokenizer(
  JSON.parse(readFileSync(join(DIR, 'tokenizer.json'), 'utf8')) as Parameters<
    typeof createWordPieceTokenizer
  >[0],
);

function randomTensors(seed: number): Map<string, Tensor> {
  const rand = mulberry32(seed);
  const H = config.hidden_size;
  const I = config.intermediate_size;
  const t = new Map<string, Tensor>();
  const add = (name: string, shape: number[], scale: number, offset = 0) => {
    const n = shape.reduce((a, b) => a * b, 1);
    const data = new Float32Array(n);
    for (let i = 0; i < n; i++) data[i] = offset + (rand() * 2 - 1) * scale;
    t.set(name, { shape, data });
  };
  add('embeddings.word_embeddings.weight', [config.vocab_size, H], 0.05);
  add('embeddings.position_embeddings.weight', [config.max_position_embeddings, H], 0.05);
  add('embeddings.token_type_embeddings.weight', [config.type_vocab_size, H], 0.05);
  add('embeddings.LayerNorm.weight', [H], 0.1, 1);
  add('embeddings.LayerNorm.bias', [H], 0.05);
  for (let l = 0; l < config.num_hidden_layers; l++) {
    const p = `encoder.layer.${l}.`;
    for (const w of [
      'attention.self.query',
      'attention.self.key',
      'attention.self.value',
      'attention.output.dense',
    ]) {
      add(`${p}${w}.weight`, [H, H], 0.08);
      add(`${p}${w}.bias`, [H], 0.02);
    }
    add(`${p}attention.output.LayerNorm.weight`, [H], 0.1, 1);
    add(`${p}attention.output.LayerNorm.bias`, [H], 0.05);
    add(`${p}intermediate.dense.weight`, [I, H], 0.08);
    add(`${p}intermediate.dense.bias`, [I], 0.02);
    add(`${p}output.dense.weight`, [H, I], 0.05);
    add(`${p}output.dense.bias`, [H], 0.02);
    add(`${p}output.LayerNorm.weight`, [H], 0.1, 1);
    add(`${p}output.LayerNorm.bias`, [H], 0.05);
  }
  return t;
}

/** Abramowitz & Stegun 7.1.26 (|error| < 1.5e-7): deliberately not the runtime's algorithm. */
function erfRef(x: number): number {
  const s = Math.sign(x);
  const a = Math.abs(x);
  const t = 1 / (1 + 0.3275911 * a);
  const y =
    1 -
    ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) *
      t *
      Math.exp(-a * a);
  return s * y;
}

/** Plain float64 BERT + mean pooling + L2 normalisation (HF semantics). */
function referenceForward(T: Map<string, Tensor>, ids: number[]): Float64Array {
  const H = config.hidden_size;
  const I = config.intermediate_size;
  const heads = config.num_attention_heads;
  const d = H / heads;
  const n = ids.length;
  const w = (name: string) => T.get(name)!.data;
  const ln = (x: Float64Array, g: Float32Array, b: Float32Array) => {
    for (let r = 0; r < n; r++) {
      let m = 0;
      for (let i = 0; i < H; i++) m += x[r * H + i]!;
      m /= H;
      let v = 0;
      for (let i = 0; i < H; i++) v += (x[r * H + i]! - m) ** 2;
      v /= H;
      for (let i = 0; i < H; i++)
        x[r * H + i] = ((x[r * H + i]! - m) / Math.sqrt(v + config.layer_norm_eps)) * g[i]! + b[i]!;
    }
  };
  const linear = (x: Float64Array, inDim: number, name: string, outDim: number) => {
    const W = w(`${name}.weight`);
    const B = w(`${name}.bias`);
    const y = new Float64Array(n * outDim);
    for (let r = 0; r < n; r++)
      for (let o = 0; o < outDim; o++) {
        let s = B[o]!;
        for (let i = 0; i < inDim; i++) s += x[r * inDim + i]! * W[o * inDim + i]!;
        y[r * outDim + o] = s;
      }
    return y;
  };
  let h = new Float64Array(n * H);
  const we = w('embeddings.word_embeddings.weight');
  const pe = w('embeddings.position_embeddings.weight');
  const te = w('embeddings.token_type_embeddings.weight');
  for (let r = 0; r < n; r++)
    for (let i = 0; i < H; i++) h[r * H + i] = we[ids[r]! * H + i]! + pe[r * H + i]! + te[i]!;
  ln(h, w('embeddings.LayerNorm.weight'), w('embeddings.LayerNorm.bias'));
  for (let l = 0; l < config.num_hidden_layers; l++) {
    const p = `encoder.layer.${l}.`;
    const q = linear(h, H, `${p}attention.self.query`, H);
    const k = linear(h, H, `${p}attention.self.key`, H);
    const v = linear(h, H, `${p}attention.self.value`, H);
    const ctx = new Float64Array(n * H);
    for (let hd = 0; hd < heads; hd++)
      for (let i = 0; i < n; i++) {
        const s = new Float64Array(n);
        for (let j = 0; j < n; j++) {
          let dot = 0;
          for (let t = 0; t < d; t++) dot += q[i * H + hd * d + t]! * k[j * H + hd * d + t]!;
          s[j] = dot / Math.sqrt(d);
        }
        const mx = Math.max(...s);
        let sum = 0;
        for (let j = 0; j < n; j++) sum += s[j] = Math.exp(s[j]! - mx);
        for (let t = 0; t < d; t++) {
          let acc = 0;
          for (let j = 0; j < n; j++) acc += (s[j]! / sum) * v[j * H + hd * d + t]!;
          ctx[i * H + hd * d + t] = acc;
        }
      }
    const a = linear(ctx, H, `${p}attention.output.dense`, H);
    for (let i = 0; i < n * H; i++) a[i] = a[i]! + h[i]!;
    ln(a, w(`${p}attention.output.LayerNorm.weight`), w(`${p}attention.output.LayerNorm.bias`));
    const inter = linear(a, H, `${p}intermediate.dense`, I);
    for (let i = 0; i < n * I; i++)
      inter[i] = 0.5 * inter[i]! * (1 + erfRef(inter[i]! / Math.SQRT2));
    const o = linear(inter, I, `${p}output.dense`, H);
    for (let i = 0; i < n * H; i++) o[i] = o[i]! + a[i]!;
    ln(o, w(`${p}output.LayerNorm.weight`), w(`${p}output.LayerNorm.bias`));
    h = o;
  }
  const pooled = new Float64Array(H);
  for (let r = 0; r < n; r++)
    for (let i = 0; i < H; i++) pooled[i] = pooled[i]! + h[r * H + i]! / n;
  const norm = Math.sqrt(pooled.reduce((s, x) => s + x * x, 0));
  return pooled.map((x) => x / norm);
}

/** Serialises tensors as F32 safetensors (to test the reader on the same weights). */
function toSafetensors(T: Map<string, Tensor>): ArrayBuffer {
  const header: Record<string, unknown> = { __metadata__: { format: 'pt' } };
  let offset = 0;
  for (const [name, t] of T) {
    header[name] = {
      dtype: 'F32',
      shape: t.shape,
      data_offsets: [offset, offset + t.data.byteLength],
    };
    offset += t.data.byteLength;
  }
  const json = new TextEncoder().encode(JSON.stringify(header));
  const buf = new ArrayBuffer(8 + json.length + offset);
  new DataView(buf).setBigUint64(0, BigInt(json.length), true);
  new Uint8Array(buf, 8, json.length).set(json);
  let o = 8 + json.length;
  for (const t of T.values()) {
    new Uint8Array(buf, o, t.data.byteLength).set(
      new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength),
    );
    o += t.data.byteLength;
  }
  return buf;
}

let tensors: Map<string, Tensor>;
let model: BertModel;
beforeAll(async () => {
  tensors = randomTensors(20260522);
  // Through the safetensors reader, so the loader sees what a real file gives.
  const parsed = parseSafetensors(toSafetensors(tensors));
  model = loadBert(await createNodeKernel(), config, parsed, tokenizer, {
    id: 'random-minilm',
    version: 'test',
    maxTokens: 256,
  });
});

describe('BERT path (random weights, real all-MiniLM-L6-v2 shapes and tokenizer)', () => {
  it('matches the float64 reference forward pass with cosine >= 0.9999', () => {
    const texts = [
      'hello world',
      'The mitochondria is the powerhouse of the cell.',
      'naïve café, 42%!',
      'a',
    ];
    for (const text of texts) {
      const ids = tokenizer.encode(text).ids;
      const ref = referenceForward(tensors, ids);
      const ours = model.embedFloat(text);
      let dot = 0;
      for (let i = 0; i < ours.length; i++) dot += ours[i]! * ref[i]!;
      expect(dot, text).toBeGreaterThanOrEqual(0.9999);
    }
  });

  it('is deterministic and applies the profile prefixes', async () => {
    const a = model.embedInt16('repeat me');
    const b = model.embedInt16('repeat me');
    expect(Array.from(a)).toEqual(Array.from(b));
    expect(a).toHaveLength(384);
    const e5 = loadBert(await createNodeKernel(), config, tensors, tokenizer, {
      id: 'e5-like',
      version: 'test',
      maxTokens: 512,
      queryPrefix: 'query: ',
      passagePrefix: 'passage: ',
    });
    expect(Array.from(e5.embedQueryInt16('x'))).toEqual(Array.from(e5.embedInt16('query: x')));
    expect(Array.from(e5.embedPassageInt16('x'))).not.toEqual(Array.from(e5.embedQueryInt16('x')));
  });

  it('rejects missing tensors with MODEL_LOAD_FAILED', async () => {
    const broken = new Map(tensors);
    broken.delete('encoder.layer.3.output.dense.weight');
    const kernel = await createNodeKernel();
    expect(() =>
      loadBert(kernel, config, broken, tokenizer, { id: 'x', version: 'x', maxTokens: 128 }),
    ).toThrow(expect.objectContaining({ code: 'MODEL_LOAD_FAILED' }));
  });
});

// Real weights: present after `node tools/copy-model.mjs --fetch-minilm` (CI setup step).
const haveWeights = haveRealWeights();
if (!haveWeights) {
  console.warn(
    `bert.test.ts real-weights suite skipped: no ${MINILM_DIR}/model.safetensors. ` +
      'Run `node tools/copy-model.mjs --fetch-minilm` to provide it.',
  );
}
describe.skipIf(!haveWeights)('all-MiniLM-L6-v2 with its real weights', () => {
  it('matches the float64 reference and the documented similarity', async () => {
    const kernel = await createNodeKernel();
    const real = loadBertFolder(kernel, MINILM_DIR);
    const bytes = readFileSync(join(MINILM_DIR, 'model.safetensors'));
    const T = parseSafetensors(
      bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength),
    );
    const realTok = createWordPieceTokenizer(
      JSON.parse(readFileSync(join(MINILM_DIR, 'tokenizer.json'), 'utf8')) as Parameters<
        typeof createWordPieceTokenizer
      >[0],
    );
    for (const text of [
      'A man is eating food.',
      'Scientific claims need evidence; 42% of 1,000 (n=1000).',
    ]) {
      const ref = referenceForward(T, realTok.encode(text, 256).ids);
      const ours = real.embedFloat(text);
      let dot = 0;
      for (let i = 0; i < ours.length; i++) dot += ours[i]! * ref[i]!;
      expect(dot, text).toBeGreaterThanOrEqual(0.9999);
    }
    // sentence-transformers documents 0.7553 for this pair with all-MiniLM-L6-v2.
    const a = real.embedFloat('A man is eating food.');
    const b = real.embedFloat('A man is eating a piece of bread.');
    expect(a.reduce((s, v, i) => s + v * b[i]!, 0)).toBeCloseTo(0.7553, 3);
    expect(real.id).toBe('all-MiniLM-L6-v2');
    expect(real.dim).toBe(384);
  });
});
