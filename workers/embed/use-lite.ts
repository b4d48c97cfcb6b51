// USE-lite (Universal Sentence Encoder lite, "KonaTransformer") on the canonical runtime.
// Owns: reading the TF.js graph model's weights (model.json + shards), the forward pass exactly as
// the graph computes it for one sentence, and the SentencePiece tokenizer wiring.
// All float math runs in the wasm runtime through kernel.ts; this file only moves bytes and
// sequences kernel calls. Must not import Node-only modules (file access is injected).
import { createError } from '../shared/errors';
import { attendEachSequence, type Kernel, type Ptr, type QuantWeights } from './kernel';
import { createSentencePieceTokenizer, type Tokenizer } from './sentencepiece';

export const USE_LITE_MODEL_ID = 'use-lite';
/** Bump when the weights, tokenizer or any kernel changes the bytes of a vector (golden file). */
export const USE_LITE_MODEL_VERSION = '0.2.0+canon.1';
export const USE_LITE_DIM = 512;
/** The graph clips token positions to < 128 (ClipToMaxLength/Less/y). */
export const USE_LITE_MAX_TOKENS = 128;
/** The files of the model, relative to its folder (copied to public/models/use-lite/). */
export const USE_LITE_FILES = [
  'model.json',
  'vocab.json',
  ...Array.from({ length: 7 }, (_, i) => `group1-shard${i + 1}of7`),
];

const P = 'module_apply_default/Encoder_en/KonaTransformer/Encode/';
const LN_EPS = 9.999999974752427e-7;
const L2_EPS = 9.999999960041972e-13;

/** A weight matrix: f32 packed panels (canonical) or int8 + column scales (experiment). */
type Linear = { kind: 'f32'; p: Ptr } | { kind: 'int8'; w: QuantWeights };

/** Options of loadUseLite. */
export interface UseLiteOptions {
  /**
   * 'f32' (default, the canonical vectors and golden file) or 'int8' (integer-weight GEMM for the
   * Transformer layers; different vectors, reported under another version; bench/embed-int8.ts).
   */
  weights?: 'f32' | 'int8';
}

interface LayerWeights {
  lnGamma: Ptr;
  lnBeta: Ptr;
  qkv: Linear;
  qkvBias: Ptr;
  out: Linear;
  outBias: Ptr;
  /** Layer 0 projects its 256-d input to 512 for the residual (AdjustResidualInput/dense). */
  residual: Linear | null;
  residualBias: Ptr; // 0 when there is none
  ffnGamma: Ptr;
  ffnBeta: Ptr;
  ffn1: Linear;
  ffn1Bias: Ptr;
  ffn2: Linear;
  ffn2Bias: Ptr;
  dIn: number;
  heads: number;
  headDim: number;
  /** q is multiplied by this before q.k (MultiheadAttention/mul/y). */
  qScale: number;
}

interface WeightsManifestGroup {
  paths: string[];
  weights: Array<{ name: string; shape: number[]; dtype: string; quantization?: unknown }>;
}

export interface UseLiteModel {
  readonly id: string;
  readonly version: string;
  readonly dim: number;
  readonly tokenizer: Tokenizer;
  /** Token ids as the model sees them (clipped to its window). */
  tokenize(text: string): number[];
  /** Unit-length f32 sentence vector of `text`. @throws AppError WASM_ERROR */
  embedFloat(text: string): Float32Array;
  /** Canonical int16 vector (quantised unit vector). @throws AppError WASM_ERROR */
  embedInt16(text: string): Int16Array;
  /** Vectors for pre-tokenised ids (already clipped). */
  embedIds(ids: readonly number[]): { float: Float32Array; int16: Int16Array };
  /**
   * Vectors for several token sequences in one forward pass: their rows go through each dense
   * layer together (weights read once), attention runs per sequence. Each vector has exactly the
   * bytes `embedIds` gives for its sequence alone.
   */
  embedIdsBatch(batch: ReadonlyArray<readonly number[]>): Array<{
    float: Float32Array;
    int16: Int16Array;
  }>;
  /** embedInt16 of each text, computed as one batch (same bytes). */
  embedInt16Batch(texts: readonly string[]): Int16Array[];
}

