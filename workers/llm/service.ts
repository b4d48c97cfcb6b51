// The LLM service behind llm.worker.ts: holds the active backend, switches between WebLLM, CPU,
// HTTP, scripted and none, and runs generations with cancellable request ids. Everything
// environment-specific is injected (fetch, navigator parts, engine factories) so Node tests
// cover it with fakes.
import { createError } from '../shared/errors';
import type {
  BackendChoice,
  GenerateRequest,
  GenerateResult,
  HttpEndpointConfig,
  LlmApi,
  LlmStatus,
  LoadProgress,
  WllamaModelSource,
} from '../shared/llm-api';
import { chooseBackend, detectCapabilities, type DetectEnv } from './detect';
import type { Generator } from './generator';
import { createHttpGenerator, normaliseBaseUrl } from './http';
import { listEndpointModels } from './http-models';
import { createScriptedGenerator } from './scripted';
import { availableWebLlmModels, loadWebLlm, type CreateMlcEngine } from './webllm';
import { loadWllama, type WllamaLike } from './wllama';

export interface LlmServiceDeps {
  env: DetectEnv;
  fetch: typeof fetch;
  createWllama?: () => WllamaLike;
  createMlcEngine?: CreateMlcEngine;
}

interface Active {
  choice: BackendChoice;
  generator: Generator | null;
  model: string | null;
  endpoint: LlmStatus['endpoint'];
  unload?: () => Promise<void>;
}

/** Creates the service; it starts with no backend ('none') until one is chosen or loaded. */
export function createLlmService(deps: LlmServiceDeps): LlmApi & { generator(): Generator | null } {
  let active: Active = {
    choice: {
      kind: 'none',
      reason: 'no language model loaded yet: techniques use their LLM-free fallbacks',
    },
    generator: null,
    model: null,
    endpoint: null,
  };
  const inflight = new Map<string, AbortController>();
  let loadCtrl: AbortController | null = null;

  async function swap(next: Active): Promise<BackendChoice> {
    const prev = active;
    active = next;
    for (const c of inflight.values()) c.abort();
    await prev.unload?.().catch(() => undefined);
    return next.choice;
  }

  const api = {
    async status(): Promise<LlmStatus> {
      const capabilities = await detectCapabilities(deps.env);
      return {
        active: active.choice,
        capabilities,
        model: active.model,
        endpoint: active.endpoint,
        webLlmModels: capabilities.webgpu ? availableWebLlmModels(capabilities.shaderF16) : [],
      };
    },

    async autoSelect(): Promise<BackendChoice> {
      return chooseBackend(await detectCapabilities(deps.env), {
        httpConfigured: active.endpoint !== null,
      });
    },

    async useHttp(config: HttpEndpointConfig): Promise<BackendChoice> {
      const generator = createHttpGenerator(config, { fetch: deps.fetch });
      const baseUrl = normaliseBaseUrl(config.baseUrl);
      return swap({
        choice: {
          kind: 'http',
          reason: `chosen in Settings: HTTP endpoint ${new URL(baseUrl).host}`,
        },
        generator,
        model: config.model.trim(),
        endpoint: { baseUrl, model: config.model.trim(), hasKey: !!config.apiKey?.trim() },
      });
    },

    listModels: (endpoint: Pick<HttpEndpointConfig, 'baseUrl' | 'apiKey'>) =>
      listEndpointModels(endpoint, { fetch: deps.fetch }),

    async useWllama(
      source: WllamaModelSource,
      onProgress?: (p: LoadProgress) => void,
    ): Promise<BackendChoice> {
      if (!deps.createWllama)
        throw createError('MODEL_LOAD_FAILED', {
          reason: 'The CPU runtime is not available in this build.',
        });
      const caps = await detectCapabilities(deps.env);
      if (!caps.wasmJspiMemory64) {
        throw createError('MODEL_LOAD_FAILED', {
          reason:
            'This browser lacks WebAssembly JSPI/memory64 needed by the CPU runtime; use a recent Chromium or an HTTP endpoint.',
        });
      }
      loadCtrl?.abort();
      const ctrl = (loadCtrl = new AbortController());
      const loaded = await loadWllama(deps.createWllama, source, {
        signal: ctrl.signal,
        ...(onProgress ? { onProgress } : {}),
      });
      const reason = caps.webgpu
        ? `chosen in Settings: CPU model ${loaded.model}`
        : `no WebGPU: using CPU (${loaded.model})`;
      return swap({
        choice: { kind: 'wllama', reason },
        generator: loaded.generator,
        model: loaded.model,
        endpoint: null,
        unload: loaded.unload,
      });
    },

    async useWebLlm(
      modelId: string,
      onProgress?: (p: LoadProgress) => void,
    ): Promise<BackendChoice> {
      if (!deps.createMlcEngine)
        throw createError('WEBGPU_UNAVAILABLE', {
          reason: 'WebLLM is not available in this build.',
        });
      const caps = await detectCapabilities(deps.env);
      const loaded = await loadWebLlm(
        deps.createMlcEngine,
        {
          webgpu: caps.webgpu,
          shaderF16: caps.shaderF16,
          ...(deps.env.storage ? { storage: deps.env.storage } : {}),
        },
        modelId,
        onProgress,
      );
      const reason = caps.shaderF16
        ? `WebGPU: ${loaded.model.label}`
        : `WebGPU without shader-f16: ${loaded.model.label} (q4f32)`;
      return swap({
        choice: { kind: 'webllm', reason },
        generator: loaded.generator,
        model: loaded.model.id,
        endpoint: null,
        unload: loaded.unload,
      });
    },

    async useNone(): Promise<BackendChoice> {
      return swap({
        choice: {
          kind: 'none',
          reason: 'turned off in Settings: techniques use their LLM-free fallbacks',
        },
        generator: null,
        model: null,
        endpoint: null,
      });
    },

    async useScripted(): Promise<BackendChoice> {
      return swap({
        choice: { kind: 'scripted', reason: 'scripted test generator (deterministic)' },
        generator: createScriptedGenerator(),
        model: 'scripted',
        endpoint: null,
      });
    },

    async generate(
      request: GenerateRequest,
      requestId?: string,
      onToken?: (piece: string) => void,
    ): Promise<GenerateResult> {
      const generator = active.generator;
      if (!generator)
        throw createError('MODEL_LOAD_FAILED', {
          reason: 'No language model is active. Choose one in Settings.',
        });
      const ctrl = new AbortController();
      const id = requestId ?? `r${Math.random().toString(36).slice(2)}`;
      inflight.set(id, ctrl);
      try {
        return await generator.generate(request, {
          signal: ctrl.signal,
          ...(onToken ? { onToken } : {}),
        });
      } finally {
        inflight.delete(id);
      }
    },

    async cancel(requestId: string): Promise<void> {
      inflight.get(requestId)?.abort();
    },

    async cancelLoad(): Promise<void> {
      loadCtrl?.abort();
    },

    generator: () => active.generator,
  };
  return api;
}
