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

/** The ONNX model's bytes. @throws AppError MODEL_LOAD_FAILED when a tensor is missing or mis-shaped */
export function bertToOnnx(config: BertConfig, tensors: Map<string, Tensor>): Uint8Array {
  const H = config.hidden_size;
  const heads = config.num_attention_heads;
  const headDim = H / heads;
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
  /** A weight as it is stored. */
  function init(name: string): string {
    const t = weight(name);
    initializers.push({ name, dims: t.shape, type: 'float', data: t.data });
    return name;
  }
  /** A Linear weight [out, in] transposed to [in, out] for MatMul, as torch.onnx exports do. */
  function initTransposed(name: string): string {
    const t = weight(name);
    const [rows, cols] = t.shape as [number, number];
    const out = new Float32Array(rows * cols);
    for (let r = 0; r < rows; r++)
      for (let c = 0; c < cols; c++) out[c * rows + r] = t.data[r * cols + c]!;
    initializers.push({ name: `${name}.T`, dims: [cols, rows], type: 'float', data: out });
    return `${name}.T`;
  }
  function constFloat(name: string, value: number): string {
    initializers.push({ name, dims: [], type: 'float', data: Float32Array.of(value) });
    return name;
  }
  function constInts(name: string, values: number[], dims = [values.length]): string {
    initializers.push({ name, dims, type: 'int64', data: BigInt64Array.from(values, BigInt) });
    return name;
  }
  let counter = 0;
  /** Adds a node and returns the name of its (single) output. */
  function op(type: string, inputs: string[], attrs?: OnnxNode['attrs']): string {
    const out = `${type.toLowerCase()}_${counter++}`;
    nodes.push({ op: type, inputs, outputs: [out], ...(attrs ? { attrs } : {}) });
    return out;
  }
  const layerNorm = (x: string, name: string) =>
    op('LayerNormalization', [x, init(`${name}.weight`), init(`${name}.bias`)], {
      axis: { i: -1 },
      epsilon: { f: config.layer_norm_eps },
    });
  const linear = (x: string, name: string) =>
    op('Add', [op('MatMul', [x, initTransposed(`${name}.weight`)]), init(`${name}.bias`)]);

  // Embeddings: positions 0..sequence-1, gathered from the table.
  const zero = constInts('zero', [0], []);
  const one = constInts('one', [1], []);
  const seqLen = op('Gather', [op('Shape', ['input_ids']), one], { axis: { i: 0 } });
  const positions = op('Range', [zero, seqLen, one]);
  const words = op('Gather', [init('embeddings.word_embeddings.weight'), 'input_ids']);
  const types = op('Gather', [init('embeddings.token_type_embeddings.weight'), 'token_type_ids']);
  const pos = op('Gather', [init('embeddings.position_embeddings.weight'), positions]);
  let x = layerNorm(op('Add', [op('Add', [words, types]), pos]), 'embeddings.LayerNorm');

  // (1 - mask) * lowest float, broadcast over heads and query positions: [batch, 1, 1, sequence].
  const oneF = constFloat('one_f', 1);
  const maskF = op('Cast', ['attention_mask'], { to: { i: 1 } });
  const maskBias = op('Mul', [
    op('Sub', [oneF, op('Unsqueeze', [maskF, constInts('axes_1_2', [1, 2])])]),
    constFloat('lowest_f', -3.4028234663852886e38),
  ]);
  const splitHeads = constInts('split_heads', [0, 0, heads, headDim]);
  const joinHeads = constInts('join_heads', [0, 0, H]);
  const sqrtHeadDim = constFloat('sqrt_head_dim', Math.sqrt(headDim));
  const sqrt2 = constFloat('sqrt_2', Math.SQRT2);
  const half = constFloat('half', 0.5);

  for (let l = 0; l < config.num_hidden_layers; l++) {
    const p = `encoder.layer.${l}.`;
    const heads4 = (t: string, perm: number[]) =>
      op('Transpose', [op('Reshape', [t, splitHeads])], { perm: { ints: perm } });
    const q = heads4(linear(x, `${p}attention.self.query`), [0, 2, 1, 3]);
    const k = heads4(linear(x, `${p}attention.self.key`), [0, 2, 3, 1]);
    const v = heads4(linear(x, `${p}attention.self.value`), [0, 2, 1, 3]);
    const scores = op('Add', [op('Div', [op('MatMul', [q, k]), sqrtHeadDim]), maskBias]);
    const probs = op('Softmax', [scores], { axis: { i: -1 } });
    const context = op('Reshape', [
      op('Transpose', [op('MatMul', [probs, v])], { perm: { ints: [0, 2, 1, 3] } }),
      joinHeads,
    ]);
    const attended = layerNorm(
      op('Add', [linear(context, `${p}attention.output.dense`), x]),
      `${p}attention.output.LayerNorm`,
    );
    // GELU, erf form: 0.5 * h * (1 + erf(h / sqrt 2)).
    const h = linear(attended, `${p}intermediate.dense`);
    const gelu = op('Mul', [
      op('Mul', [h, op('Add', [op('Erf', [op('Div', [h, sqrt2])]), oneF])]),
      half,
    ]);
    x = layerNorm(op('Add', [linear(gelu, `${p}output.dense`), attended]), `${p}output.LayerNorm`);
  }
  nodes.push({ op: 'Identity', inputs: [x], outputs: ['last_hidden_state'] });

  const ids = (name: string) => ({
    name,
    type: 'int64' as const,
    shape: ['batch_size', 'sequence_length'],
  });
  return encodeOnnxModel(
    {
      name: 'sift_bert_export',
      nodes,
      initializers,
      inputs: [ids('input_ids'), ids('attention_mask'), ids('token_type_ids')],
      outputs: [
        {
          name: 'last_hidden_state',
          type: 'float',
          shape: ['batch_size', 'sequence_length', H],
        },
      ],
    },
    { opset: BERT_ONNX_OPSET, producer: 'sift bert-onnx' },
  );
}
