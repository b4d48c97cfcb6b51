// CPU backend: llama.cpp in WebAssembly through @wllama/wllama. This module is the adapter only;
// it talks to a minimal `WllamaLike` so Node tests inject a fake (wllama has no Node support).
// The real instance is made in wllama-factory.ts (browser only).
import { createError, toAppError } from '../shared/errors';
import type { LoadProgress, WllamaModelSource } from '../shared/llm-api';
import { createGenerator, type Generator } from './generator';

/** The streaming and sampling options both completion calls take. */
interface WllamaStreamOptions {
  stream: true;
  abortSignal?: AbortSignal;
  max_tokens?: number;
  temperature?: number;
  stop?: string[];
  seed?: number;
}

/** The subset of `Wllama` (v3) we use; the real class satisfies it structurally. */
export interface WllamaLike {
  loadModel(blobs: Blob[], params?: Record<string, unknown>): Promise<void>;
  loadModelFromUrl(
    url: string,
    params?: Record<string, unknown> & {
      progressCallback?: (p: { loaded: number; total: number }) => void;
      signal?: AbortSignal;
    },
  ): Promise<void>;
  createCompletion(
    options: WllamaStreamOptions & { prompt: string },
  ): Promise<AsyncIterable<{ choices: Array<{ text: string }> }>>;
  createChatCompletion(
    options: WllamaStreamOptions & {
      messages: Array<{ role: 'system' | 'user' | 'assistant'; content: string }>;
    },
  ): Promise<AsyncIterable<{ choices: Array<{ delta: { content?: string | null } }> }>>;
  getChatTemplate(): string | null;
  isModelLoaded(): boolean;
  exit(): Promise<void>;
}

export interface WllamaBackend {
  generator: Generator;
  /** The loaded model's name (URL file name or picked file name). */
  model: string;
  unload(): Promise<void>;
}

export interface WllamaLoadOptions {
  onProgress?: (p: LoadProgress) => void;
  signal?: AbortSignal;
  /** Context size; small by default: our prompts are short. */
  nCtx?: number;
}

/**
 * Loads a GGUF model into a fresh wllama instance and returns a generator over it.
 * @throws AppError MODEL_LOAD_FAILED (bad file, missing wasm), ABORTED
 */
export async function loadWllama(
  createWllama: () => WllamaLike,
  source: WllamaModelSource,
  options: WllamaLoadOptions = {},
): Promise<WllamaBackend> {
  const name = 'url' in source ? (source.url.split('/').pop() ?? source.url) : source.name;
  if ('file' in source && !/\.gguf$/i.test(source.name)) {
    throw createError('MODEL_LOAD_FAILED', { reason: 'Pick a .gguf model file.' });
  }
  const wllama = createWllama();
  const report = (loaded: number, total: number | null, text: string) =>
    options.onProgress?.({
      backend: 'wllama',
      loadedBytes: loaded,
      totalBytes: total,
      fraction: total ? Math.min(1, loaded / total) : null,
      text,
    });
  const params = { n_ctx: options.nCtx ?? 2048, n_threads: 1 };
  try {
    if (options.signal?.aborted) throw createError('ABORTED');
    if ('url' in source) {
      report(0, null, `Downloading ${name}`);
      await wllama.loadModelFromUrl(source.url, {
        ...params,
        ...(options.signal ? { signal: options.signal } : {}),
        progressCallback: ({ loaded, total }) =>
          report(loaded, total || null, `Downloading ${name}`),
      });
    } else {
      report(0, source.file.size, `Reading ${name}`);
      await wllama.loadModel([source.file], params);
    }
    if (options.signal?.aborted) throw createError('ABORTED');
  } catch (err) {
    await wllama.exit().catch(() => undefined);
    if (options.signal?.aborted) throw createError('ABORTED');
    const e = toAppError(err, 'MODEL_LOAD_FAILED');
    throw e.code === 'INTERNAL' ? createError('MODEL_LOAD_FAILED', { reason: e.message }) : e;
  }
  report(1, 1, `Loaded ${name}`);
  // Base models (like stories260K) have no chat template: they get a flattened prompt instead.
  const hasTemplate = !!wllama.getChatTemplate();
  const generator = createGenerator({
    kind: 'wllama',
    async *stream(req, signal) {
      const common = {
        stream: true as const,
        abortSignal: signal,
        max_tokens: req.maxTokens,
        temperature: req.temperature,
        ...(req.stop.length > 0 ? { stop: req.stop } : {}),
        ...(req.seed !== undefined ? { seed: req.seed } : {}),
      };
      if (req.messages && hasTemplate) {
        const it = await wllama.createChatCompletion({ ...common, messages: req.messages });
        for await (const chunk of it) {
          const piece = chunk.choices[0]?.delta.content;
          if (piece) yield piece;
        }
      } else {
        const it = await wllama.createCompletion({ ...common, prompt: req.prompt });
        for await (const chunk of it) {
          const piece = chunk.choices[0]?.text;
          if (piece) yield piece;
        }
      }
    },
  });
  return { generator, model: name, unload: () => wllama.exit() };
}
