// LLM settings: the active backend and why, a backend picker, WebLLM models with download sizes
// and progress, the CPU model (URL or file from disk) with progress and cancel, and the
// OpenAI-compatible endpoint (base URL, optional key, model; presets for Ollama, LM Studio and
// llama.cpp's server, a connection test listing the models, the CORS setting each needs).
// Receives the LLM worker's API as a prop; `proxy` must be Comlink.proxy when `api` is a Comlink remote (callbacks cross the boundary).
import { useCallback, useEffect, useState } from 'react';
import { formatBytes } from '../../workers/shared/format-bytes';
import { LOCAL_LLM_PRESETS, corsAdvice, presetFor } from '../../workers/shared/llm-presets';
import type {
  HttpEndpointConfig,
  LlmApi,
  LlmStatus,
  LoadProgress,
} from '../../workers/shared/llm-api';

export interface LlmSettingsProps {
  api: LlmApi;
  proxy?: <T extends (...args: never[]) => unknown>(fn: T) => T;
  /** Called after the endpoint is saved, so the app can persist it (the key stays on the device). */
  onEndpointSaved?: (config: HttpEndpointConfig) => void;
  /** Initial endpoint settings (e.g. restored from storage). */
  initialEndpoint?: HttpEndpointConfig;
  /** A URL the app serves for the default CPU model (optional). */
  defaultGgufUrl?: string;
}

const identity = <T,>(fn: T) => fn;

function errorText(err: unknown): string {
  if (err && typeof err === 'object' && 'message' in err) return String(err.message);
  return String(err);
}

/** The worker's status, the load in progress and the last error, with `run` for one user action. */
function useLlmState(api: LlmApi) {
  const [status, setStatus] = useState<LlmStatus | null>(null);
  const [progress, setProgress] = useState<LoadProgress | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const refresh = useCallback(async () => {
    try {
      setStatus(await api.status());
    } catch (err) {
      setError(errorText(err));
    }
  }, [api]);

  useEffect(() => {
    let alive = true;
    api.status().then(
      (s) => alive && setStatus(s),
      (err: unknown) => alive && setError(errorText(err)),
    );
    return () => {
      alive = false;
    };
  }, [api]);

  async function run(action: () => Promise<unknown>) {
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
      setProgress(null);
      await refresh();
    }
  }

  return { status, setStatus, progress, setProgress, busy, error, run };
}

export function LlmSettings({
  api,
  proxy = identity,
  onEndpointSaved,
  initialEndpoint,
  defaultGgufUrl,
}: LlmSettingsProps) {
  const { status, setStatus, progress, setProgress, busy, error, run } = useLlmState(api);
  const onProgress = proxy((p: LoadProgress) => setProgress(p));
  const caps = status?.capabilities;

  return (
    <section className="llm-settings" data-testid="llm-settings">
      <h3>Language model</h3>
      <p data-testid="llm-active">
        Active: <strong>{status?.active.kind ?? '…'}</strong>
        {status?.model ? ` (${status.model})` : ''} —{' '}
        <span data-testid="llm-reason">{status?.active.reason ?? ''}</span>
      </p>
      {caps && <LlmCapabilities caps={caps} />}
      {error && (
        <p role="alert" className="error" data-testid="llm-error">
          {error}
        </p>
      )}
      {progress && <LlmLoadProgress progress={progress} onCancel={() => void api.cancelLoad()} />}

      <fieldset disabled={busy}>
        <legend>Backend</legend>
        <button
          onClick={() =>
            void run(async () => setStatus(status && { ...status, active: await api.autoSelect() }))
          }
          data-testid="llm-auto"
        >
          Recommend for this device
        </button>{' '}
        <button onClick={() => void run(() => api.useNone())} data-testid="llm-none">
          No model (LLM-free fallbacks)
        </button>
      </fieldset>

      <WebLlmModels
        disabled={busy || !caps?.webgpu}
        models={status?.webLlmModels ?? []}
        onUse={(id) => void run(() => api.useWebLlm(id, onProgress))}
      />
      <CpuModel
        disabled={busy || !caps?.wasmJspiMemory64}
        defaultGgufUrl={defaultGgufUrl}
        onLoad={(source) => void run(() => api.useWllama(source, onProgress))}
      />
      <HttpEndpoint
        disabled={busy}
        listModels={(endpoint) => api.listModels(endpoint)}
        current={status?.endpoint}
        initialEndpoint={initialEndpoint}
        onUse={(config) =>
          void run(async () => {
            await api.useHttp(config);
            onEndpointSaved?.(config);
          })
        }
      />
    </section>
  );
}

