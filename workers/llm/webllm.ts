// WebGPU backend through @mlc-ai/web-llm: the short model catalogue, the choice of variant
// (q4f16 needs `shader-f16`, else q4f32), the storage-quota check before any download
// (web-llm #144, #374), and an adapter over a minimal engine interface so Node tests inject a
// fake. The real engine is made in the worker entry.
import { createError, toAppError } from '../shared/errors';
import type { LoadProgress, WebLlmModelInfo } from '../shared/llm-api';
import { createGenerator, type Generator } from './generator';

/**
 * Where WebLLM's prebuilt models come from (its prebuiltAppConfig): the weights and tokenizer on
 * huggingface.co (mlc-ai/*-MLC), the compiled model libraries on raw.githubusercontent.com
 * (mlc-ai/binary-mlc-llm-libs). The LLM worker's network gate admits these two.
 */
export const WEBLLM_ORIGINS: readonly string[] = [
  'https://huggingface.co',
  'https://raw.githubusercontent.com',
];

/**
 * Small instruct models from web-llm 0.2.86's prebuilt list. `vramMB` is web-llm's
 * vram_required_MB; `downloadMB` is the approximate size of the quantised weights
 * (parameters x bits / 8, plus embeddings) that the Cache API will hold.
 */
export const WEBLLM_MODELS: readonly WebLlmModelInfo[] = [
  {
    id: 'SmolLM2-360M-Instruct-q4f16_1-MLC',
    label: 'SmolLM2 360M (fast)',
    downloadMB: 270,
    vramMB: 376,
    requiresShaderF16: true,
  },
  {
    id: 'SmolLM2-360M-Instruct-q4f32_1-MLC',
    label: 'SmolLM2 360M (fast)',
    downloadMB: 290,
    vramMB: 580,
    requiresShaderF16: false,
  },
  {
    id: 'Qwen2.5-0.5B-Instruct-q4f16_1-MLC',
    label: 'Qwen2.5 0.5B',
    downloadMB: 280,
    vramMB: 945,
    requiresShaderF16: true,
  },
  {
    id: 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC',
    label: 'Qwen2.5 0.5B',
    downloadMB: 300,
    vramMB: 1060,
    requiresShaderF16: false,
  },
  {
    id: 'Llama-3.2-1B-Instruct-q4f16_1-MLC',
    label: 'Llama 3.2 1B (better)',
    downloadMB: 700,
    vramMB: 879,
    requiresShaderF16: true,
  },
  {
    id: 'Llama-3.2-1B-Instruct-q4f32_1-MLC',
    label: 'Llama 3.2 1B (better)',
    downloadMB: 730,
    vramMB: 1129,
    requiresShaderF16: false,
  },
];

/** Extra room kept free beyond the download (the browser evicts near the quota). */
export const QUOTA_HEADROOM_BYTES = 200 * 1024 * 1024;

/** The models this device can run: one variant per model, q4f16 with `shader-f16`, else q4f32. */
export function availableWebLlmModels(shaderF16: boolean): WebLlmModelInfo[] {
  const byBase = new Map<string, WebLlmModelInfo>();
  for (const m of WEBLLM_MODELS) {
    if (m.requiresShaderF16 && !shaderF16) continue;
    const base = m.id.replace(/-q4f(16|32)_1-MLC$/, '');
    const prev = byBase.get(base);
    // With shader-f16 the smaller q4f16 variant wins; without it only q4f32 is left.
    if (!prev || (m.requiresShaderF16 && !prev.requiresShaderF16)) byBase.set(base, m);
  }
  return [...byBase.values()];
}

/** Maps a requested id to the variant this device can run (q4f16 -> q4f32 without shader-f16). */
export function resolveWebLlmModel(requestedId: string, shaderF16: boolean): WebLlmModelInfo {
  const wanted = WEBLLM_MODELS.find((m) => m.id === requestedId);
  if (!wanted)
    throw createError('INVALID_ARGUMENT', { reason: `Unknown WebLLM model "${requestedId}".` });
  if (shaderF16 || !wanted.id.includes('q4f16')) return wanted;
  const twin = WEBLLM_MODELS.find((m) => m.id === wanted.id.replace('q4f16', 'q4f32'));
  if (twin) return twin;
  throw createError('WEBGPU_UNAVAILABLE', { reason: `${wanted.label} needs WebGPU shader-f16.` });
}

