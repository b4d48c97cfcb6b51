// Node-side encoders for the eval and benches, by name: `use-lite` (shipped model),
// `all-MiniLM-L6-v2` (real weights from `node tools/copy-model.mjs --fetch-minilm`), or a path
// to a sentence-transformers folder (BERT models run the canonical path, BERT_CANON_REVISION
// canon.3 with int16 dense layers; the `+int16` suffix of the canon.2-era experiment is gone).
// Texts passed to `embed` already carry any model prefix (queryText / passageText), so cache keys
// are the exact model input. Node only.
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

export function modelFolder(spec: string): string | null {
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
      `${folder} does not exist: run \`node tools/copy-model.mjs --fetch-minilm\` or pass a model folder`,
    );
  }
  const m = loadBertFolder(kernel, folder);
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
