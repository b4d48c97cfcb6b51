// Capability detection (WebGPU, shader-f16, WebAssembly JSPI + memory64, storage quota) and
// the backend recommendation with a human-readable reason. Environment objects are injected so
// Node tests fake navigator.gpu / navigator.storage.
import type { BackendChoice, LlmBackendKind, LlmCapabilities } from '../shared/llm-api';
import type { StorageLike } from './webllm';

export interface GpuLike {
  requestAdapter(): Promise<{ features: { has(name: string): boolean } } | null>;
}

export interface DetectEnv {
  gpu?: GpuLike | undefined;
  storage?: StorageLike | undefined;
  wasm?: Pick<typeof WebAssembly, 'validate'> & { Suspending?: unknown };
}

// A module that only declares one 64-bit memory (flags 0x04): valid only where memory64 is.
const MEMORY64_PROBE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 5, 3, 1, 4, 1]);

/** Detects what this device can run. Never throws: a failing probe counts as "no". */
export async function detectCapabilities(env: DetectEnv): Promise<LlmCapabilities> {
  const notes: string[] = [];
  let webgpu = false;
  let shaderF16 = false;
  if (!env.gpu) {
    notes.push('This browser has no WebGPU (navigator.gpu is missing).');
  } else {
    try {
      const adapter = await env.gpu.requestAdapter();
      if (adapter) {
        webgpu = true;
        shaderF16 = adapter.features.has('shader-f16');
        if (!shaderF16) notes.push('WebGPU has no shader-f16: only q4f32 models are offered.');
      } else {
        notes.push('WebGPU found no adapter (GPU blocklisted or disabled).');
      }
    } catch {
      notes.push('WebGPU adapter request failed.');
    }
  }
  const wasm = !!env.wasm;
  let wasmJspiMemory64 = false;
  if (env.wasm) {
    try {
      wasmJspiMemory64 =
        typeof env.wasm.Suspending === 'function' && env.wasm.validate(MEMORY64_PROBE);
    } catch {
      wasmJspiMemory64 = false;
    }
    if (!wasmJspiMemory64)
      notes.push('WebAssembly lacks JSPI or memory64: the CPU model cannot run here.');
  }
  let storage: LlmCapabilities['storage'] = null;
  if (env.storage) {
    try {
      const e = await env.storage.estimate();
      if (e.quota !== undefined) storage = { quotaBytes: e.quota, usageBytes: e.usage ?? 0 };
    } catch {
      notes.push('Storage quota could not be read.');
    }
  }
  return { webgpu, shaderF16, wasm, wasmJspiMemory64, storage, notes };
}

export interface ChoosePrefs {
  /** What the user picked; 'auto' (default) lets detection decide. */
  preferred?: LlmBackendKind | 'auto';
  httpConfigured?: boolean;
}

/** Picks a backend and says why, e.g. "no WebGPU: using CPU". Pure. */
export function chooseBackend(caps: LlmCapabilities, prefs: ChoosePrefs = {}): BackendChoice {
  const preferred = prefs.preferred ?? 'auto';
  const usable: Record<LlmBackendKind, boolean> = {
    webllm: caps.webgpu,
    wllama: caps.wasmJspiMemory64,
    http: !!prefs.httpConfigured,
    scripted: true,
    none: true,
  };
  if (preferred !== 'auto') {
    if (usable[preferred])
      return { kind: preferred, reason: `chosen in Settings: ${describe(preferred)}` };
    const fallback = chooseBackend(caps, { ...prefs, preferred: 'auto' });
    return {
      kind: fallback.kind,
      reason: `${describe(preferred)} is not available here (${whyNot(preferred, caps)}); ${fallback.reason}`,
    };
  }
  if (caps.webgpu) {
    return {
      kind: 'webllm',
      reason: caps.shaderF16
        ? 'WebGPU available: using WebLLM on the GPU'
        : 'WebGPU without shader-f16: using WebLLM q4f32 models on the GPU',
    };
  }
  if (caps.wasmJspiMemory64)
    return { kind: 'wllama', reason: 'no WebGPU: using CPU (llama.cpp in WebAssembly)' };
  if (prefs.httpConfigured)
    return {
      kind: 'http',
      reason: 'no WebGPU and no CPU runtime: using the configured HTTP endpoint',
    };
  return {
    kind: 'none',
    reason: 'no WebGPU and no CPU runtime: techniques use their LLM-free fallbacks',
  };
}

function describe(kind: LlmBackendKind): string {
  return {
    webllm: 'WebLLM (WebGPU)',
    wllama: 'CPU (llama.cpp in WebAssembly)',
    http: 'HTTP endpoint',
    scripted: 'scripted test generator',
    none: 'no language model',
  }[kind];
}

function whyNot(kind: LlmBackendKind, caps: LlmCapabilities): string {
  if (kind === 'webllm') return 'no WebGPU';
  if (kind === 'wllama') return caps.wasm ? 'no WebAssembly JSPI/memory64' : 'no WebAssembly';
  if (kind === 'http') return 'no endpoint configured';
  return 'unavailable';
}
