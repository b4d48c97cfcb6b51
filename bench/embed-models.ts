// Node-side encoders for the eval and benches, by name: `use-lite` (shipped model),
// `all-MiniLM-L6-v2` (real weights from `node scripts/copy-model.mjs --fetch-minilm`), or a path
// to a sentence-transformers folder; a BERT spec ending in `+int16` loads the int16 experiment
// (issue 13). Texts passed to `embed` already carry any model prefix (queryText / passageText),
// so cache keys are the exact model input. Node only.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  createNodeKernel,
  loadBertFolder,
  MINILM_DIR,
  readUseLiteFile,
} from '../workers/embed/node-kernel';
import { loadUseLite, USE_LITE_MODEL_ID } from '../workers/embed/use-lite';

export interface NodeEncoder {
  id: string;
  version: string;
  dim: number;
  queryText(text: string): string;
  passageText(text: string): string;
  embed(text: string): Int16Array;
  /** Several texts in one batched forward pass (the bytes of `embed` of each). */
  embedBatch(texts: string[]): Int16Array[];
}

/** The int16 experiment of a BERT model (issue 13): `--model all-MiniLM-L6-v2+int16`. */
export const INT16_SUFFIX = '+int16';

/** The model spec without the `+int16` suffix, and whether it asked for int16 dense layers. */
export function parseModelSpec(spec: string): { name: string; int16: boolean } {
  const int16 = spec.endsWith(INT16_SUFFIX);
  return { name: int16 ? spec.slice(0, -INT16_SUFFIX.length) : spec, int16 };
}

export function modelFolder(spec: string): string | null {
  spec = parseModelSpec(spec).name;
  if (spec === USE_LITE_MODEL_ID) return null;
  if (spec === 'all-MiniLM-L6-v2') return MINILM_DIR;
  return resolve(spec);
}

/** @throws Error when a BERT folder is missing (run the fetch script first). */
export async function loadNodeEncoder(spec: string): Promise<NodeEncoder> {
  const kernel = await createNodeKernel();
  const folder = modelFolder(spec);
  if (folder === null) {
    const m = await loadUseLite(kernel, readUseLiteFile);
    return {
      id: m.id,
      version: m.version,
      dim: m.dim,
      queryText: (t) => t,
      passageText: (t) => t,
      embed: (t) => m.embedInt16(t),
      embedBatch: (ts) => m.embedInt16Batch(ts),
    };
  }
  if (!existsSync(folder)) {
    throw new Error(
      `${folder} does not exist: run \`node scripts/copy-model.mjs --fetch-minilm\` or pass a model folder`,
    );
  }
  // The int16 path's version ends in +int16, so its vectors get a cache file of their own.
  const m = loadBertFolder(kernel, folder, parseModelSpec(spec).int16 ? { weights: 'int16' } : {});
  return {
    id: m.id,
    version: m.version,
    dim: m.dim,
    queryText: (t) => m.queryPrefix + t,
    passageText: (t) => m.passagePrefix + t,
    embed: (t) => m.embedInt16(t),
    embedBatch: (ts) => m.embedIdsBatch(ts.map((t) => m.tokenize(t))).map((v) => v.int16),
  };
}
