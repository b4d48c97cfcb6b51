// wllama and WebLLM adapters with injected fakes (neither runs in Node), capability detection
// with injected navigator.gpu / storage, and the service that switches backends.
import { describe, expect, it } from 'vitest';
import { isAppError } from '../shared/errors';
import { chooseBackend, detectCapabilities, type GpuLike } from './detect';
import { createLlmService } from './service';
import {
  availableWebLlmModels,
  checkQuota,
  loadWebLlm,
  resolveWebLlmModel,
  type MlcEngineLike,
} from './webllm';
import { loadWllama, type WllamaLike } from './wllama';

function fakeWllama(opts: { template?: string | null; failLoad?: boolean; words?: string[] } = {}) {
  const log: string[] = [];
  let loaded = false;
  const words = opts.words ?? ['Once', ' upon', ' a', ' time', ' there', ' was'];
  async function* emit<T>(signal: AbortSignal | undefined, make: (w: string) => T) {
    for (const w of words) {
      if (signal?.aborted) throw new DOMException('aborted', 'AbortError');
      await Promise.resolve();
      yield make(w);
    }
  }
  const w: WllamaLike & { log: string[] } = {
    log,
    async loadModel(blobs) {
      log.push(`loadModel:${blobs.length}`);
      if (opts.failLoad) throw new Error('invalid magic');
      loaded = true;
    },
    async loadModelFromUrl(url, params) {
      log.push(`loadModelFromUrl:${url}`);
      params?.progressCallback?.({ loaded: 50, total: 100 });
      params?.progressCallback?.({ loaded: 100, total: 100 });
      if (opts.failLoad) throw new Error('404');
      loaded = true;
    },
    async createCompletion(o) {
      log.push(`completion:${o.prompt.slice(0, 20)}|t=${o.temperature}|n=${o.max_tokens}`);
      return emit(o.abortSignal, (text) => ({ choices: [{ text }] }));
    },
    async createChatCompletion(o) {
      log.push(`chat:${o.messages.length}`);
      return emit(o.abortSignal, (content) => ({ choices: [{ delta: { content } }] }));
    },
    getChatTemplate: () => opts.template ?? null,
    isModelLoaded: () => loaded,
    async exit() {
      log.push('exit');
    },
  };
  return w;
}

describe('wllama adapter (fake instance)', () => {
  it('loads from a URL with progress, streams, honours stop strings', async () => {
    const w = fakeWllama();
    const progress: Array<number | null> = [];
    const b = await loadWllama(
      () => w,
      { url: '/test-models/stories260K.gguf' },
      { onProgress: (p) => progress.push(p.fraction) },
    );
    expect(b.model).toBe('stories260K.gguf');
    expect(progress).toContain(0.5);
    expect(progress.at(-1)).toBe(1);
    const r = await b.generator.generate({
      prompt: 'Once',
      stop: [' there'],
      temperature: 0.1,
      maxTokens: 20,
    });
    expect(r.text).toBe('Once upon a time');
    expect(r.finishReason).toBe('stop');
    expect(w.log).toContain('completion:Once|t=0.1|n=20');
  });

  it('uses the chat template when the model has one, a flat prompt when not', async () => {
    const chatty = fakeWllama({ template: '{{messages}}' });
    const b1 = await loadWllama(() => chatty, { file: new Blob(['GGUF']), name: 'smollm2.gguf' });
    await b1.generator.generate({ messages: [{ role: 'user', content: 'hi' }] });
    expect(chatty.log).toContain('chat:1');
    const base = fakeWllama({ template: null });
    const b2 = await loadWllama(() => base, { file: new Blob(['GGUF']), name: 'stories.gguf' });
    await b2.generator.generate({ messages: [{ role: 'user', content: 'hi' }] });
    expect(base.log.some((l) => l.startsWith('completion:User: hi'))).toBe(true);
  });

  it('cancels a running generation with ABORTED', async () => {
    const b = await loadWllama(() => fakeWllama(), { url: '/m.gguf' });
    const ctrl = new AbortController();
    const err = await b.generator
      .generate({ prompt: 'x' }, { signal: ctrl.signal, onToken: () => ctrl.abort() })
      .catch((e: unknown) => e);
    expect(isAppError(err) && err.code).toBe('ABORTED');
  });

  it('reports MODEL_LOAD_FAILED for a bad file and frees the instance', async () => {
    const w = fakeWllama({ failLoad: true });
    await expect(
      loadWllama(() => w, { file: new Blob(['x']), name: 'bad.gguf' }),
    ).rejects.toMatchObject({ code: 'MODEL_LOAD_FAILED' });
    expect(w.log).toContain('exit');
    await expect(
      loadWllama(() => w, { file: new Blob(['x']), name: 'notes.txt' }),
    ).rejects.toMatchObject({ code: 'MODEL_LOAD_FAILED' });
  });
});