/** The model's graph manifest, SentencePiece vocabulary and weight shards, as fetched. */
async function readModelFiles(fetchBytes: (name: string) => Promise<ArrayBuffer>): Promise<{
  manifest: WeightsManifestGroup[];
  vocabulary: Array<[string, number]>;
  shards: ArrayBuffer[];
}> {
  try {
    const [modelJson, vocabJson] = await Promise.all([
      fetchBytes('model.json'),
      fetchBytes('vocab.json'),
    ]);
    const model = JSON.parse(new TextDecoder().decode(modelJson)) as {
      weightsManifest: WeightsManifestGroup[];
    };
    const manifest = model.weightsManifest;
    const vocabulary = JSON.parse(new TextDecoder().decode(vocabJson)) as Array<[string, number]>;
    const shards = await Promise.all(manifest.flatMap((g) => g.paths).map((p) => fetchBytes(p)));
    return { manifest, vocabulary, shards };
  } catch (cause) {
    throw createError('MODEL_LOAD_FAILED', {
      reason: 'The USE-lite model files could not be read.',
      cause,
    });
  }
}

/** The model's weights by graph name, each copied into the runtime in the form a step wants. */
interface WeightReader {
  /** An f32 tensor as stored. */
  weight(name: string, expected: number[]): Ptr;
  /** A weight matrix [k, n] packed into 8-column panels for matmulPacked (same bits as matmul). */
  packed(name: string, expected: number[]): Ptr;
  /** A Transformer-layer weight in the chosen representation. */
  linear(name: string, expected: number[]): Linear;
  /** A scalar constant of the graph. */
  scalar(name: string): number;
}

/**
 * Reads the shards as the manifest lays them out.
 * @throws AppError MODEL_LOAD_FAILED when the shards do not match the manifest, or (from its
 * methods) a weight is missing or has another shape than the graph's.
 */
function createWeightReader(
  kernel: Kernel,
  manifest: WeightsManifestGroup[],
  shards: ArrayBuffer[],
  int8: boolean,
): WeightReader {
  const all = concat(shards);
  const table = new Map<string, { offset: number; count: number; shape: number[] }>();
  let offset = 0;
  for (const w of manifest.flatMap((g) => g.weights)) {
    const count = w.shape.reduce((a, b) => a * b, 1);
    if (w.quantization !== undefined || (w.dtype !== 'float32' && w.dtype !== 'int32')) {
      throw createError('MODEL_LOAD_FAILED', {
        reason: `Unexpected weight encoding for ${w.name}.`,
      });
    }
    table.set(w.name, { offset, count, shape: w.shape });
    offset += count * 4;
  }
  if (offset !== all.byteLength) {
    throw createError('MODEL_LOAD_FAILED', {
      reason: `The model shards hold ${all.byteLength} bytes but the manifest describes ${offset}.`,
    });
  }

  /** The weight's values: a view on the shards. */
  function tensor(name: string, expected: number[]): Float32Array {
    const w = table.get(name);
    if (!w || w.shape.join('x') !== expected.join('x')) {
      throw createError('MODEL_LOAD_FAILED', {
        reason: `Weight ${name} is missing or has the wrong shape.`,
      });
    }
    return new Float32Array(all, w.offset, w.count);
  }
  function packed(name: string, expected: number[]): Ptr {
    const data = tensor(name, expected);
    const n = expected[expected.length - 1]!;
    const out = kernel.alloc(data.length * 4);
    const m = kernel.mark();
    kernel.packB(kernel.putF32(data), data.length / n, n, out);
    kernel.release(m);
    return out;
  }
  return {
    weight: (name, expected) => kernel.putF32(tensor(name, expected)),
    packed,
    linear(name, expected) {
      if (!int8) return { kind: 'f32', p: packed(name, expected) };
      const data = tensor(name, expected);
      const n = expected[expected.length - 1]!;
      // The f32 temporary stays allocated below the int8 copy (experiment only: simpler than
      // compacting the arena).
      const tmp = kernel.putF32(data);
      return { kind: 'int8', w: kernel.packWeightsI8(tmp, data.length / n, n) };
    },
    scalar(name) {
      const w = table.get(name);
      if (!w) throw createError('MODEL_LOAD_FAILED', { reason: `Constant ${name} is missing.` });
      return new Float32Array(all, w.offset, 1)[0]!;
    },
  };
}