export interface StorageLike {
  estimate(): Promise<{ quota?: number; usage?: number }>;
}

export interface QuotaCheck {
  ok: boolean;
  neededBytes: number;
  freeBytes: number | null;
}

/** Checks that the download (plus headroom) fits in the origin's storage quota. */
export async function checkQuota(
  storage: StorageLike | undefined,
  downloadMB: number,
): Promise<QuotaCheck> {
  const neededBytes = downloadMB * 1024 * 1024 + QUOTA_HEADROOM_BYTES;
  if (!storage) return { ok: true, neededBytes, freeBytes: null }; // cannot tell: let the browser decide
  const { quota, usage } = await storage.estimate();
  if (quota === undefined) return { ok: true, neededBytes, freeBytes: null };
  const freeBytes = Math.max(0, quota - (usage ?? 0));
  return { ok: freeBytes >= neededBytes, neededBytes, freeBytes };
}

/** The subset of web-llm's MLCEngine we use. */
export interface MlcEngineLike {
  chat: {
    completions: {
      create(req: {
        messages: Array<{ role: 'system' | 'user' | 'assistant'; content: string }>;
        stream: true;
        temperature?: number;
        max_tokens?: number;
        stop?: string[];
        seed?: number;
      }): Promise<AsyncIterable<{ choices: Array<{ delta: { content?: string | null } }> }>>;
    };
  };
  interruptGenerate(): void;
  unload(): Promise<void>;
}

export type CreateMlcEngine = (
  modelId: string,
  onProgress: (report: { progress: number; text: string }) => void,
) => Promise<MlcEngineLike>;

export interface WebLlmEnv {
  webgpu: boolean;
  shaderF16: boolean;
  storage?: StorageLike;
}

/**
 * Checks WebGPU and quota, then loads the model and returns a generator over it.
 * @throws AppError WEBGPU_UNAVAILABLE, QUOTA_INSUFFICIENT (details: neededBytes, freeBytes), MODEL_LOAD_FAILED
 */
export async function loadWebLlm(
  createEngine: CreateMlcEngine,
  env: WebLlmEnv,
  requestedId: string,
  onProgress?: (p: LoadProgress) => void,
): Promise<{ generator: Generator; model: WebLlmModelInfo; unload: () => Promise<void> }> {
  if (!env.webgpu) throw createError('WEBGPU_UNAVAILABLE');
  const model = resolveWebLlmModel(requestedId, env.shaderF16);
  const quota = await checkQuota(env.storage, model.downloadMB);
  if (!quota.ok) {
    throw createError('QUOTA_INSUFFICIENT', {
      reason: `${model.label} needs about ${Math.ceil(quota.neededBytes / 1048576)} MB; ${Math.floor((quota.freeBytes ?? 0) / 1048576)} MB are free.`,
      neededBytes: quota.neededBytes,
      freeBytes: quota.freeBytes,
    });
  }
  const total = model.downloadMB * 1024 * 1024;
  let engine: MlcEngineLike;
  try {
    engine = await createEngine(model.id, (r) =>
      onProgress?.({
        backend: 'webllm',
        fraction: r.progress,
        loadedBytes: Math.round(r.progress * total),
        totalBytes: total,
        text: r.text,
      }),
    );
  } catch (err) {
    const e = toAppError(err, 'MODEL_LOAD_FAILED');
    throw e.code === 'INTERNAL' ? createError('MODEL_LOAD_FAILED', { reason: e.message }) : e;
  }
  const generator = createGenerator({
    kind: 'webllm',
    async *stream(req, signal) {
      const onAbort = () => engine.interruptGenerate();
      signal.addEventListener('abort', onAbort, { once: true });
      try {
        const it = await engine.chat.completions.create({
          messages: req.messages ?? [{ role: 'user', content: req.prompt }],
          stream: true,
          temperature: req.temperature,
          max_tokens: req.maxTokens,
          ...(req.stop.length > 0 ? { stop: req.stop } : {}),
          ...(req.seed !== undefined ? { seed: req.seed } : {}),
        });
        for await (const chunk of it) {
          if (signal.aborted) break;
          const piece = chunk.choices[0]?.delta.content;
          if (piece) yield piece;
        }
      } finally {
        signal.removeEventListener('abort', onAbort);
      }
    },
  });
  return { generator, model, unload: () => engine.unload() };
}