const gpu = (features: string[] | null): GpuLike => ({
  requestAdapter: async () => (features ? { features: new Set(features) } : null),
});
const storage = (quota: number, usage = 0) => ({ estimate: async () => ({ quota, usage }) });
const wasmOk = { validate: () => true, Suspending: function Suspending() {} };
const MB = 1024 * 1024;

describe('capability detection and backend choice', () => {
  it('WebGPU with shader-f16 -> WebLLM', async () => {
    const caps = await detectCapabilities({
      gpu: gpu(['shader-f16']),
      storage: storage(10_000 * MB),
      wasm: wasmOk,
    });
    expect(caps).toMatchObject({ webgpu: true, shaderF16: true, wasmJspiMemory64: true });
    expect(chooseBackend(caps)).toMatchObject({ kind: 'webllm' });
  });

  it('no WebGPU -> CPU, and the reason says so', async () => {
    const caps = await detectCapabilities({ wasm: wasmOk });
    expect(chooseBackend(caps)).toEqual({
      kind: 'wllama',
      reason: 'no WebGPU: using CPU (llama.cpp in WebAssembly)',
    });
  });

  it('no adapter and no JSPI -> HTTP if configured, else none', async () => {
    const caps = await detectCapabilities({ gpu: gpu(null), wasm: { validate: () => true } });
    expect(caps.webgpu).toBe(false);
    expect(caps.wasmJspiMemory64).toBe(false);
    expect(chooseBackend(caps, { httpConfigured: true }).kind).toBe('http');
    expect(chooseBackend(caps).kind).toBe('none');
  });

  it('a user choice the device cannot run falls back with both reasons', async () => {
    const caps = await detectCapabilities({ wasm: wasmOk });
    const c = chooseBackend(caps, { preferred: 'webllm' });
    expect(c.kind).toBe('wllama');
    expect(c.reason).toContain('not available here (no WebGPU)');
    expect(chooseBackend(caps, { preferred: 'none' }).kind).toBe('none');
  });

  it('the real memory64 probe is a valid check in this Node', async () => {
    const caps = await detectCapabilities({ wasm: WebAssembly });
    expect(typeof caps.wasmJspiMemory64).toBe('boolean');
  });
});