function LlmCapabilities({ caps }: { caps: LlmStatus['capabilities'] }) {
  return (
    <ul className="llm-caps" data-testid="llm-capabilities">
      <li>
        WebGPU: {caps.webgpu ? (caps.shaderF16 ? 'yes (shader-f16)' : 'yes (no shader-f16)') : 'no'}
      </li>
      <li>CPU runtime (WebAssembly JSPI + memory64): {caps.wasmJspiMemory64 ? 'yes' : 'no'}</li>
      {/* Storage use is shown once, in Settings > Storage (one figure, not two that differ). */}
      {caps.notes.map((n) => (
        <li key={n}>{n}</li>
      ))}
    </ul>
  );
}

function LlmLoadProgress({ progress, onCancel }: { progress: LoadProgress; onCancel: () => void }) {
  return (
    <div data-testid="llm-progress">
      <progress max={1} value={progress.fraction ?? undefined} /> {progress.text}
      {progress.totalBytes
        ? ` (${formatBytes(progress.loadedBytes)} / ${formatBytes(progress.totalBytes)})`
        : ''}{' '}
      <button onClick={onCancel} data-testid="llm-cancel-load">
        Cancel
      </button>
    </div>
  );
}

function WebLlmModels({
  disabled,
  models,
  onUse,
}: {
  disabled: boolean;
  models: LlmStatus['webLlmModels'];
  onUse: (id: string) => void;
}) {
  return (
    <fieldset disabled={disabled} data-testid="llm-webllm">
      <legend>WebLLM on the GPU</legend>
      {models.length ? (
        <ul>
          {models.map((m) => (
            <li key={m.id}>
              {m.label} — download ≈ {m.downloadMB} MB, needs ≈ {m.vramMB} MB of GPU memory{' '}
              <button onClick={() => onUse(m.id)} data-testid={`llm-webllm-${m.id}`}>
                Download and use
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p>WebGPU is not available here.</p>
      )}
    </fieldset>
  );
}

function CpuModel({
  disabled,
  defaultGgufUrl,
  onLoad,
}: {
  disabled: boolean;
  defaultGgufUrl: string | undefined;
  onLoad: (source: Parameters<LlmApi['useWllama']>[0]) => void;
}) {
  const [ggufUrl, setGgufUrl] = useState(defaultGgufUrl ?? '');
  return (
    <fieldset disabled={disabled} data-testid="llm-cpu">
      <legend>CPU model (GGUF, llama.cpp in WebAssembly)</legend>
      <label>
        URL{' '}
        <input
          value={ggufUrl}
          onChange={(e) => setGgufUrl(e.currentTarget.value)}
          placeholder="/models/model.gguf"
          data-testid="llm-gguf-url"
        />
      </label>{' '}
      <button
        disabled={!ggufUrl}
        onClick={() => onLoad({ url: ggufUrl })}
        data-testid="llm-gguf-load-url"
      >
        Download and use
      </button>{' '}
      <label>
        or from disk{' '}
        <input
          type="file"
          accept=".gguf"
          data-testid="llm-gguf-file"
          onChange={(e) => {
            const file = e.currentTarget.files?.[0];
            e.currentTarget.value = '';
            if (file) onLoad({ file, name: file.name });
          }}
        />
      </label>
    </fieldset>
  );
}

type ListModels = LlmApi['listModels'];

/** The connection test's outcome: the model list, or the error with the preset's CORS advice. */
type Probe =
  | { state: 'idle' }
  | { state: 'testing' }
  | { state: 'ok'; models: string[]; ms: number }
  | { state: 'failed'; message: string; cors: string | null };

function useEndpointProbe(listModels: ListModels) {
  const [probe, setProbe] = useState<Probe>({ state: 'idle' });
  async function test(baseUrl: string, apiKey: string): Promise<string[]> {
    setProbe({ state: 'testing' });
    try {
      const r = await listModels({ baseUrl, ...(apiKey ? { apiKey } : {}) });
      setProbe({ state: 'ok', models: r.models, ms: r.ms });
      return r.models;
    } catch (err) {
      const preset = presetFor(baseUrl);
      const unreachable = (err as { code?: string }).code === 'NETWORK_ERROR';
      setProbe({
        state: 'failed',
        message: errorText(err),
        cors: preset && unreachable ? corsAdvice(preset, location.origin) : null,
      });
      return [];
    }
  }
  return { probe, test, reset: () => setProbe({ state: 'idle' }) };
}

function HttpEndpoint({
  disabled,
  current,
  initialEndpoint,
  listModels,
  onUse,
}: {
  disabled: boolean;
  current: LlmStatus['endpoint'] | undefined;
  initialEndpoint: HttpEndpointConfig | undefined;
  listModels: ListModels;
  onUse: (config: HttpEndpointConfig) => void;
}) {
  const [baseUrl, setBaseUrl] = useState(initialEndpoint?.baseUrl ?? 'http://127.0.0.1:11434/v1');
  const [apiKey, setApiKey] = useState(initialEndpoint?.apiKey ?? '');
  const [model, setModel] = useState(initialEndpoint?.model ?? '');
  const { probe, test, reset } = useEndpointProbe(listModels);
  const preset = presetFor(baseUrl);
  const connect = async (url: string) => {
    const models = await test(url, apiKey);
    if (models.length > 0 && !models.includes(model)) setModel(models[0]!);
  };
  return (
    <fieldset disabled={disabled} data-testid="llm-http">
      <legend>OpenAI-compatible endpoint</legend>
      <p className="hint">
        A model you already run on this computer:{' '}
        {LOCAL_LLM_PRESETS.map((p) => (
          <button
            key={p.id}
            onClick={() => {
              setBaseUrl(p.baseUrl);
              void connect(p.baseUrl);
            }}
            data-testid={`llm-preset-${p.id}`}
          >
            {p.label}
          </button>
        ))}
      </p>
      {preset && (
        <p className="hint" data-testid="llm-http-cors">
          {preset.label} at {preset.baseUrl}. {corsAdvice(preset, location.origin)}
        </p>
      )}
      <label>
        Base URL{' '}
        <input
          value={baseUrl}
          onChange={(e) => {
            setBaseUrl(e.currentTarget.value);
            reset();
          }}
          data-testid="llm-http-base"
        />
      </label>{' '}
      <label>
        Model{' '}
        <input
          value={model}
          list="llm-http-models"
          onChange={(e) => setModel(e.currentTarget.value)}
          data-testid="llm-http-model"
        />
      </label>
      <datalist id="llm-http-models">
        {probe.state === 'ok' && probe.models.map((m) => <option key={m} value={m} />)}
      </datalist>{' '}
      <label>
        API key (optional, sent only to this URL){' '}
        <input
          type="password"
          autoComplete="off"
          value={apiKey}
          onChange={(e) => setApiKey(e.currentTarget.value)}
          data-testid="llm-http-key"
        />
      </label>{' '}
      <button
        disabled={!baseUrl || probe.state === 'testing'}
        onClick={() => void connect(baseUrl)}
        data-testid="llm-http-test"
      >
        Test connection
      </button>{' '}
      <button
        disabled={!baseUrl || !model}
        onClick={() => onUse({ baseUrl, model, ...(apiKey ? { apiKey } : {}) })}
        data-testid="llm-http-save"
      >
        Use endpoint
      </button>
      <EndpointProbe probe={probe} />
      {current && (
        <p data-testid="llm-http-current">
          Using {current.baseUrl} ({current.model}){current.hasKey ? ', with key' : ''}
        </p>
      )}
    </fieldset>
  );
}

function EndpointProbe({ probe }: { probe: Probe }) {
  if (probe.state === 'idle') return null;
  if (probe.state === 'testing') return <p data-testid="llm-http-probe">Connecting…</p>;
  if (probe.state === 'ok') {
    return (
      <p data-testid="llm-http-probe" data-state="ok">
        Connected in {Math.round(probe.ms)} ms:{' '}
        {probe.models.length
          ? `${probe.models.length} model${probe.models.length === 1 ? '' : 's'} (${probe.models.join(', ')})`
          : 'the server lists no models; load one in it first'}
      </p>
    );
  }
  return (
    <p role="alert" className="error" data-testid="llm-http-probe" data-state="failed">
      {probe.message}
      {probe.cors && (
        <>
          {' '}
          <strong>CORS:</strong> {probe.cors}
        </>
      )}
    </p>
  );
}
