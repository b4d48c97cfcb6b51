// Node-side embedding for the eval and benches: an on-disk cache of canonical int16 vectors keyed
// by model id + version + SHA-256 of the text (.cache/embed/<model>@<version>.bin, append-only
// records of [32-byte hash][dim x int16 LE]), and a pool of worker threads that embed misses.
// Node only. The product path is workers/embed (browser workers); this reuses the same modules.
import { createHash } from 'node:crypto';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  statSync,
  truncateSync,
} from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { REPO_ROOT } from '../workers/embed/node-kernel';

export interface EmbedCache {
  get(text: string): Int16Array | undefined;
  put(text: string, v: Int16Array): void;
  size(): number;
}

export function textKey(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** `folder` under .cache/: tasks that embed other texts than the corpus keep their own file. */
export function openEmbedCache(
  modelId: string,
  version: string,
  dim: number,
  folder = 'embed',
): EmbedCache {
  const dir = join(REPO_ROOT, '.cache', folder);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${modelId}@${version}.bin`);
  const rec = 32 + dim * 2;
  const map = readEmbedCacheFile(file, dim);
  // A run killed mid-append leaves a partial record: drop it so later appends stay aligned.
  const bytes = existsSync(file) ? statSync(file).size : 0;
  if (bytes % rec !== 0) truncateSync(file, bytes - (bytes % rec));
  return {
    get: (text) => map.get(textKey(text)),
    put(text, v) {
      const key = textKey(text);
      if (map.has(key)) return;
      map.set(key, v);
      const out = Buffer.alloc(rec);
      Buffer.from(key, 'hex').copy(out, 0);
      for (let i = 0; i < dim; i++) out.writeInt16LE(v[i]!, 32 + i * 2);
      appendFileSync(file, out);
    },
    size: () => map.size,
  };
}

/**
 * The complete records of a cache file (text hash hex -> vector), read only: a partial record at
 * the end (an append in progress) is ignored. Empty when the file does not exist.
 */
export function readEmbedCacheFile(file: string, dim: number): Map<string, Int16Array> {
  const map = new Map<string, Int16Array>();
  if (!existsSync(file)) return map;
  const buf = readFileSync(file);
  const rec = 32 + dim * 2;
  for (let o = 0; o + rec <= buf.length; o += rec) {
    const key = buf.subarray(o, o + 32).toString('hex');
    const v = new Int16Array(dim);
    for (let i = 0; i < dim; i++) v[i] = buf.readInt16LE(o + 32 + i * 2);
    map.set(key, v);
  }
  return map;
}

/**
 * Embeds `texts` with `threads` worker threads (each loads the runtime and model), using and
 * filling the cache. Vectors do not depend on which thread computed them (canonical path).
 */
export async function embedAllCached(
  texts: string[],
  cache: EmbedCache,
  threads: number,
  model: string,
  onProgress?: (done: number, total: number) => void,
): Promise<Int16Array[]> {
  const out: Array<Int16Array | undefined> = texts.map((t) => cache.get(t));
  const missing = [...new Set(texts.filter((_, i) => !out[i]))];
  let done = texts.length - texts.filter((_, i) => !out[i]).length;
  onProgress?.(done, texts.length);
  if (missing.length > 0) {
    const byText = new Map<string, Int16Array>();
    const n = Math.max(1, Math.min(threads, missing.length));
    const BATCH = 16;
    let next = 0;
    await Promise.all(
      Array.from({ length: n }, async () => {
        // tsx's loader does not follow into worker threads: register it there, then import.
        const url = new URL('./embed-thread.ts', import.meta.url).href;
        const worker = new Worker(
          `import('tsx/esm/api').then((api) => { api.register(); return import(${JSON.stringify(url)}); })`,
          { eval: true, workerData: { model } },
        );
        try {
          await reply<void>(worker);
          while (next < missing.length) {
            const batch = missing.slice(next, next + BATCH);
            next += batch.length;
            const vectors = await reply<Int16Array[]>(worker, batch);
            batch.forEach((t, i) => {
              byText.set(t, vectors[i]!);
              cache.put(t, vectors[i]!);
            });
            done += batch.length;
            onProgress?.(Math.min(done, texts.length), texts.length);
          }
        } finally {
          await worker.terminate();
        }
      }),
    );
    texts.forEach((t, i) => {
      out[i] ??= byText.get(t);
    });
  }
  return out.map((v) => v!);
}

/** The worker's next message (after posting `request`, if given); its error rejects. */
function reply<T>(worker: Worker, request?: unknown): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    // Listeners are removed once answered: one per batch would pile up over a corpus.
    const onError = (err: Error) => {
      worker.off('message', onMessage);
      reject(err);
    };
    const onMessage = (message: T) => {
      worker.off('error', onError);
      resolve(message);
    };
    worker.once('message', onMessage);
    worker.once('error', onError);
    if (request !== undefined) worker.postMessage(request);
  });
}
