// The embedding contract: what the embed worker exposes (over Comlink) and the DTOs the UI and
// the db worker see. Vectors are canonical int16 (CFS-012 section 2), transferred, never copied.
// Owns: EmbedWorkerApi, model info, progress and self-test shapes, `embedWithSignal`.
// Must not import any other layer (only comlink, for the abort/progress adapter).
import * as Comlink from 'comlink';
import { createError } from './errors';

/** A model as the UI lists it. Canonical vectors come only from the WASM runtime. */
export interface EmbedModelInfo {
  /** Stable id, stored with every vector (e.g. 'use-lite'). */
  id: string;
  /** Changes whenever the bytes of a vector could change; vectors of two versions never mix. */
  version: string;
  dim: number;
  /** Tokens beyond this are ignored by the model (USE-lite: 128). */
  maxTokens: number;
  /** True for the deterministic WASM path; false for any fast path (never mixed). */
  canonical: boolean;
  /** Prefixes applied by `embedTexts` for each role ('' when none). */
  queryPrefix?: string;
  passagePrefix?: string;
}

export interface EmbedProgress {
  done: number;
  total: number;
}

/** Which side of retrieval a text is on: models such as e5 and bge prefix them differently. */
export type EmbedRole = 'query' | 'passage';

/** What differs between models besides weights (from workers/embed/model-profiles.ts). */
export interface ModelProfileInfo {
  id: string;
  label: string;
  /** '' when the model uses none. */
  queryPrefix: string;
  passagePrefix: string;
  pooling: 'mean' | 'cls';
  maxTokens: number;
}

/** A model stored on this device (USE-lite ships with the app and is always installed). */
export interface InstalledModel {
  id: string;
  label: string;
  family: 'use-lite' | 'bert';
  profile: ModelProfileInfo;
  dim: number;
  /** Bytes on this device (USE-lite: its static files, precached by the service worker). */
  sizeBytes: number;
  canonical: true;
  active: boolean;
  /** False for USE-lite, the offline default. */
  deletable: boolean;
  /** The vector version this model's vectors carry (EmbedModelInfo.version once active). */
  version: string;
  source: 'bundled' | 'download' | 'import';
}

/** A downloadable model (Hugging Face hub). */
export interface CatalogueEntry {
  id: string;
  label: string;
  /** Hugging Face repo id, e.g. 'sentence-transformers/all-MiniLM-L6-v2'. */
  repo: string;
  profile: ModelProfileInfo;
  dim: number;
  /** config.json + tokenizer.json + model.safetensors, from the model card's file list. */
  sizeBytes: number;
  /** True when sizeBytes is a rounded figure rather than the exact file sizes. */
  sizeApproximate: boolean;
  /** Published SciFact nDCG@10 (MTEB), for the recommendation. */
  scifactNdcg10?: number;
  description: string;
}

/** Byte progress of a model download or import, across all of its files. */
export interface ModelTransferProgress {
  phase: 'checking' | 'downloading' | 'validating' | 'storing' | 'done';
  file: string;
  /** Bytes received so far over every file. */
  loaded: number;
  /** Expected total (Content-Length when known, else the catalogue size). */
  total: number;
}

/**
 * A BERT-family model's canonical vectors compared with an independent runtime (transformers.js +
 * onnxruntime-web, running an ONNX export of the same stored weights) on a few sentences.
 */
export interface ReferenceCheck {
  /** Which runtime produced the reference vectors, with versions. */
  runtime: string;
  /** Every sentence must reach this cosine (0.9999). */
  threshold: number;
  /** Lowest cosine over the sentences (NaN when a vector was missing). */
  minCosine: number;
  /** Every cosine >= threshold and every sentence tokenised to the same ids. */
  ok: boolean;
  rows: Array<{ text: string; cosine: number; sameTokens: boolean }>;
}

