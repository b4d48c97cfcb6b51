// Settings > Models: installed embedding models (size, which is active, use, delete), downloads
// from the catalogue (size shown first, byte progress, cancel), import from a folder, the hub
// address (Advanced), and the self-test of each model. Talks only to the typed embed worker API
// it is given; switching the library's model goes through `onActivate` (the db worker re-embeds).
import { useCallback, useEffect, useRef, useState } from 'react';
import type {
  CatalogueEntry,
  EmbedSelfTestResult,
  EmbedWorkerApi,
  InstalledModel,
  ModelTransferProgress,
} from '../../workers/shared/embed-api';
import { SelfTestResult } from './self-test-result';
import { formatBytes } from '../../workers/shared/format-bytes';

/** The embed worker methods this panel uses (a Comlink remote fits). */
export type ModelsApi = Pick<
  EmbedWorkerApi,
  | 'listModels'
  | 'catalogue'
  | 'downloadModel'
  | 'importModelFiles'
  | 'deleteModel'
  | 'selfTest'
  | 'cancel'
>;

export interface ModelsPanelProps {
  api: ModelsApi;
  /** Comlink.proxy, so progress callbacks cross the worker boundary. */
  proxy: <T extends (...args: never[]) => unknown>(fn: T) => T;
  /**
   * Makes `id` the library's model (the db worker pauses the index, switches every embed worker
   * and re-embeds in the background). Without it, "Use this model" is disabled.
   */
  onActivate?: (id: string) => Promise<unknown>;
  /** "123/456 chunks" for the active model, from the semantic status. */
  embeddedLabel?: string;
  /** The model id the library's semantic index uses (from the semantic status). */
  embeddedModelId?: string;
  onError: (err: unknown) => void;
  /** Navigator online state (injected for tests); default navigator.onLine. */
  online?: boolean;
}

const DEFAULT_HUB = 'https://huggingface.co';
const USE_LITE_SCIFACT = 0.25;
let jobCounter = 0;

