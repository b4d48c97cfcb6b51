// Exports a BERT-family encoder from its safetensors weights to an ONNX graph, so an independent
// runtime (onnxruntime, through transformers.js in the Models page self-test) can embed with the
// very weights the canonical runtime uses, on this device and offline. The graph is the standard
// Hugging Face BertModel forward pass written with stock ONNX operators (opset 17): embeddings
// (word + position + token type), post-LayerNorm encoder layers, exact (erf) GELU, additive
// attention mask of float32's lowest value. Inputs input_ids / attention_mask / token_type_ids
// [batch, sequence] int64; output last_hidden_state [batch, sequence, hidden]. Pooling and
// normalisation are left to the caller, as in the hub's ONNX exports.
// Must not import Node modules.
import { createError } from '../shared/errors';
import type { BertConfig } from './bert';
import { expectedBertTensors } from './bert-files';
import { encodeOnnxModel, type OnnxNode, type OnnxTensor } from './onnx-writer';
import type { Tensor } from './safetensors';

export const BERT_ONNX_OPSET = 17;

/** The graph being written: its nodes and initializers, and the helpers that add to them. */
interface GraphBuilder {
  readonly nodes: OnnxNode[];
  readonly initializers: OnnxTensor[];
  /** A weight as it is stored. */
  init(name: string): string;
  /** A Linear weight [out, in] transposed to [in, out] for MatMul, as torch.onnx exports do. */
  initTransposed(name: string): string;
  constFloat(name: string, value: number): string;
  constInts(name: string, values: number[], dims?: number[]): string;
  /** Adds a node and returns the name of its (single) output. */
  op(type: string, inputs: string[], attrs?: OnnxNode['attrs']): string;
  layerNorm(x: string, name: string): string;
  /** x @ weight^T + bias of the Linear layer `name`. */
  linear(x: string, name: string): string;
}

/** @throws AppError MODEL_LOAD_FAILED (from init) when a tensor is missing or mis-shaped */
function createGraphBuilder(config: BertConfig, tensors: Map<string, Tensor>): GraphBuilder {
  const prefix = tensors.has('embeddings.word_embeddings.weight') ? '' : 'bert.';
  const shapes = new Map(expectedBertTensors(config));
  const initializers: OnnxTensor[] = [];
  const nodes: OnnxNode[] = [];

  function weight(name: string): Tensor {
    const t = tensors.get(prefix + name);
    if (!t || t.shape.join('x') !== shapes.get(name)?.join('x')) {
      throw createError('MODEL_LOAD_FAILED', {
        reason: `Tensor ${name} is missing or has the wrong shape.`,
      });
    }
    return t;
  }
  function init(name: string): string {
    const t = weight(name);
    initializers.push({ name, dims: t.shape, type: 'float', data: t.data });
    return name;
  }
  function initTransposed(name: string): string {
    const t = weight(name);
    const [rows, cols] = t.shape as [number, number];
    const out = new Float32Array(rows * cols);
    for (let r = 0; r < rows; r++)
      for (let c = 0; c < cols; c++) out[c * rows + r] = t.data[r * cols + c]!;
    initializers.push({ name: `${name}.T`, dims: [cols, rows], type: 'float', data: out });
    return `${name}.T`;
  }
  let counter = 0;
  function op(type: string, inputs: string[], attrs?: OnnxNode['attrs']): string {
    const out = `${type.toLowerCase()}_${counter++}`;
    nodes.push({ op: type, inputs, outputs: [out], ...(attrs ? { attrs } : {}) });
    return out;
  }
  return {
    nodes,
    initializers,
    init,
    initTransposed,
    constFloat(name, value) {
      initializers.push({ name, dims: [], type: 'float', data: Float32Array.of(value) });
      return name;
    },
    constInts(name, values, dims = [values.length]) {
      initializers.push({ name, dims, type: 'int64', data: BigInt64Array.from(values, BigInt) });
      return name;
    },
    op,
    layerNorm: (x, name) =>
      op('LayerNormalization', [x, init(`${name}.weight`), init(`${name}.bias`)], {
        axis: { i: -1 },
        epsilon: { f: config.layer_norm_eps },
      }),
    linear: (x, name) =>
      op('Add', [op('MatMul', [x, initTransposed(`${name}.weight`)]), init(`${name}.bias`)]),
  };
}

/** Word + token type + position embeddings (positions 0..sequence-1), layer-normed. */
function embeddings(g: GraphBuilder): string {
  const zero = g.constInts('zero', [0], []);
  const one = g.constInts('one', [1], []);
  const seqLen = g.op('Gather', [g.op('Shape', ['input_ids']), one], { axis: { i: 0 } });
  const positions = g.op('Range', [zero, seqLen, one]);
  const words = g.op('Gather', [g.init('embeddings.word_embeddings.weight'), 'input_ids']);
  const types = g.op('Gather', [
    g.init('embeddings.token_type_embeddings.weight'),
    'token_type_ids',
  ]);
  const pos = g.op('Gather', [g.init('embeddings.position_embeddings.weight'), positions]);
  return g.layerNorm(g.op('Add', [g.op('Add', [words, types]), pos]), 'embeddings.LayerNorm');
}

