// Node-side embedding for the eval and benches: an on-disk cache of canonical int16 vectors keyed
// by model id + version + SHA-256 of the text (.cache/embed/<model>@<version>.bin, append-only
// records of [32-byte hash][dim x int16 LE]), and worker threads that embed misses on the app's
// embed-worker pool (workers/embed/pool.ts).
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
import { createEmbedPool, type PoolWorker } from '../workers/embed/pool';
import { createError } from '../workers/shared/errors';

export interface EmbedCache {
  get(text: string): Int16Array | undefined;
  put(text: string, v: Int16Array): void;
  size(): number;
}

export function textKey(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * `folder` under .cache/: tasks that embed other texts than the corpus keep their own file.
 * EMBED_CACHE_DIR (an absolute folder) replaces .cache/ for one run, so a run that embeds new
 * texts can append to a private copy while others read the shared file (two writers corrupt it).
 */
export function openEmbedCache(
  modelId: string,
  version: string,
  dim: number,
  folder = 'embed',
): EmbedCache {
  const dir = join(process.env.EMBED_CACHE_DIR || join(REPO_ROOT, '.cache'), folder);
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
 * Embeds `texts` with `threads` worker threads (each loads the runtime and model) on the app's
 * embed-worker pool (workers/embed/pool.ts: batches, order, retry on a fresh thread when one
 * dies), using and filling the cache. Vectors do not depend on which thread computed them.
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
  const cached = texts.length - texts.filter((_, i) => !out[i]).length;
  onProgress?.(cached, texts.length);
  if (missing.length > 0) {
    const byText = new Map<string, Int16Array>();
    const pool = createEmbedPool({
      spawn: () => spawnEmbedThread(model),
      size: Math.max(1, Math.min(threads, missing.length)),
      batchSize: 16,
      onReplace: (err) => console.error(`[embed] a thread failed and was replaced: ${String(err)}`),
    });
    try {
      // Rounds of a few batches per thread: each round lands in the cache, so a run that is
      // stopped keeps what it embedded.
      const round = 16 * pool.size() * 8;
      for (let r = 0; r < missing.length; r += round) {
        const slice = missing.slice(r, r + round);
        const vectors = await pool.embed(slice, {
          onProgress: (p) => onProgress?.(cached + r + p.done, texts.length),
        });
        slice.forEach((t, i) => {
          byText.set(t, vectors[i]!);
          cache.put(t, vectors[i]!);
        });
      }
    } finally {
      await pool.close();
    }
    texts.forEach((t, i) => {
      out[i] ??= byText.get(t);
    });
    onProgress?.(texts.length, texts.length); // repeated texts were embedded once
  }
  return out.map((v) => v!);
}

/** A bare lab/embed-thread.ts thread for `model` (it posts 'ready' once loaded). */
export interface EmbedThreadOptions {
  queries?: boolean;
  /** Tests only: make the thread hang or crash at one batch (see lab/embed-thread.ts). */
  fault?: { kind: 'hang' | 'crash'; atBatch: number };
}

export function embedThread(model: string, options: EmbedThreadOptions = {}): Worker {
  // tsx's loader does not follow into worker threads: register it there, then import.
  const url = new URL('./embed-thread.ts', import.meta.url).href;
  return new Worker(
    `import('tsx/esm/api').then((api) => { api.register(); return import(${JSON.stringify(url)}); })`,
    {
      eval: true,
      workerData: {
        model,
        queries: options.queries === true,
        ...(options.fault ? { fault: options.fault } : {}),
      },
    },
  );
}

/**
 * One embedding thread (lab/embed-thread.ts) as a pool worker: batches are answered in order;
 * a thread that throws or exits rejects every batch it still owes (the pool retries them).
 */
export async function spawnEmbedThread(
  model: string,
  options: EmbedThreadOptions = {},
): Promise<PoolWorker> {
  const worker = embedThread(model, options);
  const owed: Array<{ resolve(v: Int16Array[]): void; reject(e: unknown): void }> = [];
  let dead: Error | null = null;
  const fail = (err: Error) => {
    dead ??= err;
    for (const p of owed.splice(0)) p.reject(err);
  };
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`The embedding thread exited (code ${code}).`)));
  await new Promise<void>((resolve, reject) => {
    worker.once('message', () => resolve());
    owed.push({ resolve: () => resolve(), reject });
  });
  owed.length = 0;
  worker.on('message', (vectors: Int16Array[]) => owed.shift()?.resolve(vectors));
  return {
    async embed(texts, { signal }) {
      if (dead) throw dead;
      const vectors = await new Promise<Int16Array[]>((resolve, reject) => {
        owed.push({ resolve, reject });
        worker.postMessage(texts);
      });
      // A thread cannot stop mid-batch: a cancel takes effect when the batch is back.
      if (signal.aborted) throw createError('ABORTED');
      return vectors;
    },
    async terminate() {
      await worker.terminate();
    },
  };
}