/** The weights of Transformer layer `i` (layer 0 reads 256-d rows, layer 1 512-d). */
function layerWeights({ weight, linear, scalar }: WeightReader, i: 0 | 1): LayerWeights {
  const dIn = i === 0 ? 256 : 512;
  const L = `${P}Layer_${i}/TransformerLayer/`;
  const S = `${P}TransformerStack/Layer_${i}/TransformerLayer/`;
  const K = `module/Encoder_en/KonaTransformer/Encode/Layer_${i}/TransformerLayer/`;
  return {
    dIn,
    heads: 4,
    headDim: dIn / 4,
    qScale: scalar(`${S}MultiheadAttention/mul/y`),
    lnGamma: weight(
      `${L}layer_prepostprocess/layer_norm/layer_norm_scale/ConcatPartitions/concat`,
      [dIn],
    ),
    lnBeta: weight(`${L}layer_prepostprocess/layer_norm/layer_norm_bias/ConcatPartitions/concat`, [
      dIn,
    ]),
    qkv: linear(`${K}MultiheadAttention/qkv_transform_single/kernel/part_0`, [1, 1, dIn, 3 * dIn]),
    qkvBias: weight(`${L}MultiheadAttention/qkv_transform_single/bias/ConcatPartitions/concat`, [
      3 * dIn,
    ]),
    out: linear(`${K}MultiheadAttention/output_transform_single/kernel/part_0`, [1, 1, dIn, 512]),
    outBias: weight(
      `${L}MultiheadAttention/output_transform_single/bias/ConcatPartitions/concat`,
      [512],
    ),
    residual: i === 0 ? linear(`${L}dense/kernel/ConcatPartitions/concat`, [256, 512]) : null,
    residualBias: i === 0 ? weight(`${L}dense/bias/ConcatPartitions/concat`, [512]) : 0,
    ffnGamma: weight(
      `${L}FFN/layer_prepostprocess/layer_norm/layer_norm_scale/ConcatPartitions/concat`,
      [512],
    ),
    ffnBeta: weight(
      `${L}FFN/layer_prepostprocess/layer_norm/layer_norm_bias/ConcatPartitions/concat`,
      [512],
    ),
    ffn1: linear(`${S}FFN/conv1/Tensordot/Reshape_1`, [512, 1536]),
    ffn1Bias: weight(`${L}FFN/conv1/bias/ConcatPartitions/concat`, [1536]),
    ffn2: linear(`${S}FFN/conv2/Tensordot/Reshape_1`, [1536, 512]),
    ffn2Bias: weight(`${L}FFN/conv2/bias/ConcatPartitions/concat`, [512]),
  };
}

/**
 * Loads USE-lite into the runtime's memory (about 28 MB of f32 weights).
 * @param fetchBytes reads one model file by name (see USE_LITE_FILES)
 * @throws AppError MODEL_LOAD_FAILED when a file is missing or does not match the expected graph.
 */
