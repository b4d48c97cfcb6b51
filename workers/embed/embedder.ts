// The embedding service behind the embed worker: loads the runtime and the active model (USE-lite,
// shipped with the app, or a BERT-family model stored on the device), embeds passages one at a time
// and a call's queries as one batched forward pass (each vector's bytes independent of its batch)
// with the model's query/passage prefixes, reports
// progress, honours cancellation between texts, switches models, and runs the self-test.
// Dependencies (kernel bytes, model files, golden file, model store, event-loop yield) are
// injected so Node tests use it directly. Must not touch `self`, Comlink or Node-only modules.
import type {
  EmbedModelInfo,
  EmbedProgress,
  EmbedRole,
  EmbedSelfTestResult,
  InstalledModel,
} from '../shared/embed-api';
import { createError } from '../shared/errors';
import { loadBert } from './bert';
import type { Kernel } from './kernel';
import { bertVersion, profileInfo, USE_LITE_LABEL, USE_LITE_SIZE_BYTES } from './model-info';
import { BERT_PROFILES } from './model-profiles';
import type { ModelStore } from './model-store';
import {
  compareWithReference,
  referenceRequest,
  REFERENCE_TEXTS,
  type ReferenceEmbed,
} from './reference-check';
import { parseSafetensors } from './safetensors';
import { hashVectors, runSelfTest, type GoldenFile } from './self-test';
import {
  loadUseLite,
  USE_LITE_DIM,
  USE_LITE_MAX_TOKENS,
  USE_LITE_MODEL_ID,
  USE_LITE_MODEL_VERSION,
} from './use-lite';

export interface EmbedderDeps {
  /** A fresh runtime instance; each loaded model gets its own (its memory goes with it). */
  loadKernel: () => Promise<Kernel>;
  /** Reads one USE-lite file by name (browser: fetch from /models/use-lite/). */
  fetchModelFile: (name: string) => Promise<ArrayBuffer>;
  /** The golden file for `selfTest` (browser: imported JSON; Node: read from wasm/golden). */
  loadGolden: () => Promise<GoldenFile>;
  /** BERT-family models on this device; without it only USE-lite is available. */
  models?: ModelStore;
  /**
   * An independent runtime for the BERT self-test (browser: transformers.js, loaded on demand).
   * Without it the self-test checks repeatability only.
   */
  referenceEmbed?: ReferenceEmbed;
  /** Lets queued messages (cancel) run; default: a macrotask. */
  yieldToEvents?: () => Promise<void>;
  /** Clock for progress throttling; default performance.now. */
  now?: () => number;
}

export interface EmbedOptions {
  signal?: AbortSignal;
  onProgress?: (p: EmbedProgress) => void;
  /** Default 'passage'. */
  role?: EmbedRole;
  /** Passages too in forward passes of up to 16 texts (same bytes; progress per pass). */
  batched?: boolean;
}

export interface Embedder {
  /** Loads the remembered active model (default USE-lite). @throws AppError WASM_ERROR / MODEL_LOAD_FAILED */
  init(): Promise<EmbedModelInfo>;
  /** @throws AppError ABORTED when `signal` aborts; WASM_ERROR / MODEL_LOAD_FAILED */
  embedTexts(texts: string[], options?: EmbedOptions): Promise<Int16Array[]>;
  countTokens(texts: string[]): Promise<number[]>;
  /** @throws AppError NOT_FOUND, MODEL_LOAD_FAILED */
  selfTest(modelId?: string): Promise<EmbedSelfTestResult>;
  listModels(): Promise<InstalledModel[]>;
  /** @throws AppError NOT_FOUND, MODEL_LOAD_FAILED, WASM_ERROR */
  activateModel(id: string): Promise<EmbedModelInfo>;
  /** @throws AppError INVALID_ARGUMENT for USE-lite, NOT_FOUND */
  deleteModel(id: string): Promise<void>;
}

/** A model loaded into its own runtime instance. */
interface Loaded {
  info: EmbedModelInfo;
  embed(text: string, role: EmbedRole): Int16Array;
  /** Several texts in one forward pass (same bytes as `embed` of each). */
  embedBatch(texts: string[], role: EmbedRole): Int16Array[];
  tokenize(text: string): number[];
  selfTest(golden: GoldenFile): Promise<EmbedSelfTestResult>;
}