/** Names of the constants every encoder layer reads. */
interface LayerConstants {
  oneF: string;
  /** (1 - mask) * lowest float, broadcast over heads and query positions: [batch, 1, 1, sequence]. */
  maskBias: string;
  splitHeads: string;
  joinHeads: string;
  sqrtHeadDim: string;
  sqrt2: string;
  half: string;
}

function layerConstants(g: GraphBuilder, config: BertConfig): LayerConstants {
  const H = config.hidden_size;
  const heads = config.num_attention_heads;
  const headDim = H / heads;
  const oneF = g.constFloat('one_f', 1);
  const maskF = g.op('Cast', ['attention_mask'], { to: { i: 1 } });
  const maskBias = g.op('Mul', [
    g.op('Sub', [oneF, g.op('Unsqueeze', [maskF, g.constInts('axes_1_2', [1, 2])])]),
    g.constFloat('lowest_f', -3.4028234663852886e38),
  ]);
  return {
    oneF,
    maskBias,
    splitHeads: g.constInts('split_heads', [0, 0, heads, headDim]),
    joinHeads: g.constInts('join_heads', [0, 0, H]),
    sqrtHeadDim: g.constFloat('sqrt_head_dim', Math.sqrt(headDim)),
    sqrt2: g.constFloat('sqrt_2', Math.SQRT2),
    half: g.constFloat('half', 0.5),
  };
}

/** Encoder layer `l` (post-LayerNorm, erf GELU) over hidden states `x`. */
function encoderLayer(g: GraphBuilder, c: LayerConstants, x: string, l: number): string {
  const p = `encoder.layer.${l}.`;
  const { op, linear, layerNorm } = g;
  const heads4 = (t: string, perm: number[]) =>
    op('Transpose', [op('Reshape', [t, c.splitHeads])], { perm: { ints: perm } });
  const q = heads4(linear(x, `${p}attention.self.query`), [0, 2, 1, 3]);
  const k = heads4(linear(x, `${p}attention.self.key`), [0, 2, 3, 1]);
  const v = heads4(linear(x, `${p}attention.self.value`), [0, 2, 1, 3]);
  const scores = op('Add', [op('Div', [op('MatMul', [q, k]), c.sqrtHeadDim]), c.maskBias]);
  const probs = op('Softmax', [scores], { axis: { i: -1 } });
  const context = op('Reshape', [
    op('Transpose', [op('MatMul', [probs, v])], { perm: { ints: [0, 2, 1, 3] } }),
    c.joinHeads,
  ]);
  const attended = layerNorm(
    op('Add', [linear(context, `${p}attention.output.dense`), x]),
    `${p}attention.output.LayerNorm`,
  );
  // GELU, erf form: 0.5 * h * (1 + erf(h / sqrt 2)).
  const h = linear(attended, `${p}intermediate.dense`);
  const gelu = op('Mul', [
    op('Mul', [h, op('Add', [op('Erf', [op('Div', [h, c.sqrt2])]), c.oneF])]),
    c.half,
  ]);
  return layerNorm(op('Add', [linear(gelu, `${p}output.dense`), attended]), `${p}output.LayerNorm`);
}

/** The ONNX model's bytes. @throws AppError MODEL_LOAD_FAILED when a tensor is missing or mis-shaped */
export function bertToOnnx(config: BertConfig, tensors: Map<string, Tensor>): Uint8Array {
  const g = createGraphBuilder(config, tensors);
  let x = embeddings(g);
  const constants = layerConstants(g, config);
  for (let l = 0; l < config.num_hidden_layers; l++) x = encoderLayer(g, constants, x, l);
  g.nodes.push({ op: 'Identity', inputs: [x], outputs: ['last_hidden_state'] });

  const ids = (name: string) => ({
    name,
    type: 'int64' as const,
    shape: ['batch_size', 'sequence_length'],
  });
  return encodeOnnxModel(
    {
      name: 'sift_bert_export',
      nodes: g.nodes,
      initializers: g.initializers,
      inputs: [ids('input_ids'), ids('attention_mask'), ids('token_type_ids')],
      outputs: [
        {
          name: 'last_hidden_state',
          type: 'float',
          shape: ['batch_size', 'sequence_length', config.hidden_size],
        },
      ],
    },
    { opset: BERT_ONNX_OPSET, producer: 'sift bert-onnx' },
  );
}
