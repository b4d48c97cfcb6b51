// The verifier bundle as the runtime reads it (ml/verifier/FORMAT.md): config.json checked for
// format and version, vocab.txt made into the BERT uncased WordPiece tokenizer, and
// model.safetensors' int8 matrices dequantised (q * scale per row, one f32 multiply each) into the
// tensor map loadBert takes, beside the F32 heads. Every fault is a VERIFIER_* AppError.
// Must not import Node modules or storage.
import { createError } from '../shared/errors';
import type { BertConfig } from '../embed/bert';
import { expectedBertTensors } from '../embed/bert-files';
import { parseSafetensors, type Tensor } from '../embed/safetensors';
import { createWordPieceTokenizer, type WordPieceTokenizer } from '../embed/wordpiece';

/** The bundle version this runtime reads (the folder is sift-verifier-v<version>). */
export const VERIFIER_FORMAT = 'sift-verifier';
export const VERIFIER_VERSION = 1;
export const VERIFIER_ID = `sift-verifier-v${VERIFIER_VERSION}`;
/** The files of a bundle besides manifest.json, small ones first. */
export const VERIFIER_FILES = ['config.json', 'vocab.txt', 'model.safetensors'] as const;
export type VerifierFileName = (typeof VERIFIER_FILES)[number];

export interface VerifierConfig extends BertConfig {
  format: string;
  version: number;
  base?: string;
  do_lower_case: boolean;
  /** The whole sequence's length, [CLS] a [SEP] b [SEP]. */
  max_length: number;
  /** Word pieces of `a` kept before `b` is cut. */
  max_length_a: number;
  heads: { stance: string[]; relevance: string[] };
}

/** What the pair model loads: the encoder's tensors (dequantised), the heads, the tokenizer. */
export interface VerifierBundle {
  config: VerifierConfig;
  tokenizer: WordPieceTokenizer;
  tensors: Map<string, Tensor>;
  /** [3, H] and [3]: SUPPORT, CONTRADICT, NEI. */
  stance: { weight: Float32Array; bias: Float32Array };
  /** [1, H] and [1]. */
  relevance: { weight: Float32Array; bias: Float32Array };
}

const STANCE_LABELS = ['SUPPORT', 'CONTRADICT', 'NEI'];
const corrupt = (reason: string) => createError('VERIFIER_CORRUPT', { reason });

/**
 * @throws AppError VERIFIER_VERSION for another format or version, VERIFIER_CORRUPT for a config
 * the runtime cannot run
 */
export function parseVerifierConfig(text: string): VerifierConfig {
  let c: Partial<VerifierConfig>;
  try {
    c = JSON.parse(text) as Partial<VerifierConfig>;
  } catch {
    throw corrupt('The verifier config.json is not JSON.');
  }
  if (c.format !== VERIFIER_FORMAT || c.version !== VERIFIER_VERSION) {
    throw createError('VERIFIER_VERSION', {
      reason: `The verifier files are ${String(c.format)} version ${String(c.version)}; this app reads ${VERIFIER_FORMAT} version ${VERIFIER_VERSION}.`,
    });
  }
  const ints = [
    'vocab_size',
    'hidden_size',
    'num_hidden_layers',
    'num_attention_heads',
    'intermediate_size',
    'max_position_embeddings',
    'type_vocab_size',
    'max_length',
    'max_length_a',
  ] as const;
  for (const k of ints) {
    const v = c[k];
    if (typeof v !== 'number' || !Number.isInteger(v) || v <= 0) {
      throw corrupt(`The verifier config.json has no valid ${k}.`);
    }
  }
  const H = c.hidden_size!;
  if (H % c.num_attention_heads! !== 0 || H % 32 !== 0 || c.intermediate_size! % 32 !== 0) {
    throw corrupt(`The verifier's sizes (${H}, ${c.intermediate_size}) do not fit the runtime.`);
  }
  if ((c.hidden_act ?? 'gelu') !== 'gelu' || c.type_vocab_size! < 2) {
    throw corrupt('The verifier needs GELU and two token types.');
  }
  if (c.max_length! > c.max_position_embeddings! || c.max_length_a! + 3 > c.max_length!) {
    throw corrupt('The verifier config.json has a window longer than its positions.');
  }
  if (c.heads?.stance?.join() !== STANCE_LABELS.join() || c.heads.relevance?.length !== 1) {
    throw createError('VERIFIER_VERSION', {
      reason: `The verifier's heads are ${JSON.stringify(c.heads)}; this app reads stance ${STANCE_LABELS.join('/')} and one relevance output.`,
    });
  }
  return { layer_norm_eps: 1e-12, do_lower_case: true, ...c } as VerifierConfig;
}

