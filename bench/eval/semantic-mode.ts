// The `semantic` eval mode: canonical USE-lite int16 vectors (workers/embed) over the ingest
// chunker, exact search by int32 dot product in the wasm runtime, document score = MAX over its
// chunks. Options: --model use-lite (only model so far), --threads N (embedding threads, default
// 1), --titles all|none (prepend the title to every chunk; default all).
// Vectors are cached in .cache/embed/ keyed by model + version + text hash, so reruns are fast.
import { chunkText } from '../../workers/ingest/chunk';
import { createNodeKernel, readUseLiteFile } from '../../workers/embed/node-kernel';
import {
  loadUseLite,
  USE_LITE_DIM,
  USE_LITE_MODEL_ID,
  USE_LITE_MODEL_VERSION,
  type UseLiteModel,
} from '../../workers/embed/use-lite';
import { embedAllCached, openEmbedCache } from '../embed-cache';
import type { RankedDoc, Retriever, RetrieverFactory } from './modes';

export const createSemanticRetriever: RetrieverFactory = async (options) => {
  const modelName = options.model ?? USE_LITE_MODEL_ID;
  if (modelName !== USE_LITE_MODEL_ID) {
    throw new Error(`--model ${modelName} is not available yet; the canonical path has: use-lite`);
  }
  const threads = Math.max(1, Number(options.threads ?? 1));
  const withTitles = (options.titles ?? 'all') !== 'none';
  const dim = USE_LITE_DIM;
  const cache = openEmbedCache(USE_LITE_MODEL_ID, USE_LITE_MODEL_VERSION, dim);
  const kernel = await createNodeKernel();
  let matrix = 0;
  let chunkDoc: string[] = [];
  let scores = 0;
  let model: UseLiteModel | null = null;

  const retriever: Retriever = {
    async index(docs, onProgress) {
      const texts: string[] = [];
      chunkDoc = [];
      for (const doc of docs) {
        const body = doc.text.trim().length > 0 ? doc.text : doc.title;
        for (const c of chunkText(body)) {
          texts.push(withTitles && doc.title ? `${doc.title}\n${c.text}` : c.text);
          chunkDoc.push(doc.id);
        }
      }
      const t0 = performance.now();
      const cachedBefore = texts.filter((t) => cache.get(t)).length;
      const vectors = await embedAllCached(texts, cache, threads, (done, total) =>
        onProgress?.(Math.round((done / total) * docs.length), docs.length),
      );
      const secs = (performance.now() - t0) / 1000;
      process.stderr.write(
        `\n[semantic] embedded ${texts.length - cachedBefore} chunks (${cachedBefore} cached) in ${secs.toFixed(1)} s with ${threads} thread(s)\n`,
      );
      matrix = kernel.alloc(texts.length * dim * 2);
      const view = kernel.i16(matrix, texts.length * dim);
      vectors.forEach((v, i) => view.set(v, i * dim));
      scores = kernel.alloc(texts.length * 4);
      return { documents: docs.length, chunks: texts.length };
    },
    async search(query, k) {
      let q = cache.get(query);
      if (!q) {
        // Queries are embedded in-process (same canonical bytes as the threads).
        model ??= await loadUseLite(kernel, readUseLiteFile);
        q = model.embedInt16(query);
        cache.put(query, q);
      }
      const m = kernel.mark();
      const pq = kernel.putI16(q);
      kernel.dotI16Many(pq, matrix, chunkDoc.length, dim, scores);
      const s = kernel.i32(scores, chunkDoc.length);
      const best = new Map<string, number>();
      for (let i = 0; i < chunkDoc.length; i++) {
        const id = chunkDoc[i]!;
        const prev = best.get(id);
        if (prev === undefined || s[i]! > prev) best.set(id, s[i]!);
      }
      kernel.release(m);
      const ranked: RankedDoc[] = [...best]
        .map(([docId, dot]) => ({ docId, score: dot / (32767 * 32767) }))
        .sort((a, b) => b.score - a.score || (a.docId < b.docId ? -1 : 1));
      return ranked.slice(0, k);
    },
    async close() {},
  };
  return retriever;
};
