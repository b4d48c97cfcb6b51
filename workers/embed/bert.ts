// BERT-family sentence encoders (all-MiniLM-L6-v2, bge-small, e5-small, gte-small) on the
// canonical runtime: post-LayerNorm encoder, GELU (erf), mean pooling over the tokens, L2
// normalisation, int16 quantisation. Weights come from a name -> tensor source (safetensors);
// PyTorch Linear weights [out, in] are transposed once at load (query, key and value side by side)
// and quantised for matmulI16. Kernels of BERT_CANON_REVISION canon.3: every dense layer on
// matmulI16 (int16 weights and activations, exact int32 block sums; GELU fused for the
// intermediate layer), attention on attentionPacked, everything else in f32. Cross-encoders
// read the [CLS] row of a pair with token types (`clsHiddenBatch`) through the same kernels.
// Must not import Node-only modules.
import { createError } from '../shared/errors';
import { attendEachSequence, type Kernel, type Ptr, type QuantWeights } from './kernel';
import type { Tensor } from './safetensors';
import type { WordPieceTokenizer } from './wordpiece';

/** The fields of a Hugging Face BERT config.json that the forward pass needs. */
export interface BertConfig {
  vocab_size: number;
  hidden_size: number;
  num_hidden_layers: number;
  num_attention_heads: number;
  intermediate_size: number;
  max_position_embeddings: number;
  type_vocab_size: number;
  layer_norm_eps: number;
  hidden_act?: string;
}

/** What differs between models of the family besides weights. */
export interface BertProfile {
  id: string;
  version: string;
  /** Sequence length including [CLS] and [SEP] (sentence-transformers max_seq_length). */
  maxTokens: number;
  /** e5: 'query: ' / 'passage: '; bge: a query instruction; MiniLM: none. */
  queryPrefix?: string;
  passagePrefix?: string;
  /** sentence-transformers 1_Pooling: mean over tokens (default) or the [CLS] row (bge). */
  pooling?: 'mean' | 'cls';
}

export interface BertModel {
  readonly id: string;
  readonly version: string;
  readonly dim: number;
  /** The profile's prefixes ('' when none), for callers that key caches by the model input. */
  readonly queryPrefix: string;
  readonly passagePrefix: string;
  tokenize(text: string): number[];
  embedIds(ids: readonly number[]): { float: Float32Array; int16: Int16Array };
  /**
   * Vectors for several token sequences in one forward pass: their rows go through each dense
   * layer together (weights read once, no padding), attention runs per sequence. Each vector has
   * exactly the bytes `embedIds` gives for its sequence alone.
   */
  embedIdsBatch(batch: ReadonlyArray<readonly number[]>): Array<{
    float: Float32Array;
    int16: Int16Array;
  }>;
  /**
   * The final hidden state of each sequence's first row ([CLS]), after the last LayerNorm, for a
   * cross-encoder's heads. `typeIds` gives each token's segment (0 or 1, below type_vocab_size);
   * the rows run through the same kernels as `embedIdsBatch` (one batched pass, no padding).
   * @throws AppError INVALID_ARGUMENT on empty, too long or mismatched sequences
   */
  clsHiddenBatch(batch: ReadonlyArray<TypedSequence>): Float32Array[];
  embedFloat(text: string): Float32Array;
  embedInt16(text: string): Int16Array;
  /** With the profile's query prefix. */
  embedQueryInt16(text: string): Int16Array;
  /** With the profile's passage prefix. */
  embedPassageInt16(text: string): Int16Array;
}

/** A token sequence with its segment ids (token_type_ids), one per token. */
export interface TypedSequence {
  readonly ids: readonly number[];
  readonly typeIds: readonly number[];
}

/** A dense layer's weights as packWeightsI16 left them: int16 panels and per-column scales. */
type Linear = QuantWeights;

interface Layer {
  /** Query, key and value weights side by side ([H, 3H]) and their biases ([3H]). */
  qkv: Linear;
  qkvb: Ptr;
  o: Linear;
  ob: Ptr;
  ln1g: Ptr;
  ln1b: Ptr;
  i: Linear;
  ib: Ptr;
  out: Linear;
  outb: Ptr;
  ln2g: Ptr;
  ln2b: Ptr;
}

/**
 * Loads a BERT encoder into the runtime.
 * @throws AppError MODEL_LOAD_FAILED when a tensor is missing or has the wrong shape.
 */
