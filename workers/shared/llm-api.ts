// The LLM contract the UI and the research layer see: generation requests, backend choice,
// capabilities, model catalogue entries and load progress. Plain DTOs only (structured-clone
// safe).

/** One chat turn, OpenAI style. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** A generation request: either a raw `prompt` or chat `messages` (messages win when both are set). */
export interface GenerateRequest {
  prompt?: string;
  messages?: ChatMessage[];
  /** Sampling temperature; HyDE uses 0.7, RAG-Fusion 0.8 (WSOP spec). Default 0.7. */
  temperature?: number;
  /** Upper bound on generated tokens. Default 256. */
  maxTokens?: number;
  /** Generation stops before the first occurrence of any of these strings. */
  stop?: string[];
  seed?: number;
}

/**
 * A cancelled generation throws ABORTED (details.partialText holds what was streamed). `cut`: the
 * reply passed MAX_REPLY_CHARS (or one streamed event its byte budget) and was cut there.
 */
export type FinishReason = 'stop' | 'length' | 'cut';

/** 200 KB: the most characters one reply may hold; a longer one is cut and says so. */
export const MAX_REPLY_CHARS = 200 * 1024;

export interface GenerateResult {
  text: string;
  finishReason: FinishReason;
  /** Number of streamed pieces (tokens for local backends, deltas for HTTP). */
  tokens: number;
  backend: LlmBackendKind;
}

export type LlmBackendKind = 'webllm' | 'wllama' | 'http' | 'scripted' | 'none';

/** What the device can run, found by capability detection (never by user-agent sniffing). */
export interface LlmCapabilities {
  webgpu: boolean;
  /** WebGPU `shader-f16`: without it only q4f32 / q0f32 WebLLM variants run. */
  shaderF16: boolean;
  wasm: boolean;
  /** JSPI + memory64: what the shipped wllama.wasm needs (Chromium >= 137). */
  wasmJspiMemory64: boolean;
  storage: { quotaBytes: number; usageBytes: number } | null;
  /** Why WebGPU is missing or limited, for the UI. */
  notes: string[];
}

/** The active backend and the reason it was chosen, shown as is in the UI. */
export interface BackendChoice {
  kind: LlmBackendKind;
  reason: string;
}

/** A WebLLM prebuilt model we offer; sizes are approximate download sizes of the weights. */
export interface WebLlmModelInfo {
  id: string;
  label: string;
  downloadMB: number;
  vramMB: number;
  requiresShaderF16: boolean;
}

/** HTTP endpoint settings (OpenAI-compatible: Ollama, llama.cpp server, LM Studio, vLLM, hosted). */
export interface HttpEndpointConfig {
  /** e.g. http://127.0.0.1:11434/v1 ; requests go to `${baseUrl}/chat/completions` only. */
  baseUrl: string;
  /** Optional API key; sent only to baseUrl as `Authorization: Bearer`, never logged. */
  apiKey?: string;
  model: string;
}

/** An endpoint's model list; getting it is also the connection test. */
export interface EndpointModels {
  baseUrl: string;
  models: string[];
  /** How long the request took. */
  ms: number;
}

export interface LoadProgress {
  backend: LlmBackendKind;
  /** 0..1, or null when the total is unknown. */
  fraction: number | null;
  loadedBytes: number;
  totalBytes: number | null;
  text: string;
}

export interface LlmStatus {
  active: BackendChoice;
  capabilities: LlmCapabilities;
  /** Model currently loaded by the active backend (id, file name or endpoint model). */
  model: string | null;
  /** Only meaningful for HTTP: the configured base URL, never the key. */
  endpoint: { baseUrl: string; model: string; hasKey: boolean } | null;
  webLlmModels: WebLlmModelInfo[];
}

/** A source for the CPU backend: a URL served by the app or a user-picked file. */
export type WllamaModelSource = { url: string } | { file: Blob; name: string };

/**
 * The API the LLM worker exposes (llm.worker.ts) and the UI uses through Comlink. Callbacks must be
 * wrapped with `Comlink.proxy` by the caller. Every method may throw an AppError (code in `code`).
 */
export interface LlmApi {
  /** Re-detects capabilities and returns the status (does not change the active backend). */
  status(): Promise<LlmStatus>;
  /** Picks the backend the device supports best, without loading anything. */
  autoSelect(): Promise<BackendChoice>;
  /** Uses an OpenAI-compatible endpoint. @throws INVALID_ARGUMENT for a bad URL. */
  useHttp(config: HttpEndpointConfig): Promise<BackendChoice>;
  /**
   * Lists an endpoint's models (GET `${baseUrl}/models`): the connection test.
   * @throws INVALID_ARGUMENT, NETWORK_ERROR (unreachable or CORS), AUTH_FAILED, PROVIDER_ERROR, MALFORMED_RESPONSE
   */
  listModels(endpoint: Pick<HttpEndpointConfig, 'baseUrl' | 'apiKey'>): Promise<EndpointModels>;
  /** Loads a GGUF on the CPU backend. @throws MODEL_LOAD_FAILED, ABORTED */
  useWllama(
    source: WllamaModelSource,
    onProgress?: (p: LoadProgress) => void,
  ): Promise<BackendChoice>;
  /** Loads a WebLLM model after checking WebGPU and storage quota. @throws WEBGPU_UNAVAILABLE, QUOTA_INSUFFICIENT, MODEL_LOAD_FAILED */
  useWebLlm(modelId: string, onProgress?: (p: LoadProgress) => void): Promise<BackendChoice>;
  /** Turns generation off; every technique then uses its fallback. */
  useNone(): Promise<BackendChoice>;
  /** The deterministic scripted generator (tests, and `?llm=scripted` in the app). */
  useScripted(): Promise<BackendChoice>;
  /**
   * Generates text. `requestId` lets `cancel(requestId)` abort it (AbortSignal does not cross Comlink).
   * @throws ABORTED, TIMEOUT, RATE_LIMITED, PROVIDER_ERROR, AUTH_FAILED, MALFORMED_RESPONSE, NETWORK_ERROR
   */
  generate(
    request: GenerateRequest,
    requestId?: string,
    onToken?: (piece: string) => void,
  ): Promise<GenerateResult>;
  cancel(requestId: string): Promise<void>;
  /** Cancels an in-flight model download/load. */
  cancelLoad(): Promise<void>;
}
