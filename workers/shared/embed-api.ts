// The embedding contract: what the embed worker exposes (over Comlink) and the DTOs the UI and
// the db worker see. Vectors are canonical int16 (CFS-012 section 2), transferred, never copied.
// Owns: EmbedWorkerApi, model info, progress and self-test shapes, `embedWithSignal`, the pool
// contract (`EmbedPool`, `EmbedPoolWorker`, `remotePoolWorker`).
import * as Comlink from 'comlink';
import { createError } from './errors';
import type { PairInput, PairJudgement, PairVerifier, PairVerifierInfo } from './pair-verifier';

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

/** SHA-256 hashes of int16 vectors compared with expected ones (workers/embed/self-test.ts). */
export interface HashCheckResult {
  modelId: string;
  modelVersion: string;
  /** True when every hash equals the expected hash (and model id/version match). */
  ok: boolean;
  total: number;
  mismatches: Array<{ index: number; text: string; expected: string; actual: string }>;
  /** Hex SHA-256 per text, in order. */
  hashes: string[];
}

/** Result of the determinism self-test (golden SHA-256 hashes of int16 vectors). */
export interface EmbedSelfTestResult extends HashCheckResult {
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
   * Prefer `embedWithSignal`, which does both. `batched` runs up to 16 texts per forward pass
   * (same bytes; progress and cancel per pass), as queries always are.
   * @throws AppError ABORTED when cancelled, WASM_ERROR / MODEL_LOAD_FAILED
   */
  embedTexts(
    texts: string[],
    jobId?: string,
    onProgress?: (p: EmbedProgress) => void,
    role?: EmbedRole,
    batched?: boolean,
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
  /**
   * The pair verifier hosted by this worker (its own runtime instance and weights, whatever the
   * embedding model): pairs judged in order, cached by content hash. The bundle loads on the first
   * call (fetched from the app's origin once, then kept for offline use).
   * @throws AppError VERIFIER_MISSING, VERIFIER_CORRUPT, VERIFIER_VERSION, INVALID_ARGUMENT
   */
  judgePairs(pairs: PairInput[]): Promise<PairJudgement[]>;
  verifierInfo(): Promise<PairVerifierInfo>;
}

/**
 * A PairVerifier whose pairs are judged by an embed worker (over Comlink), chosen per call by
 * `pick` (e.g. the query worker when it is up): the worker keeps the model and the cache.
 * @throws AppError VERIFIER_* from the worker, or NOT_FOUND when no worker is connected
 */
export function remotePairVerifier(
  info: PairVerifierInfo,
  pick: () => Promise<Pick<Comlink.Remote<EmbedWorkerApi>, 'judgePairs'> | null>,
): PairVerifier {
  return {
    info,
    async judge(pairs) {
      if (pairs.length === 0) return [];
      const api = await pick();
      if (!api) {
        throw createError('VERIFIER_MISSING', {
          reason: 'No embed worker is running to host the verifier yet.',
        });
      }
      return api.judgePairs(pairs.map((p) => ({ a: p.a, b: p.b })));
    },
  };
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
    batched?: boolean;
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
      options.batched,
    );
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
  }
}

/**
 * How many embed workers to start: hardwareConcurrency - 1 (the UI keeps a core), at least 1,
 * at most `max` (each worker holds its own copy of the model: about 100 MB for MiniLM).
 */
export function embedWorkerCount(hardwareConcurrency: number, max = 8): number {
  return Math.max(1, Math.min(max, Math.floor(hardwareConcurrency) - 1));
}

// The embed-worker pool's contract (its implementation is workers/embed/pool.ts, injected where
// layers forbid importing it): the app's backlog and the eval CLI run on the same pool.

/** One embed worker as the pool drives it. */
export interface EmbedPoolWorker {
  /**
   * Canonical vectors for `texts`, in order. `signal` aborts (rejects with AppError ABORTED);
   * `onProgress` gets the texts done so far in this call.
   */
  embed(
    texts: string[],
    options: {
      role?: EmbedRole;
      /** One forward pass for several texts (see EmbedWorkerApi.embedTexts). */
      batched?: boolean;
      signal: AbortSignal;
      onProgress?: (done: number) => void;
    },
  ): Promise<Int16Array[]>;
  /** Stops the worker for good; its pending `embed` calls must reject (never hang). */
  terminate(): void | Promise<void>;
}