export function loadBert(
  kernel: Kernel,
  config: BertConfig,
  tensors: Map<string, Tensor>,
  tokenizer: WordPieceTokenizer,
  profile: BertProfile,
): BertModel {
  const H = config.hidden_size;
  const I = config.intermediate_size;
  const heads = config.num_attention_heads;
  const eps = config.layer_norm_eps;
  if ((config.hidden_act ?? 'gelu') !== 'gelu') {
    throw createError('MODEL_LOAD_FAILED', {
      reason: `Activation ${config.hidden_act} is not supported.`,
    });
  }
  // The weights go into the runtime's memory in a function of their own: the closures below
  // share loadBert's scope, and a tensor map captured there would keep the source file (87 MB
  // for all-MiniLM-L6-v2) alive for the model's lifetime.
  const { wordEmb, posEmb, typeEmb, embLnG, embLnB, layers } = uploadWeights(
    kernel,
    config,
    tensors,
  );
  const headDim = H / heads;
  const scale = Math.fround(1 / Math.sqrt(headDim));
  const maxTokens = Math.min(profile.maxTokens, config.max_position_embeddings);

  /**
   * Embedding rows of every sequence (word + position from 0 in each + its token type's row; type
   * 0 when `types` is absent), normalised.
   */
  function inputRows(batch: ReadonlyArray<readonly number[]>, n: number, types?: Int32Array): Ptr {
    const k = kernel;
    const pid = k.putI32(Int32Array.from(batch.flat()));
    const x = k.alloc(n * H * 4);
    k.gatherRows(wordEmb, config.vocab_size, H, pid, n, x);
    let row = 0;
    for (const ids of batch) {
      const xs = x + row * H * 4;
      k.add(xs, posEmb, xs, ids.length * H);
      row += ids.length;
    }
    for (let r = 0; r < n; r++) {
      const t = typeEmb + (types ? types[r]! : 0) * H * 4;
      k.add(x + r * H * 4, t, x + r * H * 4, H);
    }
    const h = k.alloc(n * H * 4);
    k.layerNorm(x, h, n, H, embLnG, embLnB, eps);
    return h;
  }

  /** Self-attention of each sequence over its own rows of qkv into ctx. */
  function attend(qkv: Ptr, ctx: Ptr, lens: readonly number[]): void {
    attendEachSequence((args) => kernel.attentionPacked(args), qkv, ctx, lens, {
      width: H,
      heads,
      headDim,
      scale,
    });
  }

  function checkLengths(batch: ReadonlyArray<readonly number[]>): void {
    if (batch.some((ids) => ids.length === 0 || ids.length > config.max_position_embeddings)) {
      throw createError('INVALID_ARGUMENT', {
        reason: `A BERT input needs 1..${config.max_position_embeddings} tokens.`,
      });
    }
  }

  /**
   * Runs the encoder over the rows of every sequence and hands the final hidden rows (`h`, n x H
   * f32 in the runtime's arena) to `read`; everything allocated is released afterwards.
   */
  function encode<T>(
    batch: ReadonlyArray<readonly number[]>,
    types: Int32Array | undefined,
    read: (h: Ptr, lens: number[]) => T,
  ): T {
    const k = kernel;
    const lens = batch.map((ids) => ids.length);
    const n = lens.reduce((a, b) => a + b, 0);
    const m = k.mark();
    try {
      const h = inputRows(batch, n, types);
      const qkv = k.alloc(n * 3 * H * 4);
      const ctx = k.alloc(n * H * 4);
      const att = k.alloc(n * H * 4);
      const inter = k.alloc(n * I * 4);
      const tmp = k.alloc(n * H * 4);
      for (const L of layers) {
        k.matmulI16(h, L.qkv, L.qkvb, qkv, n, H, 3 * H);
        attend(qkv, ctx, lens);
        k.matmulI16(ctx, L.o, L.ob, att, n, H, H);
        k.add(att, h, att, n * H);
        k.layerNorm(att, tmp, n, H, L.ln1g, L.ln1b, eps);
        k.matmulI16(tmp, L.i, L.ib, inter, n, H, I, true);
        k.matmulI16(inter, L.out, L.outb, att, n, I, H);
        k.add(att, tmp, att, n * H);
        k.layerNorm(att, h, n, H, L.ln2g, L.ln2b, eps);
      }
      return read(h, lens);
    } finally {
      k.release(m);
    }
  }

  function embedIdsBatch(
    batch: ReadonlyArray<readonly number[]>,
  ): Array<{ float: Float32Array; int16: Int16Array }> {
    const k = kernel;
    checkLengths(batch);
    if (batch.length === 0) return [];
    return encode(batch, undefined, (h, lens) => {
      const pooled = k.alloc(H * 4);
      const qv = k.alloc(H * 2);
      let row = 0;
      return lens.map((len) => {
        // CLS pooling is the mean of the first row alone (an exact copy).
        k.meanPool(h + row * H * 4, H, profile.pooling === 'cls' ? 1 : len, pooled);
        row += len;
        k.l2Normalize(pooled, H, 1e-12);
        k.quantize(pooled, qv, H);
        return { float: k.f32(pooled, H).slice(), int16: k.i16(qv, H).slice() };
      });
    });
  }

  function clsHiddenBatch(batch: ReadonlyArray<TypedSequence>): Float32Array[] {
    const ids = batch.map((s) => s.ids);
    checkLengths(ids);
    const bad = batch.find(
      (s) =>
        s.typeIds.length !== s.ids.length ||
        s.typeIds.some((t) => !Number.isInteger(t) || t < 0 || t >= config.type_vocab_size),
    );
    if (bad) {
      throw createError('INVALID_ARGUMENT', {
        reason: `Each token needs a token type in 0..${config.type_vocab_size - 1}.`,
      });
    }
    if (batch.length === 0) return [];
    const types = Int32Array.from(batch.flatMap((s) => s.typeIds));
    return encode(ids, types, (h, lens) => {
      let row = 0;
      return lens.map((len) => {
        const cls = kernel.f32(h + row * H * 4, H).slice();
        row += len;
        return cls;
      });
    });
  }

  const embedIds = (ids: readonly number[]) => embedIdsBatch([ids])[0]!;

  const tokenize = (text: string) => tokenizer.encode(text, maxTokens).ids;
  return {
    id: profile.id,
    version: profile.version,
    dim: H,
    queryPrefix: profile.queryPrefix ?? '',
    passagePrefix: profile.passagePrefix ?? '',
    tokenize,
    embedIds,
    embedIdsBatch,
    clsHiddenBatch,
    embedFloat: (t) => embedIds(tokenize(t)).float,
    embedInt16: (t) => embedIds(tokenize(t)).int16,
    embedQueryInt16: (t) => embedIds(tokenize((profile.queryPrefix ?? '') + t)).int16,
    embedPassageInt16: (t) => embedIds(tokenize((profile.passagePrefix ?? '') + t)).int16,
  };
}

