// Validation of a BERT-family model folder before it is stored or loaded: config.json is a BERT
// config the runtime supports, tokenizer.json is WordPiece, and the safetensors header (read
// without loading the weights) has every tensor loadBert needs with the config's shapes.
// Must not import Node modules or touch storage (callers pass Blobs).
import { createError } from '../shared/errors';
import type { BertConfig } from './bert';
import { createWordPieceTokenizer, type WordPieceTokenizer } from './wordpiece';

/** The files a BERT-family model needs, in download order (small files first). */
export const BERT_FILES = ['config.json', 'tokenizer.json', 'model.safetensors'] as const;
export type BertFileName = (typeof BERT_FILES)[number];

const fail = (reason: string) => createError('MODEL_LOAD_FAILED', { reason });

/** Every tensor loadBert reads, with its shape for `config` (names without a "bert." prefix). */
export function expectedBertTensors(config: BertConfig): Array<[name: string, shape: number[]]> {
  const H = config.hidden_size;
  const I = config.intermediate_size;
  const out: Array<[string, number[]]> = [
    ['embeddings.word_embeddings.weight', [config.vocab_size, H]],
    ['embeddings.position_embeddings.weight', [config.max_position_embeddings, H]],
    ['embeddings.token_type_embeddings.weight', [config.type_vocab_size, H]],
    ['embeddings.LayerNorm.weight', [H]],
    ['embeddings.LayerNorm.bias', [H]],
  ];
  for (let l = 0; l < config.num_hidden_layers; l++) {
    const p = `encoder.layer.${l}.`;
    for (const n of ['attention.self.query', 'attention.self.key', 'attention.self.value']) {
      out.push([`${p}${n}.weight`, [H, H]], [`${p}${n}.bias`, [H]]);
    }
    out.push(
      [`${p}attention.output.dense.weight`, [H, H]],
      [`${p}attention.output.dense.bias`, [H]],
      [`${p}attention.output.LayerNorm.weight`, [H]],
      [`${p}attention.output.LayerNorm.bias`, [H]],
      [`${p}intermediate.dense.weight`, [I, H]],
      [`${p}intermediate.dense.bias`, [I]],
      [`${p}output.dense.weight`, [H, I]],
      [`${p}output.dense.bias`, [H]],
      [`${p}output.LayerNorm.weight`, [H]],
      [`${p}output.LayerNorm.bias`, [H]],
    );
  }
  return out;
}

/** @throws AppError MODEL_LOAD_FAILED when config.json is not a supported BERT config. */
export function parseBertConfig(text: string): BertConfig {
  let c: Partial<BertConfig> & { model_type?: string };
  try {
    c = JSON.parse(text) as typeof c;
  } catch {
    throw fail('config.json is not JSON.');
  }
  const ints = [
    'vocab_size',
    'hidden_size',
    'num_hidden_layers',
    'num_attention_heads',
    'intermediate_size',
    'max_position_embeddings',
    'type_vocab_size',
  ] as const;
  for (const k of ints) {
    const v = c[k];
    if (typeof v !== 'number' || !Number.isInteger(v) || v <= 0) {
      throw fail(`config.json has no valid ${k}; pick the folder of a BERT-family model.`);
    }
  }
  if (c.model_type && c.model_type !== 'bert') {
    throw fail(`config.json is a ${c.model_type} model; only BERT-family models are supported.`);
  }
  if ((c.hidden_act ?? 'gelu') !== 'gelu') {
    throw fail(`Activation ${c.hidden_act} is not supported (only gelu).`);
  }
  // The int16 dense layers (matmulI16) sum over 32-k blocks: every input width (hidden and
  // intermediate size) must be a multiple of 32 (e.g. TinyBERT's 312 is not).
  if (c.hidden_size! % c.num_attention_heads! !== 0 || c.hidden_size! % 32 !== 0) {
    throw fail(
      `config.json has a hidden size (${c.hidden_size}) the runtime does not support: it needs a multiple of 32 that the attention heads divide.`,
    );
  }
  if (c.intermediate_size! % 32 !== 0) {
    throw fail(
      `config.json has an intermediate size (${c.intermediate_size}) the runtime does not support: it needs a multiple of 32.`,
    );
  }
  return { layer_norm_eps: 1e-12, ...c } as BertConfig;
}

/** @throws AppError MODEL_LOAD_FAILED when tokenizer.json is not a WordPiece tokenizer. */
export function parseWordPieceTokenizer(text: string): WordPieceTokenizer {
  let json: Parameters<typeof createWordPieceTokenizer>[0];
  try {
    json = JSON.parse(text) as typeof json;
  } catch {
    throw fail('tokenizer.json is not JSON.');
  }
  if (!json?.model || json.model.type !== 'WordPiece' || typeof json.model.vocab !== 'object') {
    throw fail(
      `tokenizer.json is a ${json?.model?.type ?? 'unknown'} tokenizer; BERT-family models need WordPiece.`,
    );
  }
  return createWordPieceTokenizer(json);
}