/** Result of the determinism self-test (golden SHA-256 hashes of int16 vectors). */
export interface EmbedSelfTestResult {
  modelId: string;
  modelVersion: string;
  ok: boolean;
  total: number;
  mismatches: Array<{ index: number; text: string; expected: string; actual: string }>;
  hashes: string[];
  /**
   * 'golden': hashes compared with the golden file written in Node (USE-lite).
   * 'repeat': the golden texts embedded twice in this browser, hashes compared (BERT models have
   * no golden file: this checks run-to-run determinism, not agreement with another device).
   */
  check?: 'golden' | 'repeat';
  /** BERT-family models: the comparison with transformers.js (absent when it could not run). */
  reference?: ReferenceCheck;
  /** Why the transformers.js comparison could not run (e.g. its runtime is not cached offline). */
  referenceError?: string;
}

/** The embed worker's API (workers/embed.worker.ts). Create it in app/clients.ts. */
export interface EmbedWorkerApi {
  /**
   * Loads the runtime and the model (idempotent). Call once; other methods call it if needed.
   * @throws AppError WASM_ERROR (runtime) or MODEL_LOAD_FAILED (model files)
   */
  init(): Promise<EmbedModelInfo>;
  modelInfo(): Promise<EmbedModelInfo>;
  /**
   * Canonical int16 vectors, one per text, in order; their buffers are transferred.
   * `jobId` lets `cancel(jobId)` stop the job between texts; `onProgress` must be a
   * Comlink.proxy and a top-level argument (Comlink does not proxy functions nested in objects).
   * Prefer `embedWithSignal`, which does both.
   * @throws AppError ABORTED when cancelled, WASM_ERROR / MODEL_LOAD_FAILED
   */
  embedTexts(
    texts: string[],
    jobId?: string,
    onProgress?: (p: EmbedProgress) => void,
    role?: EmbedRole,
  ): Promise<Int16Array[]>;
  /** Token counts as the model sees them (clipped to maxTokens), e.g. for progress by tokens. */
  countTokens(texts: string[]): Promise<number[]>;
  /** Stops a running embedTexts or downloadModel job (no-op when it already finished). */
  cancel(jobId: string): Promise<void>;
  /**
   * USE-lite: embeds the golden texts and compares SHA-256 of the int16 bytes with the golden
   * file. BERT models: embeds them twice and compares (check 'repeat'), then compares a few
   * sentences with transformers.js (onnxruntime) on the same weights (`reference`). `modelId` tests an
   * installed model without activating it (default: the active model).
   * @throws AppError NOT_FOUND (no such model), MODEL_LOAD_FAILED
   */
  selfTest(modelId?: string): Promise<EmbedSelfTestResult>;
  /** USE-lite plus the BERT-family models stored on this device, with the active one marked. */
  listModels(): Promise<InstalledModel[]>;
  /** Models that can be downloaded, with sizes to show before downloading. */
  catalogue(): Promise<CatalogueEntry[]>;
  /**
   * Downloads `${baseUrl}/${repo}/resolve/main/{config.json,tokenizer.json,model.safetensors}`,
   * validates and stores them on this device (OPFS models/<id>/). Does not activate the model.
   * `onProgress` must be a top-level Comlink.proxy; `cancel(jobId)` aborts and removes the files.
   * @throws AppError QUOTA_INSUFFICIENT, OFFLINE, MODEL_LOAD_FAILED (names the file), ABORTED,
   * INVALID_ARGUMENT (unknown profile)
   */
  downloadModel(
    profileId: string,
    onProgress?: (p: ModelTransferProgress) => void,
    baseUrl?: string,
    jobId?: string,
  ): Promise<InstalledModel>;
  /**
   * Stores a model from files the user picked (a folder with config.json, tokenizer.json,
   * model.safetensors; other files are ignored). Same validation as a download.
   * @throws AppError MODEL_LOAD_FAILED (names the missing or wrong file), QUOTA_INSUFFICIENT,
   * INVALID_ARGUMENT (unknown profile)
   */
  importModelFiles(
    profileId: string,
    files: Array<{ name: string; data: Blob }>,
  ): Promise<InstalledModel>;
  /**
   * Removes a stored model. Deleting the active model makes USE-lite active again.
   * @throws AppError INVALID_ARGUMENT for USE-lite, NOT_FOUND
   */
  deleteModel(id: string): Promise<void>;
  /**
   * Loads `id` so that embedTexts / countTokens use it from now on, and remembers it so the
   * next start (init) loads it. Returns the new model info (its id/version key the vectors).
   * @throws AppError NOT_FOUND, MODEL_LOAD_FAILED, WASM_ERROR
   */
  activateModel(id: string): Promise<EmbedModelInfo>;
}