/** Pointers to the weights in the runtime's memory (no reference to the source tensors). */
interface Weights {
  wordEmb: Ptr;
  posEmb: Ptr;
  /** Every token type's row ([type_vocab_size, H]); row 0 is what a single text adds. */
  typeEmb: Ptr;
  embLnG: Ptr;
  embLnB: Ptr;
  layers: Layer[];
}

/**
 * Copies every weight into the runtime once (Linear weights transposed and quantised), reading the
 * tensors in place: nothing of `tensors` is kept, so the caller's file buffer can be collected
 * as soon as it drops the map.
 * @throws AppError MODEL_LOAD_FAILED when a tensor is missing or has the wrong shape.
 */
function uploadWeights(kernel: Kernel, config: BertConfig, tensors: Map<string, Tensor>): Weights {
  const H = config.hidden_size;
  const I = config.intermediate_size;
  // sentence-transformers files name tensors without a prefix; transformers' BertModel may use "bert.".
  const prefix = tensors.has('embeddings.word_embeddings.weight') ? '' : 'bert.';
  function get(name: string, shape: number[]): Tensor {
    const t = tensors.get(prefix + name);
    if (!t || t.shape.join('x') !== shape.join('x')) {
      throw createError('MODEL_LOAD_FAILED', {
        reason: `Tensor ${name} is missing or has the wrong shape.`,
      });
    }
    return t;
  }
  const vec = (name: string, n: number) => kernel.putF32(get(name, [n]).data);
  /**
   * Linear weights [out, in] with the same input size as one packed [in, sum of outs] matrix
   * (side by side, in order): one matmul computes them all, each output element's sum unchanged.
   */
  function linear(names: string[], outDim: number, inDim: number): Linear {
    const width = outDim * names.length;
    const t = new Float32Array(inDim * width);
    names.forEach((name, s) => {
      const w = get(name, [outDim, inDim]).data;
      for (let o = 0; o < outDim; o++)
        for (let i = 0; i < inDim; i++) t[i * width + s * outDim + o] = w[o * inDim + i]!;
    });
    return kernel.packWeightsI16(t, inDim, width);
  }
  const wordEmb = kernel.putF32(
    get('embeddings.word_embeddings.weight', [config.vocab_size, H]).data,
  );
  const posEmb = kernel.putF32(
    get('embeddings.position_embeddings.weight', [config.max_position_embeddings, H]).data,
  );
  const typeEmb = kernel.putF32(
    get('embeddings.token_type_embeddings.weight', [config.type_vocab_size, H]).data,
  );
  const embLnG = vec('embeddings.LayerNorm.weight', H);
  const embLnB = vec('embeddings.LayerNorm.bias', H);
  const layers: Layer[] = [];
  for (let l = 0; l < config.num_hidden_layers; l++) {
    const p = `encoder.layer.${l}.`;
    layers.push({
      qkv: linear(
        ['query', 'key', 'value'].map((x) => `${p}attention.self.${x}.weight`),
        H,
        H,
      ),
      qkvb: kernel.putF32(
        Float32Array.from(
          ['query', 'key', 'value'].flatMap((x) => [
            ...get(`${p}attention.self.${x}.bias`, [H]).data,
          ]),
        ),
      ),
      o: linear([`${p}attention.output.dense.weight`], H, H),
      ob: vec(`${p}attention.output.dense.bias`, H),
      ln1g: vec(`${p}attention.output.LayerNorm.weight`, H),
      ln1b: vec(`${p}attention.output.LayerNorm.bias`, H),
      i: linear([`${p}intermediate.dense.weight`], I, H),
      ib: vec(`${p}intermediate.dense.bias`, I),
      out: linear([`${p}output.dense.weight`], H, I),
      outb: vec(`${p}output.dense.bias`, H),
      ln2g: vec(`${p}output.LayerNorm.weight`, H),
      ln2b: vec(`${p}output.LayerNorm.bias`, H),
    });
  }
  return { wordEmb, posEmb, typeEmb, embLnG, embLnB, layers };
}