export function ModelsPanel(props: ModelsPanelProps) {
  const { api, proxy, onError } = props;
  const [models, setModels] = useState<InstalledModel[] | null>(null);
  const [catalogue, setCatalogue] = useState<CatalogueEntry[]>([]);
  const [hub, setHub] = useState(DEFAULT_HUB);
  const [download, setDownload] = useState<{
    id: string;
    jobId: string;
    progress: ModelTransferProgress | null;
  } | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [importProfile, setImportProfile] = useState('all-MiniLM-L6-v2');
  const [selfTest, setSelfTest] = useState<EmbedSelfTestResult | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const dirInput = useRef<HTMLInputElement>(null);
  const online = props.online ?? (typeof navigator === 'undefined' ? true : navigator.onLine);

  const refresh = useCallback(async () => {
    try {
      const [m, c] = await Promise.all([api.listModels(), api.catalogue().catch(() => [])]);
      setModels(m);
      setCatalogue(c);
    } catch (err) {
      onError(err);
    }
  }, [api, onError]);

  useEffect(() => {
    let live = true;
    Promise.all([api.listModels(), api.catalogue().catch(() => [])]).then(
      ([m, c]) => {
        if (!live) return;
        setModels(m);
        setCatalogue(c);
      },
      (err: unknown) => live && onError(err),
    );
    return () => {
      live = false;
    };
  }, [api, onError]);

  const installed = new Set(models?.map((m) => m.id));
  const active = models?.find((m) => m.active);

  const startDownload = async (entry: CatalogueEntry) => {
    const jobId = `model-download-${++jobCounter}`;
    setMessage(null);
    setDownload({ id: entry.id, jobId, progress: null });
    try {
      const m = await api.downloadModel(
        entry.id,
        proxy((p: ModelTransferProgress) =>
          setDownload((d) => (d && d.jobId === jobId ? { ...d, progress: p } : d)),
        ),
        hub.trim() || DEFAULT_HUB,
        jobId,
      );
      setMessage(`${m.label} downloaded (${formatBytes(m.sizeBytes)}). It works offline now.`);
    } catch (err) {
      if ((err as { code?: string }).code === 'ABORTED') setMessage('Download cancelled.');
      else onError(err);
    } finally {
      setDownload(null);
      await refresh();
    }
  };

  const run = async (key: string, fn: () => Promise<void>) => {
    setBusy(key);
    try {
      await fn();
    } catch (err) {
      onError(err);
    } finally {
      setBusy(null);
      await refresh();
    }
  };

  const onFolder = (list: FileList) => {
    const files = Array.from(list, (f) => ({ name: f.webkitRelativePath || f.name, data: f }));
    void run('import', async () => {
      setMessage(null);
      const m = await api.importModelFiles(importProfile, files);
      setMessage(`${m.label} imported (${formatBytes(m.sizeBytes)}).`);
    });
  };

  const pct = (p: ModelTransferProgress | null) =>
    p && p.total > 0 ? Math.min(100, Math.floor((p.loaded / p.total) * 100)) : 0;
  const recommended = catalogue.find((c) => c.scifactNdcg10 !== undefined);

  return (
    <div className="models-panel">
      <table className="doc-table" data-testid="models-installed">
        <thead>
          <tr>
            <th scope="col">Model</th>
            <th scope="col">Dimensions</th>
            <th scope="col">Size</th>
            <th scope="col">Status</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {models === null && (
            <tr>
              <td colSpan={5}>Loading…</td>
            </tr>
          )}
          {models?.map((m) => (
            <tr
              key={m.id}
              data-testid={`model-row-${m.id}`}
              data-active={String(m.active)}
              data-size={m.sizeBytes}
            >
              <td>
                {m.label} <small>({m.id})</small>
                <div className="path">
                  {m.source === 'bundled'
                    ? 'Ships with Sift · works offline'
                    : `Stored on this device (${m.source === 'download' ? 'downloaded' : 'imported'}) · works offline`}
                  {' · canonical WebAssembly runtime'}
                  {m.profile.queryPrefix && ` · queries prefixed "${m.profile.queryPrefix.trim()}"`}
                  {m.profile.pooling === 'cls' && ' · CLS pooling'}
                </div>
              </td>
              <td>{m.dim}</td>
              <td data-testid="model-size">
                {m.source === 'bundled'
                  ? `about ${formatBytes(m.sizeBytes)}`
                  : formatBytes(m.sizeBytes)}
              </td>
              <td>
                {m.active ? (
                  <>
                    <strong>Active</strong>
                    {props.embeddedLabel && (
                      <div
                        className="path"
                        data-testid="models-embedded"
                        data-model={props.embeddedModelId ?? ''}
                      >
                        {props.embeddedLabel}
                      </div>
                    )}
                  </>
                ) : (
                  'Installed'
                )}
              </td>
              <td>
                {!m.active && (
                  <button
                    data-testid={`model-use-${m.id}`}
                    disabled={!props.onActivate || busy !== null}
                    title={props.onActivate ? undefined : 'Switching models is not available yet.'}
                    onClick={() =>
                      void run(`use-${m.id}`, async () => {
                        await props.onActivate?.(m.id);
                        setMessage(
                          `${m.label} is now active. Your library is re-embedded in the background; keyword search works meanwhile.`,
                        );
                      })
                    }
                  >
                    {busy === `use-${m.id}` ? 'Switching…' : 'Use this model'}
                  </button>
                )}{' '}
                <button
                  data-testid={`model-self-test-${m.id}`}
                  disabled={busy !== null}
                  onClick={() =>
                    void run(`test-${m.id}`, async () => {
                      setSelfTest(null);
                      setSelfTest(await api.selfTest(m.id));
                    })
                  }
                >
                  {busy === `test-${m.id}`
                    ? m.family === 'bert'
                      ? 'Testing (loading transformers.js)…'
                      : 'Testing…'
                    : 'Self-test'}
                </button>{' '}
                {m.deletable && (
                  <button
                    data-testid={`model-delete-${m.id}`}
                    disabled={m.active || busy !== null}
                    title={
                      m.active ? 'Switch to another model before deleting this one.' : undefined
                    }
                    onClick={() => {
                      if (
                        !window.confirm(
                          `Delete ${m.label} (${formatBytes(m.sizeBytes)}) from this device?`,
                        )
                      )
                        return;
                      void run(`delete-${m.id}`, () => api.deleteModel(m.id));
                    }}
                  >
                    Delete
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {online && active?.id === 'use-lite' && recommended && !installed.has(recommended.id) && (
        <p className="hint" data-testid="models-recommendation">
          Recommended while you are online: download {recommended.label} (
          {formatBytes(recommended.sizeBytes)}). On scientific questions (SciFact) it reaches
          nDCG@10 {recommended.scifactNdcg10?.toFixed(3)} where the built-in model reaches about{' '}
          {USE_LITE_SCIFACT.toFixed(2)}.
        </p>
      )}
      {selfTest && <SelfTestResult result={selfTest} />}
      <h4>Download a model</h4>
      {!online && <p className="hint">You are offline: downloads need a connection.</p>}
      <table className="doc-table" data-testid="models-catalogue">
        <tbody>
          {catalogue.map((c) => (
            <tr key={c.id} data-testid={`catalogue-${c.id}`}>
              <td>
                {c.label}
                <div className="path">
                  {c.repo} · {c.dim} dimensions · {c.description}
                </div>
              </td>
              <td data-testid="catalogue-size">
                {c.sizeApproximate ? 'about ' : ''}
                {formatBytes(c.sizeBytes)}
              </td>
              <td>
                {installed.has(c.id) ? (
                  'Installed'
                ) : download?.id === c.id ? (
                  <span className="row" data-testid="model-download-progress">
                    <progress max={100} value={pct(download.progress)} />{' '}
                    <span data-testid="model-download-bytes">
                      {download.progress
                        ? `${download.progress.phase === 'downloading' ? download.progress.file + ' ' : download.progress.phase + ' '}${formatBytes(download.progress.loaded)} of ${formatBytes(download.progress.total)}`
                        : 'Starting…'}
                    </span>{' '}
                    <button
                      data-testid="model-download-cancel"
                      onClick={() => void api.cancel(download.jobId)}
                    >
                      Cancel
                    </button>
                  </span>
                ) : (
                  <button
                    data-testid={`model-download-${c.id}`}
                    disabled={download !== null || busy !== null}
                    onClick={() => void startDownload(c)}
                  >
                    Download ({c.sizeApproximate ? '~' : ''}
                    {formatBytes(c.sizeBytes)})
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <h4>Import from a folder</h4>
      <p className="hint">
        Pick a folder that contains config.json, tokenizer.json and model.safetensors (for example a
        copy of the model from another device).
      </p>
      <label>
        Model type{' '}
        <select
          value={importProfile}
          data-testid="model-import-profile"
          onChange={(e) => setImportProfile(e.currentTarget.value)}
        >
          {catalogue.map((c) => (
            <option key={c.id} value={c.id}>
              {c.label}
            </option>
          ))}
        </select>
      </label>{' '}
      <button
        data-testid="model-import-folder"
        disabled={busy !== null || download !== null}
        onClick={() => dirInput.current?.click()}
      >
        {busy === 'import' ? 'Importing…' : 'Import from folder…'}
      </button>
      <input
        ref={dirInput}
        type="file"
        hidden
        multiple
        data-testid="model-import-input"
        {...({ webkitdirectory: '', directory: '' } as Record<string, string>)}
        onChange={(e) => {
          const files = e.currentTarget.files;
          if (files && files.length > 0) onFolder(files);
          e.currentTarget.value = '';
        }}
      />
      {message && (
        <p className="hint" role="status" data-testid="models-message">
          {message}
        </p>
      )}
      <details>
        <summary>Advanced</summary>
        <label>
          Model hub address{' '}
          <input
            type="url"
            value={hub}
            data-testid="model-hub-url"
            onChange={(e) => setHub(e.currentTarget.value)}
            size={40}
          />
        </label>
        <p className="hint">
          Files are fetched from &lt;hub&gt;/&lt;repo&gt;/resolve/main/. Default {DEFAULT_HUB}.
        </p>
      </details>
    </div>
  );
}