let jobCounter = 0;

/**
 * Calls `embedTexts` on a Comlink remote with an AbortSignal and a plain progress callback
 * (AbortSignal cannot cross postMessage: abort becomes `cancel(jobId)`).
 * @throws AppError ABORTED when the signal aborts
 */
export async function embedWithSignal(
  api: Comlink.Remote<EmbedWorkerApi>,
  texts: string[],
  options: {
    signal?: AbortSignal;
    onProgress?: (p: EmbedProgress) => void;
    role?: EmbedRole;
  } = {},
): Promise<Int16Array[]> {
  const jobId = `embed-${Date.now().toString(36)}-${(jobCounter++).toString(36)}`;
  const onAbort = () => void api.cancel(jobId);
  options.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    return await api.embedTexts(
      texts,
      jobId,
      options.onProgress ? Comlink.proxy(options.onProgress) : undefined,
      options.role,
    );
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
  }
}

/** How many embed workers to start: hardwareConcurrency - 1 (the UI keeps a core), 1..max. */
export function embedWorkerCount(hardwareConcurrency: number, max = 4): number {
  return Math.max(1, Math.min(max, Math.floor(hardwareConcurrency) - 1));
}

/**
 * Embeds `texts` across several embed workers: batches are taken from a shared cursor (faster
 * workers take more), results keep the input order, progress is summed over workers, and an abort
 * cancels every worker's job. Canonical vectors do not depend on which worker computed them.
 * @throws AppError ABORTED when the signal aborts; the first worker error otherwise
 */
export async function embedWithPool(
  apis: ReadonlyArray<Comlink.Remote<EmbedWorkerApi>>,
  texts: string[],
  options: {
    signal?: AbortSignal;
    onProgress?: (p: EmbedProgress) => void;
    batchSize?: number;
    /** 'query' for search queries (default 'passage'). */
    role?: EmbedRole;
  } = {},
): Promise<Int16Array[]> {
  const batchSize = Math.max(1, options.batchSize ?? 32);
  const out: Int16Array[] = new Array<Int16Array>(texts.length);
  const partial = new Array<number>(apis.length).fill(0);
  let finished = 0;
  let cursor = 0;
  const report = () =>
    options.onProgress?.({
      done: finished + partial.reduce((a, b) => a + b, 0),
      total: texts.length,
    });
  // One failing worker stops the others at their next batch.
  const inner = new AbortController();
  const onAbort = () => inner.abort();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    await Promise.all(
      apis.map(async (api, w) => {
        while (cursor < texts.length && !inner.signal.aborted) {
          const start = cursor;
          const batch = texts.slice(start, start + batchSize);
          cursor += batch.length;
          // Progress messages are asynchronous: one may arrive after its batch resolved.
          let live = true;
          try {
            const vectors = await embedWithSignal(api, batch, {
              signal: inner.signal,
              ...(options.role ? { role: options.role } : {}),
              onProgress: (p) => {
                if (!live) return;
                partial[w] = p.done;
                report();
              },
            });
            live = false;
            vectors.forEach((v, i) => (out[start + i] = v));
          } catch (err) {
            live = false;
            inner.abort();
            throw err;
          }
          partial[w] = 0;
          finished += batch.length;
          report();
        }
      }),
    );
    // A cancel that arrived after the last batch finished still means "cancelled" to the caller.
    if (options.signal?.aborted) throw createError('ABORTED');
    return out;
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
  }
}