export interface EmbedPoolOptions<W extends EmbedPoolWorker> {
  /** Starts a worker with the active model loaded; a failure counts as a failed batch. */
  spawn(): Promise<W>;
  /** Workers to run (at least 1); `resize` changes it. */
  size: number;
  /** Texts per batch (default 16): small batches keep cancel, progress and retries cheap. */
  batchSize?: number;
  /** Tries per batch before the call fails with the batch's last error (default 3). */
  maxAttempts?: number;
  /** Told when a worker is replaced after a failure (for logs and status). */
  onReplace?(error: unknown): void;
  /**
   * A worker that neither answers a batch nor reports progress on it for this long is taken as
   * hung (an endless loop, a deadlock: alive, so no crash to catch): it is terminated and the
   * batch retried on a fresh worker, as after a crash. Default 120 s (a MiniLM batch of 16 long
   * chunks takes about 1-2 s on one core; progress every text resets the clock); 0 disables it.
   */
  hangTimeoutMs?: number;
  /** The timer the hang timeout uses (tests inject one); default setTimeout/clearTimeout. */
  timers?: {
    set(fn: () => void, ms: number): unknown;
    clear(handle: unknown): void;
  };
}

export interface EmbedPool<W extends EmbedPoolWorker = EmbedPoolWorker> {
  /**
   * Vectors for `texts` in input order, batches spread over the workers (faster ones take more).
   * @throws AppError ABORTED when `signal` aborts; a batch's last error after `maxAttempts` tries
   */
  embed(
    texts: string[],
    options?: {
      signal?: AbortSignal;
      role?: EmbedRole;
      onProgress?: (p: EmbedProgress) => void;
      /**
       * Texts per batch for this call (default: the pool's). A plan's few queries use
       * ceil(n / idle workers) so that every idle worker takes a share instead of one taking all.
       */
      batchSize?: number;
      /** Each worker embeds its share in batched forward passes (passages default to one by one). */
      batched?: boolean;
    },
  ): Promise<Int16Array[]>;
  /** The `size` workers, started if needed (e.g. to switch every worker's model). */
  workers(): Promise<W[]>;
  /** Changes the number of workers; extra workers stop once their batches end. */
  resize(size: number): void;
  size(): number;
  /**
   * Workers with no batch running now (from any call). A plan's query batch is split over these
   * only: a share queued behind a busy worker would run after its batch, no sooner than on an
   * idle one, and two passes cost more than one batched pass.
   */
  idle(): number;
  /** Workers started and replaced so far. */
  stats(): { size: number; spawned: number; replaced: number };
  /** Stops every worker. */
  close(): Promise<void>;
}

/**
 * Starts and stops embed workers for the database worker's pool. app/clients.ts (the one place
 * that creates workers) passes it as a Comlink proxy; Node tests pass fakes.
 */
export interface EmbedSpawner {
  /** Starts an embed worker; resolves with its id and a port to it (transferred). */
  spawn(): Promise<{ id: number; port: MessagePort }>;
  /** Terminates worker `id` (after a fault, or when the pool shrinks). */
  terminate(id: number): Promise<void>;
}

/**
 * An embed worker behind a Comlink remote as the pool drives it. `kill` stops the real worker;
 * calls still pending on it then reject (a terminated worker never answers over its port).
 */
export function remotePoolWorker(
  api: Comlink.Remote<EmbedWorkerApi>,
  kill: () => void | Promise<void>,
): EmbedPoolWorker & { api: Comlink.Remote<EmbedWorkerApi> } {
  let killed: (err: Error) => void = () => undefined;
  const dead = new Promise<never>((_, reject) => (killed = reject));
  dead.catch(() => undefined);
  return {
    api,
    embed: (texts, { role, batched, signal, onProgress }) =>
      Promise.race([
        embedWithSignal(api, texts, {
          signal,
          ...(role ? { role } : {}),
          ...(batched ? { batched } : {}),
          ...(onProgress ? { onProgress: (p: EmbedProgress) => onProgress(p.done) } : {}),
        }),
        dead,
      ]),
    async terminate() {
      killed(createError('INTERNAL', { reason: 'The embed worker was stopped.' }));
      await kill();
    },
  };
}