const PROGRESS_INTERVAL_MS = 100;
/**
 * Queries (short, few per call: a search's variants) are embedded in batches of this many: one
 * forward pass reads each weight matrix once for all of them. Passages stay one at a time (long
 * enough to amortise the weights alone; progress and cancellation per text).
 */
const QUERY_BATCH = 16;

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));
const YIELD_INTERVAL_MS = 50;

export function createEmbedder(deps: EmbedderDeps): Embedder {
  const yieldToEvents = deps.yieldToEvents ?? (() => new Promise<void>((r) => setTimeout(r, 0)));
  const now = deps.now ?? (() => performance.now());
  let current: Promise<Loaded> | null = null;
  let currentId: string | null = null;
  let switching: Promise<void> = Promise.resolve();

  async function loadUse(): Promise<Loaded> {
    const m = await loadUseLite(await deps.loadKernel(), deps.fetchModelFile);
    return {
      info: {
        id: m.id,
        version: m.version,
        dim: m.dim,
        maxTokens: USE_LITE_MAX_TOKENS,
        canonical: true,
        queryPrefix: '',
        passagePrefix: '',
      },
      embed: (t) => m.embedInt16(t),
      embedBatch: (ts) => m.embedInt16Batch(ts),
      tokenize: (t) => m.tokenize(t),
      selfTest: async (golden) => ({ ...(await runSelfTest(m, golden)), check: 'golden' }),
    };
  }

  async function loadBertModel(id: string): Promise<Loaded> {
    if (!deps.models) throw createError('NOT_FOUND', { reason: `Model ${id} is not installed.` });
    const files = await deps.models.load(id);
    const p = BERT_PROFILES[files.manifest.profileId]!;
    const version = bertVersion(files.manifest.sha256, p.id);
    const kernel = await deps.loadKernel();
    const m = loadBert(kernel, files.config, parseSafetensors(files.weights), files.tokenizer, {
      ...p,
      version,
    });
    const prof = profileInfo(p.id);
    const maxTokens = Math.min(p.maxTokens, files.config.max_position_embeddings);
    return {
      info: {
        id: m.id,
        version,
        dim: m.dim,
        maxTokens,
        canonical: true,
        queryPrefix: prof.queryPrefix,
        passagePrefix: prof.passagePrefix,
      },
      embed: (t, role) => (role === 'query' ? m.embedQueryInt16(t) : m.embedPassageInt16(t)),
      embedBatch: (ts, role) => {
        const prefix = role === 'query' ? m.queryPrefix : m.passagePrefix;
        return m.embedIdsBatch(ts.map((t) => m.tokenize(prefix + t))).map((v) => v.int16);
      },
      tokenize: (t) => m.tokenize(m.passagePrefix + t),
      // No golden file exists for downloaded weights: embed the golden texts twice, compare;
      // then compare a few sentences with the reference runtime on the same weights.
      async selfTest(golden) {
        const texts = golden.entries.map((e) => e.text);
        const first = await hashVectors(texts.map((t) => m.embedPassageInt16(t)));
        const second = await hashVectors(texts.map((t) => m.embedPassageInt16(t)));
        const mismatches = texts.flatMap((text, index) =>
          first[index] === second[index]
            ? []
            : [{ index, text, expected: first[index]!, actual: second[index]! }],
        );
        const result: EmbedSelfTestResult = {
          modelId: m.id,
          modelVersion: version,
          ok: mismatches.length === 0,
          total: texts.length,
          mismatches,
          hashes: first,
          check: 'repeat',
        };
        if (!deps.referenceEmbed || !deps.models) return result;
        try {
          // The weights are re-read (and their SHA-256 re-checked) rather than kept in memory
          // for the model's lifetime just for this test.
          const stored = await deps.models.load(id);
          const reference = await deps.referenceEmbed(
            referenceRequest(stored, {
              maxTokens,
              pooling: p.pooling ?? 'mean',
              prefix: m.passagePrefix,
            }),
          );
          result.reference = compareWithReference(
            {
              vectors: REFERENCE_TEXTS.map((t) => m.embedPassageInt16(t)),
              ids: REFERENCE_TEXTS.map((t) => m.tokenize(m.passagePrefix + t)),
            },
            reference,
          );
          result.ok &&= result.reference.ok;
        } catch (err) {
          result.referenceError = errorText(err);
        }
        return result;
      },
    };
  }

  const loadById = (id: string) => (id === USE_LITE_MODEL_ID ? loadUse() : loadBertModel(id));

  async function remembered(): Promise<string> {
    return (await deps.models?.getActiveId().catch(() => null)) ?? USE_LITE_MODEL_ID;
  }

  function model(): Promise<Loaded> {
    if (!current) {
      const p = (async () => {
        const id = await remembered();
        // An activateModel that finished meanwhile replaced `current`: leave its id alone.
        const settle = (loadedId: string) => {
          if (current === p) currentId = loadedId;
        };
        try {
          const m = await loadById(id);
          settle(id);
          return m;
        } catch (err) {
          // A remembered model that is gone or broken: start with the shipped one.
          if (id === USE_LITE_MODEL_ID) throw err;
          await deps.models?.setActiveId(USE_LITE_MODEL_ID).catch(() => undefined);
          const m = await loadUse();
          settle(USE_LITE_MODEL_ID);
          return m;
        }
      })();
      current = p;
      // A failed load may be retried (e.g. after the model files are restored).
      p.catch(() => {
        if (current === p) current = null;
      });
    }
    return current;
  }

  return {
    async init() {
      return (await model()).info;
    },
    async embedTexts(texts, options = {}) {
      const m = await model();
      const role = options.role ?? 'passage';
      const step = role === 'query' || options.batched ? QUERY_BATCH : 1;
      const out: Int16Array[] = [];
      let lastYield = now();
      let lastProgress = -Infinity;
      for (let start = 0; start < texts.length; start += step) {
        if (options.signal?.aborted) {
          throw createError('ABORTED', { done: start, total: texts.length });
        }
        if (step === 1) out.push(m.embed(texts[start]!, role));
        else out.push(...m.embedBatch(texts.slice(start, start + step), role));
        const i = out.length - 1;
        const t = now();
        if (
          options.onProgress &&
          (t - lastProgress >= PROGRESS_INTERVAL_MS || i === texts.length - 1)
        ) {
          lastProgress = t;
          options.onProgress({ done: i + 1, total: texts.length });
        }
        if (t - lastYield >= YIELD_INTERVAL_MS && i < texts.length - 1) {
          await yieldToEvents();
          lastYield = now();
        }
      }
      return out;
    },
    async countTokens(texts) {
      const m = await model();
      return texts.map((t) => m.tokenize(t).length);
    },
    async selfTest(modelId) {
      const golden = await deps.loadGolden();
      const active = await model();
      if (!modelId || modelId === currentId) return active.selfTest(golden);
      // Another installed model: loaded into its own runtime for the test, then dropped.
      return (await loadById(modelId)).selfTest(golden);
    },
    async listModels() {
      await model().catch(() => undefined);
      const activeId = currentId ?? (await remembered());
      const use: InstalledModel = {
        id: USE_LITE_MODEL_ID,
        label: USE_LITE_LABEL,
        family: 'use-lite',
        profile: profileInfo(USE_LITE_MODEL_ID),
        dim: USE_LITE_DIM,
        sizeBytes: USE_LITE_SIZE_BYTES,
        canonical: true,
        active: activeId === USE_LITE_MODEL_ID,
        deletable: false,
        version: USE_LITE_MODEL_VERSION,
        source: 'bundled',
      };
      const stored = (await deps.models?.list()) ?? [];
      return [
        use,
        ...stored.map((m): InstalledModel => ({
          id: m.id,
          label: profileInfo(m.profileId).label,
          family: 'bert',
          profile: profileInfo(m.profileId),
          dim: m.dim,
          sizeBytes: m.sizeBytes,
          canonical: true,
          active: activeId === m.id,
          deletable: true,
          version: bertVersion(m.sha256, m.profileId),
          source: m.source,
        })),
      ];
    },
    activateModel(id) {
      // One switch at a time, in call order, so the last call wins. The model is loaded before
      // the switch: a failure keeps the current model serving.
      const run = switching.then(async () => {
        const m = await loadById(id);
        current = Promise.resolve(m);
        currentId = id;
        await deps.models?.setActiveId(id);
        return m.info;
      });
      switching = run.then(
        () => undefined,
        () => undefined,
      );
      return run;
    },
    async deleteModel(id) {
      if (id === USE_LITE_MODEL_ID) {
        throw createError('INVALID_ARGUMENT', {
          reason: 'USE-lite ships with Sift and cannot be deleted.',
        });
      }
      if (!deps.models) throw createError('NOT_FOUND', { reason: `Model ${id} is not installed.` });
      await deps.models.remove(id);
      if (currentId === id) {
        current = null;
        currentId = null;
      }
    },
  };
}