interface HeaderEntry {
  dtype?: string;
  shape?: number[];
  data_offsets?: [number, number];
}

/**
 * Reads only the safetensors header of `file` and checks it against `config`.
 * @throws AppError MODEL_LOAD_FAILED naming the first missing or mis-shaped tensor
 */
export async function checkSafetensorsHeader(file: Blob, config: BertConfig): Promise<void> {
  if (file.size < 8) throw fail('model.safetensors is too short.');
  const len = Number(new DataView(await file.slice(0, 8).arrayBuffer()).getBigUint64(0, true));
  if (len <= 0 || len > Math.min(file.size - 8, 100_000_000)) {
    throw fail('model.safetensors has an invalid header length (is it a safetensors file?).');
  }
  let header: Record<string, HeaderEntry>;
  try {
    header = JSON.parse(await file.slice(8, 8 + len).text()) as typeof header;
  } catch {
    throw fail('The model.safetensors header is not JSON.');
  }
  const prefix = header['embeddings.word_embeddings.weight'] ? '' : 'bert.';
  const dataSize = file.size - 8 - len;
  for (const [name, shape] of expectedBertTensors(config)) {
    const e = header[prefix + name];
    if (!e || !Array.isArray(e.shape) || e.shape.join('x') !== shape.join('x')) {
      throw fail(
        `model.safetensors: tensor ${name} is missing or is not ${shape.join('x')} as config.json says.`,
      );
    }
    const width = e.dtype === 'F32' ? 4 : e.dtype === 'F16' || e.dtype === 'BF16' ? 2 : 0;
    const [b, end] = e.data_offsets ?? [0, -1];
    if (!width || end - b !== shape.reduce((a, x) => a * x, 1) * width || end > dataSize) {
      throw fail(`model.safetensors: tensor ${name} has an unsupported type or is truncated.`);
    }
  }
}

/**
 * Validates a complete model folder.
 * @throws AppError MODEL_LOAD_FAILED naming the file that is missing or wrong
 */
export async function validateBertFiles(
  files: Partial<Record<BertFileName, Blob>>,
): Promise<{ config: BertConfig; tokenizer: WordPieceTokenizer }> {
  for (const name of BERT_FILES) {
    if (!files[name]) throw fail(`${name} is missing; the folder needs ${BERT_FILES.join(', ')}.`);
  }
  const config = parseBertConfig(await files['config.json']!.text());
  const tokenizer = parseWordPieceTokenizer(await files['tokenizer.json']!.text());
  if (tokenizer.vocabSize > config.vocab_size) {
    throw fail('tokenizer.json has more tokens than config.json vocab_size: files of two models?');
  }
  await checkSafetensorsHeader(files['model.safetensors']!, config);
  return { config, tokenizer };
}

/**
 * Picks a model's files from a picked folder whatever order the browser lists them in. A
 * sentence-transformers folder also holds `1_Pooling/config.json` (and older ones
 * `0_Transformer/…`): the files come from the shallowest directory holding all of BERT_FILES,
 * so a pooling config is never read as the model's config. Paths use "/" or "\".
 * @returns the picked files, or the names missing from every directory
 */
export function pickBertFiles<T>(
  files: ReadonlyArray<{ name: string; data: T }>,
): { picked: Record<BertFileName, T> } | { missing: BertFileName[] } {
  const dirs = new Map<string, Map<string, T>>();
  for (const f of files) {
    const parts = f.name.split(/[\\/]/);
    const base = parts.pop() ?? f.name;
    const dir = parts.join('/');
    if (!dirs.has(dir)) dirs.set(dir, new Map());
    const inDir = dirs.get(dir)!;
    if (!inDir.has(base)) inDir.set(base, f.data);
  }
  const depth = (d: string) => (d === '' ? 0 : d.split('/').length);
  const ordered = [...dirs.entries()].sort(
    ([a], [b]) => depth(a) - depth(b) || (a < b ? -1 : a > b ? 1 : 0),
  );
  const complete = ordered.find(([, m]) => BERT_FILES.every((n) => m.has(n)));
  if (complete) {
    const m = complete[1];
    return {
      picked: Object.fromEntries(BERT_FILES.map((n) => [n, m.get(n)!])) as Record<BertFileName, T>,
    };
  }
  // Name what the most complete (then shallowest) directory lacks.
  let best: BertFileName[] = [...BERT_FILES];
  for (const [, m] of ordered) {
    const missing = BERT_FILES.filter((n) => !m.has(n));
    if (missing.length < best.length) best = missing;
  }
  return { missing: best };
}
