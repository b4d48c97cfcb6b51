// Adapts an Embedder to EmbedWorkerApi for Comlink: jobs cancellable by id, vectors transferred.
// Kept apart from embed.worker.ts so the boundary can be tested over a MessageChannel in Node.
// Must not touch `self` or Comlink.expose (only the worker entry does).
import * as Comlink from 'comlink';
import type { EmbedWorkerApi } from '../shared/embed-api';
import type { Embedder } from './embedder';

export function createEmbedWorkerApi(embedder: Embedder): EmbedWorkerApi {
  const jobs = new Map<string, AbortController>();
  return {
    init: () => embedder.init(),
    modelInfo: () => embedder.init(),
    async embedTexts(texts, jobId, onProgress) {
      const controller = new AbortController();
      if (jobId) jobs.set(jobId, controller);
      try {
        const vectors = await embedder.embedTexts(texts, {
          signal: controller.signal,
          ...(onProgress ? { onProgress: (p) => void onProgress(p) } : {}),
        });
        // Each vector owns its buffer (see use-lite.ts), so transferring one moves only it.
        return Comlink.transfer(
          vectors,
          vectors.map((v) => v.buffer as ArrayBuffer),
        );
      } finally {
        if (jobId) jobs.delete(jobId);
      }
    },
    countTokens: (texts) => embedder.countTokens(texts),
    async cancel(jobId) {
      jobs.get(jobId)?.abort();
    },
    selfTest: () => embedder.selfTest(),
  };
}