describe('WebLLM selection and quota', () => {
  it('offers q4f16 variants with shader-f16 and only q4f32 without it', () => {
    const f16 = availableWebLlmModels(true).map((m) => m.id);
    const f32 = availableWebLlmModels(false).map((m) => m.id);
    expect(f16.every((id) => !id.includes('q4f32'))).toBe(true);
    expect(f32.length).toBe(f16.length);
    expect(f32.every((id) => id.includes('q4f32'))).toBe(true);
    expect(resolveWebLlmModel('Llama-3.2-1B-Instruct-q4f16_1-MLC', false).id).toBe(
      'Llama-3.2-1B-Instruct-q4f32_1-MLC',
    );
    expect(() => resolveWebLlmModel('nope', true)).toThrow();
  });

  it('checks the quota before downloading and refuses when it does not fit', async () => {
    expect((await checkQuota(storage(2000 * MB, 1000 * MB), 300)).ok).toBe(true);
    expect((await checkQuota(storage(2000 * MB, 1800 * MB), 300)).ok).toBe(false);
    let created = 0;
    const create = async () => {
      created++;
      return {} as MlcEngineLike;
    };
    const err = await loadWebLlm(
      create,
      { webgpu: true, shaderF16: false, storage: storage(400 * MB) },
      'Llama-3.2-1B-Instruct-q4f16_1-MLC',
    ).catch((e: unknown) => e);
    expect(isAppError(err) && err.code).toBe('QUOTA_INSUFFICIENT');
    expect(created).toBe(0);
    await expect(
      loadWebLlm(create, { webgpu: false, shaderF16: false }, 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC'),
    ).rejects.toMatchObject({ code: 'WEBGPU_UNAVAILABLE' });
  });

  it('loads the q4f32 twin without shader-f16, reports progress, streams and interrupts', async () => {
    let interrupted = 0;
    let loadedId = '';
    const engine: MlcEngineLike = {
      chat: {
        completions: {
          async create() {
            return (async function* () {
              for (const w of ['Hypo', 'thetical', ' passage', ' more']) {
                await Promise.resolve();
                yield { choices: [{ delta: { content: w } }] };
              }
            })();
          },
        },
      },
      interruptGenerate: () => void interrupted++,
      unload: async () => undefined,
    };
    const fractions: Array<number | null> = [];
    const b = await loadWebLlm(
      async (id, onProgress) => {
        loadedId = id;
        onProgress({ progress: 0.25, text: 'Fetching' });
        return engine;
      },
      { webgpu: true, shaderF16: false, storage: storage(10_000 * MB) },
      'SmolLM2-360M-Instruct-q4f16_1-MLC',
      (p) => fractions.push(p.fraction),
    );
    expect(loadedId).toBe('SmolLM2-360M-Instruct-q4f32_1-MLC');
    expect(fractions).toEqual([0.25]);
    expect((await b.generator.generate({ prompt: 'x', stop: [' more'] })).text).toBe(
      'Hypothetical passage',
    );
    const ctrl = new AbortController();
    await b.generator
      .generate({ prompt: 'x' }, { signal: ctrl.signal, onToken: () => ctrl.abort() })
      .catch(() => undefined);
    expect(interrupted).toBeGreaterThan(0);
  });
});

describe('LLM service', () => {
  it('starts with none, switches to HTTP without exposing the key, and cancels by request id', async () => {
    const svc = createLlmService({ env: { wasm: wasmOk }, fetch });
    expect((await svc.status()).active.kind).toBe('none');
    await expect(svc.generate({ prompt: 'x' })).rejects.toMatchObject({
      code: 'MODEL_LOAD_FAILED',
    });
    await svc.useHttp({ baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'sk-1', model: 'm' });
    const st = await svc.status();
    expect(st.endpoint).toEqual({ baseUrl: 'http://127.0.0.1:9/v1', model: 'm', hasKey: true });
    expect(JSON.stringify(st)).not.toContain('sk-1');
    await svc.useScripted();
    const p = svc.generate(
      { prompt: 'Question: what is x?' },
      'req1',
      () => void svc.cancel('req1'),
    );
    await expect(p).rejects.toMatchObject({ code: 'ABORTED' });
  });

  it('loads the CPU backend with the reason "no WebGPU: using CPU"', async () => {
    const svc = createLlmService({
      env: { wasm: wasmOk },
      fetch,
      createWllama: () => fakeWllama(),
    });
    const choice = await svc.useWllama({ url: '/test-models/stories260K.gguf' });
    expect(choice).toEqual({ kind: 'wllama', reason: 'no WebGPU: using CPU (stories260K.gguf)' });
    expect((await svc.generate({ prompt: 'Once', maxTokens: 3 })).text).toBe('Once upon a');
    expect((await svc.autoSelect()).kind).toBe('wllama');
  });
});