export async function loadUseLite(
  kernel: Kernel,
  fetchBytes: (name: string) => Promise<ArrayBuffer>,
  options: UseLiteOptions = {},
): Promise<UseLiteModel> {
  const int8 = options.weights === 'int8';
  const { manifest, vocabulary, shards } = await readModelFiles(fetchBytes);
  const weights = createWeightReader(kernel, manifest, shards, int8);
  const embeddings = weights.weight('module/Embeddings_en', [8002, 256]);
  const invTimescales = weights.weight(
    `${P}TransformerStack/Layer_0/AddTimingSignal/TimingSignal/ExpandDims_1`,
    [1, 128],
  );
  const layers = [layerWeights(weights, 0), layerWeights(weights, 1)];
  const tanhW = weights.packed('module/Encoder_en/hidden_layers/tanh_layer_0/weights', [512, 512]);
  const tanhB = weights.weight('module/Encoder_en/hidden_layers/tanh_layer_0/bias', [512]);
  const tokenizer = createSentencePieceTokenizer(vocabulary);

  function mm(x: Ptr, w: Linear, bias: Ptr, out: Ptr, n: number, k: number, nOut: number): void {
    if (w.kind === 'f32') kernel.matmulPacked(x, w.p, bias, out, n, k, nOut);
    else kernel.matmulI8(x, w.w, bias, out, n, k, nOut);
  }

  /**
   * One Transformer layer on x [n, dIn], the rows of the sequences of `lens` one after another
   * (the dense steps are per row; attention stays within each sequence); returns [n, 512].
   */
  function runLayer(w: LayerWeights, x: Ptr, lens: readonly number[]): Ptr {
    const k = kernel;
    const d = w.dIn;
    const n = lens.reduce((a, b) => a + b, 0);
    const ln = k.alloc(n * d * 4);
    k.layerNorm(x, ln, n, d, w.lnGamma, w.lnBeta, LN_EPS);
    const qkv = k.alloc(n * 3 * d * 4);
    mm(ln, w.qkv, w.qkvBias, qkv, n, d, 3 * d);
    const att = k.alloc(n * d * 4);
    attendEachSequence((args) => k.attention(args), qkv, att, lens, {
      width: d,
      heads: w.heads,
      headDim: w.headDim,
      scale: w.qScale,
    });
    const h = k.alloc(n * 512 * 4);
    mm(att, w.out, w.outBias, h, n, d, 512);
    if (w.residual !== null) {
      const res = k.alloc(n * 512 * 4);
      mm(x, w.residual, w.residualBias, res, n, d, 512);
      k.add(h, res, h, n * 512);
    } else {
      k.add(h, x, h, n * 512);
    }
    const ln2 = k.alloc(n * 512 * 4);
    k.layerNorm(h, ln2, n, 512, w.ffnGamma, w.ffnBeta, LN_EPS);
    const f1 = k.alloc(n * 1536 * 4);
    mm(ln2, w.ffn1, w.ffn1Bias, f1, n, 512, 1536);
    k.relu(f1, n * 1536);
    const f2 = k.alloc(n * 512 * 4);
    mm(f1, w.ffn2, w.ffn2Bias, f2, n, 1536, 512);
    k.add(f2, h, f2, n * 512);
    return f2;
  }

  /** Token rows of every sequence (embeddings + timing signal, positions from 0 in each). */
  function inputRows(batch: ReadonlyArray<readonly number[]>, lens: number[], n: number): Ptr {
    const k = kernel;
    const pid = k.putI32(Int32Array.from(batch.flat()));
    const x = k.alloc(n * 256 * 4);
    k.gatherRows(embeddings, 8002, 256, pid, n, x);
    const t = k.alloc(n * 256 * 4);
    let row = 0;
    for (const len of lens) {
      k.timingSignal(t + row * 256 * 4, len, invTimescales, 128);
      row += len;
    }
    // The graph adds the timing signal to the scattered embeddings and then adds the
    // embeddings once more (Layer_0/add = x + (x + timing)); we keep its exact order.
    k.add(x, t, t, n * 256);
    k.add(x, t, x, n * 256);
    return x;
  }

  function embedIdsBatch(
    batch: ReadonlyArray<readonly number[]>,
  ): Array<{ float: Float32Array; int16: Int16Array }> {
    const k = kernel;
    const b = batch.length;
    if (b === 0) return [];
    const m = k.mark();
    try {
      // Sequences without tokens take no rows; the graph's mean over zero positions is 0.
      const lens = batch.map((ids) => ids.length).filter((len) => len > 0);
      const n = lens.reduce((a, c) => a + c, 0);
      const pooled = k.alloc(b * 512 * 4);
      k.f32(pooled, b * 512).fill(0);
      if (n > 0) {
        const x = inputRows(batch, lens, n);
        let h = runLayer(layers[0]!, x, lens);
        h = runLayer(layers[1]!, h, lens);
        let row = 0;
        batch.forEach((ids, i) => {
          if (ids.length === 0) return;
          k.meanPool(h + row * 512 * 4, 512, ids.length, pooled + i * 512 * 4);
          row += ids.length;
        });
      }
      const y = k.alloc(b * 512 * 4);
      k.matmulPacked(pooled, tanhW, tanhB, y, b, 512, 512);
      k.tanh(y, b * 512);
      const q = k.alloc(b * 512 * 2);
      return batch.map((_, i) => {
        const yi = y + i * 512 * 4;
        const qi = q + i * 512 * 2;
        k.l2Normalize(yi, 512, L2_EPS);
        k.quantize(yi, qi, 512);
        return { float: k.f32(yi, 512).slice(), int16: k.i16(qi, 512).slice() };
      });
    } finally {
      k.release(m);
    }
  }

  const embedIds = (ids: readonly number[]) => embedIdsBatch([ids])[0]!;

  const tokenize = (text: string) => tokenizer.encode(text).slice(0, USE_LITE_MAX_TOKENS);
  return {
    id: USE_LITE_MODEL_ID,
    version: int8 ? `${USE_LITE_MODEL_VERSION}+int8` : USE_LITE_MODEL_VERSION,
    dim: USE_LITE_DIM,
    tokenizer,
    tokenize,
    embedIds,
    embedIdsBatch,
    embedFloat: (text) => embedIds(tokenize(text)).float,
    embedInt16: (text) => embedIds(tokenize(text)).int16,
    embedInt16Batch: (texts) => embedIdsBatch(texts.map(tokenize)).map((v) => v.int16),
  };
}

function concat(parts: ArrayBuffer[]): ArrayBuffer {
  const total = parts.reduce((s, p) => s + p.byteLength, 0);
  const out = new Uint8Array(total);
  let o = 0;
  for (const p of parts) {
    out.set(new Uint8Array(p), o);
    o += p.byteLength;
  }
  return out.buffer;
}