/** vocab.txt (one token a line, id = line number) as the WordPiece tokenizer. */
export function vocabTokenizer(text: string, lowercase: boolean): WordPieceTokenizer {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const vocab = Object.create(null) as Record<string, number>;
  lines.forEach((t, i) => {
    const tok = t.replace(/\r$/, '');
    if (!(tok in vocab)) vocab[tok] = i;
  });
  for (const special of ['[CLS]', '[SEP]', '[UNK]']) {
    if (!(special in vocab)) throw corrupt(`The verifier vocab.txt has no ${special}.`);
  }
  return createWordPieceTokenizer({
    normalizer: {
      type: 'BertNormalizer',
      clean_text: true,
      handle_chinese_chars: true,
      strip_accents: null,
      lowercase,
    },
    model: {
      type: 'WordPiece',
      vocab,
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
    },
  });
}

/**
 * The encoder tensors with every int8 matrix dequantised, and the heads.
 * @throws AppError VERIFIER_CORRUPT naming the first missing, mis-typed or mis-shaped tensor
 */
export function dequantiseVerifierTensors(
  raw: Map<string, Tensor>,
  config: VerifierConfig,
): Pick<VerifierBundle, 'tensors' | 'stance' | 'relevance'> {
  const H = config.hidden_size;
  const tensors = new Map<string, Tensor>();
  const shapeOf = (t: Tensor | undefined) => t?.shape.join('x') ?? 'missing';
  for (const [name, shape] of expectedBertTensors(config)) {
    const t = raw.get(name);
    if (!t || t.shape.join('x') !== shape.join('x')) {
      throw corrupt(`Tensor ${name} is ${shapeOf(t)}, not ${shape.join('x')}.`);
    }
    if (shape.length === 1) {
      if (t.dtype !== 'F32') throw corrupt(`Tensor ${name} is ${t.dtype}, not F32.`);
      tensors.set(name, t);
      continue;
    }
    const scale = raw.get(`${name}.scale`);
    if (t.dtype !== 'I8' || !scale || scale.dtype !== 'F32' || shapeOf(scale) !== `${shape[0]}`) {
      throw corrupt(`Tensor ${name} is not int8 with an F32 .scale of ${shape[0]} rows.`);
    }
    const [rows, cols] = shape as [number, number];
    const data = new Float32Array(rows * cols);
    for (let r = 0; r < rows; r++) {
      const s = scale.data[r]!;
      // One IEEE f32 product per value (Math.fround), as PyTorch's q.float() * scale does.
      for (let c = 0; c < cols; c++) data[r * cols + c] = Math.fround(t.data[r * cols + c]! * s);
    }
    tensors.set(name, { shape, data, dtype: 'F32' });
  }
  const head = (name: string, shape: number[]) => {
    const t = raw.get(name);
    if (!t || t.dtype !== 'F32' || t.shape.join('x') !== shape.join('x')) {
      throw corrupt(
        `Head tensor ${name} is ${shapeOf(t)} ${t?.dtype ?? ''}, not F32 ${shape.join('x')}.`,
      );
    }
    return t.data;
  };
  return {
    tensors,
    stance: { weight: head('heads.stance.weight', [3, H]), bias: head('heads.stance.bias', [3]) },
    relevance: {
      weight: head('heads.relevance.weight', [1, H]),
      bias: head('heads.relevance.bias', [1]),
    },
  };
}

/**
 * Reads a bundle's three files (already checked against the manifest by the caller).
 * @throws AppError VERIFIER_VERSION, VERIFIER_CORRUPT
 */
export function readVerifierBundle(files: {
  config: string;
  vocab: string;
  weights: ArrayBuffer | Uint8Array;
}): VerifierBundle {
  const config = parseVerifierConfig(files.config);
  const tokenizer = vocabTokenizer(files.vocab, config.do_lower_case);
  if (tokenizer.vocabSize > config.vocab_size) {
    throw corrupt('The verifier vocab.txt has more tokens than config.json vocab_size.');
  }
  let raw: Map<string, Tensor>;
  try {
    raw = parseSafetensors(files.weights);
  } catch (cause) {
    throw createError('VERIFIER_CORRUPT', {
      reason: 'The verifier model.safetensors cannot be read.',
      cause,
    });
  }
  return { config, tokenizer, ...dequantiseVerifierTensors(raw, config) };
}
