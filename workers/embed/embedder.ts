// The embedding service behind the embed worker: loads the runtime and USE-lite once, embeds
// texts one at a time (each vector independent of its batch), reports progress, honours
// cancellation between texts, and runs the determinism self-test.
// Dependencies (kernel bytes, model files, golden file, event-loop yield) are injected so Node
// tests use it directly. Must not touch `self`, Comlink or Node-only modules.
import type { EmbedModelInfo, EmbedProgress, EmbedSelfTestResult } from '../shared/embed-api';
import { createError } from '../shared/errors';
import type { Kernel } from './kernel';
import { runSelfTest, type GoldenFile } from './self-test';
import { loadUseLite, USE_LITE_MAX_TOKENS, type UseLiteModel } from './use-lite';

export interface EmbedderDeps {
  loadKernel: () => Promise<Kernel>;
  /** Reads one USE-lite file by name (browser: fetch from /models/use-lite/). */
  fetchModelFile: (name: string) => Promise<ArrayBuffer>;
  /** The golden file for `selfTest` (browser: imported JSON; Node: read from wasm/golden). */
  loadGolden: () => Promise<GoldenFile>;
  /** Lets queued messages (cancel) run; default: a macrotask. */
  yieldToEvents?: () => Promise<void>;
  /** Clock for progress throttling; default performance.now. */
  now?: () => number;
}

export interface EmbedOptions {
  signal?: AbortSignal;
  onProgress?: (p: EmbedProgress) => void;
}

export interface Embedder {
  /** @throws AppError WASM_ERROR / MODEL_LOAD_FAILED */
  init(): Promise<EmbedModelInfo>;
  /** @throws AppError ABORTED when `signal` aborts; WASM_ERROR / MODEL_LOAD_FAILED */
  embedTexts(texts: string[], options?: EmbedOptions): Promise<Int16Array[]>;
  countTokens(texts: string[]): Promise<number[]>;
  selfTest(): Promise<EmbedSelfTestResult>;
}

const PROGRESS_INTERVAL_MS = 100;
const YIELD_INTERVAL_MS = 50;

export function createEmbedder(deps: EmbedderDeps): Embedder {
  const yieldToEvents = deps.yieldToEvents ?? (() => new Promise<void>((r) => setTimeout(r, 0)));
  const now = deps.now ?? (() => performance.now());
  let loading: Promise<UseLiteModel> | null = null;

  function model(): Promise<UseLiteModel> {
    if (!loading) {
      loading = (async () => loadUseLite(await deps.loadKernel(), deps.fetchModelFile))();
      // A failed load may be retried (e.g. after the model files are restored).
      loading.catch(() => {
        loading = null;
      });
    }
    return loading;
  }

  const info = (m: UseLiteModel): EmbedModelInfo => ({
    id: m.id,
    version: m.version,
    dim: m.dim,
    maxTokens: USE_LITE_MAX_TOKENS,
    canonical: true,
  });

  return {
    async init() {
      return info(await model());
    },
    async embedTexts(texts, options = {}) {
      const m = await model();
      const out: Int16Array[] = [];
      let lastYield = now();
      let lastProgress = -Infinity;
      for (let i = 0; i < texts.length; i++) {
        if (options.signal?.aborted) throw createError('ABORTED', { done: i, total: texts.length });
        out.push(m.embedInt16(texts[i]!));
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
    async selfTest() {
      const [m, golden] = await Promise.all([model(), deps.loadGolden()]);
      return runSelfTest(m, golden);
    },
  };
}
