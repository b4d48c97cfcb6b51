// Adapts an Embedder (and the model store) to EmbedWorkerApi for Comlink: jobs cancellable by id
// (embedding and downloads), vectors transferred. Kept apart from embed.worker.ts so the boundary
// can be tested over a MessageChannel in Node.
// Must not touch `self` or Comlink.expose (only the worker entry does).
import * as Comlink from 'comlink';
import type { EmbedWorkerApi, InstalledModel } from '../shared/embed-api';
import { createError } from '../shared/errors';
import type { PairVerifier } from '../shared/pair-verifier';
import type { Embedder } from './embedder';
import { bertCatalogue, type ModelStore } from './model-store';

/** The contract's verifier info when this worker hosts none (its judgePairs refuses). */
const NO_VERIFIER = { id: 'sift-verifier-v1', version: 1, maxLength: 256 };

export function createEmbedWorkerApi(
  embedder: Embedder,
  models?: ModelStore,
  verifier?: PairVerifier,
): EmbedWorkerApi {
  const jobs = new Map<string, AbortController>();
  const store = () => {
    if (!models) {
      throw createError('STORAGE_UNAVAILABLE', {
        reason: 'This browser cannot store models (no origin private file system).',
      });
    }
    return models;
  };
  const installed = async (id: string): Promise<InstalledModel> => {
    const m = (await embedder.listModels()).find((x) => x.id === id);
    if (!m) throw createError('NOT_FOUND', { reason: `Model ${id} is not installed.` });
    return m;
  };
  return {
    init: () => embedder.init(),
    modelInfo: () => embedder.init(),
    async embedTexts(texts, jobId, onProgress, role, batched) {
      const controller = new AbortController();
      if (jobId) jobs.set(jobId, controller);
      try {
        const vectors = await embedder.embedTexts(texts, {
          signal: controller.signal,
          ...(onProgress ? { onProgress: (p) => void onProgress(p) } : {}),
          ...(role ? { role } : {}),
          ...(batched ? { batched } : {}),
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
    selfTest: (modelId) => embedder.selfTest(modelId),
    listModels: () => embedder.listModels(),
    catalogue: async () => bertCatalogue(),
    async downloadModel(profileId, onProgress, baseUrl, jobId) {
      const controller = new AbortController();
      if (jobId) jobs.set(jobId, controller);
      try {
        const m = await store().download(profileId, {
          signal: controller.signal,
          ...(baseUrl ? { baseUrl } : {}),
          ...(onProgress ? { onProgress: (p) => void onProgress(p) } : {}),
        });
        return await installed(m.id);
      } finally {
        if (jobId) jobs.delete(jobId);
      }
    },
    async importModelFiles(profileId, files) {
      const m = await store().importFiles(profileId, files);
      return installed(m.id);
    },
    deleteModel: (id) => embedder.deleteModel(id),
    activateModel: (id) => embedder.activateModel(id),
    async judgePairs(pairs) {
      if (!verifier) {
        throw createError('VERIFIER_MISSING', {
          reason: 'This embed worker was started without the verifier.',
        });
      }
      return verifier.judge(pairs);
    },
    verifierInfo: async () => verifier?.info ?? NO_VERIFIER,
  };
}
