// The `semantic` eval mode: canonical int16 vectors (workers/embed, wasm runtime), exact search
// by int32 dot product in the runtime, document score = MAX over its chunks.
// Options: --model use-lite | all-MiniLM-L6-v2 | <sentence-transformers folder> (default use-lite)
//          --threads N (embedding worker threads, default 1)
//          --chunks ingest | none (ingest: workers/ingest chunkText; none: one text per document,
//            "title text" as MTEB embeds SciFact; default ingest)
//          --titles all | none (with --chunks ingest: prepend the title to every chunk; default all)
// Vectors are cached in .cache/embed/ keyed by model + version + exact model input, so reruns are fast.
import { chunkText } from '../../workers/ingest/chunk';
import { createNodeKernel } from '../../workers/embed/node-kernel';
import { embedAllCached, openEmbedCache } from '../embed-cache';
import { loadNodeEncoder, type NodeEncoder } from '../embed-models';
import type { RankedDoc, Retriever, RetrieverFactory } from './retriever';

export const createSemanticRetriever: RetrieverFactory = async (options) => {
  const modelSpec = options.model ?? 'use-lite';
  const threads = Math.max(1, Number(options.threads ?? 1));
  const withTitles = (options.titles ?? 'all') !== 'none';
  const chunking = options.chunks ?? 'ingest';
  if (chunking !== 'ingest' && chunking !== 'none')
    throw new Error('--chunks must be ingest or none');
  // The in-process encoder embeds queries and names the cache (threads embed the corpus).
  const encoder: NodeEncoder = await loadNodeEncoder(modelSpec);
  const dim = encoder.dim;
  const cache = openEmbedCache(encoder.id, encoder.version, dim);
  const kernel = await createNodeKernel();
  let matrix = 0;
  let chunkDoc: string[] = [];
  let scores = 0;

  const retriever: Retriever = {
    async index(docs, onProgress) {
      const texts: string[] = [];
      chunkDoc = [];
      for (const doc of docs) {
        if (chunking === 'none') {
          texts.push(encoder.passageText(`${doc.title} ${doc.text}`.trim()));
          chunkDoc.push(doc.id);
          continue;
        }
        const body = doc.text.trim().length > 0 ? doc.text : doc.title;
        for (const c of chunkText(body)) {
          texts.push(
            encoder.passageText(withTitles && doc.title ? `${doc.title}\n${c.text}` : c.text),
          );
          chunkDoc.push(doc.id);
        }
      }
      const t0 = performance.now();
      const cachedBefore = texts.filter((t) => cache.get(t)).length;
      const vectors = await embedAllCached(texts, cache, threads, modelSpec, (done, total) =>
        onProgress?.(Math.round((done / total) * docs.length), docs.length),
      );
      const secs = (performance.now() - t0) / 1000;
      process.stderr.write(
        `\n[semantic] ${encoder.id}@${encoder.version}: embedded ${texts.length - cachedBefore} texts (${cachedBefore} cached) in ${secs.toFixed(1)} s with ${threads} thread(s)\n`,
      );
      matrix = kernel.alloc(texts.length * dim * 2);
      const view = kernel.i16(matrix, texts.length * dim);
      vectors.forEach((v, i) => view.set(v, i * dim));
      scores = kernel.alloc(texts.length * 4);
      return { documents: docs.length, chunks: texts.length };
    },
    async search(query, k) {
      const input = encoder.queryText(query);
      let q = cache.get(input);
      if (!q) {
        q = encoder.embed(input);
        cache.put(input, q);
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
