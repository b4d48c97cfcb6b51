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
import { ColumnHeads } from '../components/column-heads';
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

type Busy = string | null;

export function ModelsPanel(props: ModelsPanelProps) {
  const { api, proxy, onError } = props;
  const { models, catalogue, refresh } = useModelLists(api, onError);
  const [hub, setHub] = useState(DEFAULT_HUB);
  const [busy, run] = useBusyRun(onError, refresh);
  const [selfTest, setSelfTest] = useState<EmbedSelfTestResult | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const online = props.online ?? (typeof navigator === 'undefined' ? true : navigator.onLine);
  const { download, startDownload } = useModelDownload({
    api,
    proxy,
    hub,
    onError,
    setMessage,
    refresh,
  });

  const installed = new Set(models?.map((m) => m.id));
  const active = models?.find((m) => m.active);
  const recommended = catalogue.find((c) => c.scifactNdcg10 !== undefined);

  return (
    <div className="models-panel">
      <InstalledModels
        models={models}
        busy={busy}
        canActivate={props.onActivate !== undefined}
        embeddedLabel={props.embeddedLabel}
        embeddedModelId={props.embeddedModelId}
        {...installedActions({ api, run, onActivate: props.onActivate, setMessage, setSelfTest })}
      />
      {online && active?.id === 'use-lite' && recommended && !installed.has(recommended.id) && (
        <Recommendation entry={recommended} />
      )}
      {selfTest && <SelfTestResult result={selfTest} />}
      <h4>Download a model</h4>
      {!online && <p className="hint">You are offline: downloads need a connection.</p>}
      <Catalogue
        catalogue={catalogue}
        installed={installed}
        download={download}
        busy={busy}
        onDownload={(c) => void startDownload(c)}
        onCancel={(jobId) => void api.cancel(jobId)}
      />
      <ModelImport
        catalogue={catalogue}
        busy={busy}
        downloading={download !== null}
        onImport={(profile, files) =>
          void run('import', async () => {
            setMessage(null);
            const m = await api.importModelFiles(profile, files);
            setMessage(`${m.label} imported (${formatBytes(m.sizeBytes)}).`);
          })
        }
      />
      {message && (
        <p className="hint" role="status" data-testid="models-message">
          {message}
        </p>
      )}
      <HubAddress hub={hub} onChange={setHub} />
    </div>
  );
}

/** The installed models and the catalogue (empty when it cannot be read), loaded on mount. */
function useModelLists(api: ModelsApi, onError: (err: unknown) => void) {
  const [models, setModels] = useState<InstalledModel[] | null>(null);
  const [catalogue, setCatalogue] = useState<CatalogueEntry[]>([]);

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

  return { models, catalogue, refresh };
}

/** Runs one action at a time under a key (the button it belongs to shows it); then refreshes. */
function useBusyRun(
  onError: (err: unknown) => void,
  refresh: () => Promise<void>,
): [Busy, (key: string, fn: () => Promise<void>) => Promise<void>] {
  const [busy, setBusy] = useState<Busy>(null);
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
  return [busy, run];
}

/** What the installed models' buttons do, each run under its own busy key. */
function installedActions(deps: {
  api: ModelsApi;
  run: (key: string, fn: () => Promise<void>) => Promise<void>;
  onActivate: ModelsPanelProps['onActivate'];
  setMessage: (message: string | null) => void;
  setSelfTest: (result: EmbedSelfTestResult | null) => void;
}) {
  const { api, run, onActivate, setMessage, setSelfTest } = deps;
  return {
    onUse: (m: InstalledModel) =>
      void run(`use-${m.id}`, async () => {
        await onActivate?.(m.id);
        setMessage(
          `${m.label} is now active. Your library is re-embedded in the background; keyword search works meanwhile.`,
        );
      }),
    onSelfTest: (m: InstalledModel) =>
      void run(`test-${m.id}`, async () => {
        setSelfTest(null);
        setSelfTest(await api.selfTest(m.id));
      }),
    onDelete: (m: InstalledModel) => void run(`delete-${m.id}`, () => api.deleteModel(m.id)),
  };
}

interface Download {
  id: string;
  jobId: string;
  progress: ModelTransferProgress | null;
}

/** One catalogue download at a time, with its byte progress; cancelling it is not an error. */
function useModelDownload(deps: {
  api: ModelsApi;
  proxy: ModelsPanelProps['proxy'];
  hub: string;
  onError: (err: unknown) => void;
  setMessage: (message: string | null) => void;
  refresh: () => Promise<void>;
}) {
  const { api, proxy, hub, onError, setMessage, refresh } = deps;
  const [download, setDownload] = useState<Download | null>(null);

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

  return { download, startDownload };
}

interface InstalledModelsProps {
  models: InstalledModel[] | null;
  busy: Busy;
  canActivate: boolean;
  embeddedLabel: string | undefined;
  embeddedModelId: string | undefined;
  onUse: (m: InstalledModel) => void;
  onSelfTest: (m: InstalledModel) => void;
  onDelete: (m: InstalledModel) => void;
}

function InstalledModels({ models, ...rowProps }: InstalledModelsProps) {
  return (
    <table className="doc-table" data-testid="models-installed">
      <ColumnHeads columns={['Model', 'Dimensions', 'Size', 'Status', 'Actions']} />
      <tbody>
        {models === null && (
          <tr>
            <td colSpan={5}>Loading…</td>
          </tr>
        )}
        {models?.map((m) => (
          <InstalledModelRow key={m.id} m={m} {...rowProps} />
        ))}
      </tbody>
    </table>
  );
}

type RowProps = Omit<InstalledModelsProps, 'models'> & { m: InstalledModel };

function InstalledModelRow({ m, embeddedLabel, embeddedModelId, ...actions }: RowProps) {
  return (
    <tr data-testid={`model-row-${m.id}`} data-active={String(m.active)} data-size={m.sizeBytes}>
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
        {m.source === 'bundled' ? `about ${formatBytes(m.sizeBytes)}` : formatBytes(m.sizeBytes)}
      </td>
      <td>
        {m.active ? (
          <>
            <strong>Active</strong>
            {embeddedLabel && (
              <div
                className="path"
                data-testid="models-embedded"
                data-model={embeddedModelId ?? ''}
              >
                {embeddedLabel}
              </div>
            )}
          </>
        ) : (
          'Installed'
        )}
      </td>
      <td>
        <ModelActions m={m} {...actions} />
      </td>
    </tr>
  );
}

/** Use (when another is active), self-test, and delete (downloaded or imported, not active). */
function ModelActions({
  m,
  busy,
  canActivate,
  onUse,
  onSelfTest,
  onDelete,
}: Omit<RowProps, 'embeddedLabel' | 'embeddedModelId'>) {
  return (
    <>
      {!m.active && (
        <button
          data-testid={`model-use-${m.id}`}
          disabled={!canActivate || busy !== null}
          title={canActivate ? undefined : 'Switching models is not available yet.'}
          onClick={() => onUse(m)}
        >
          {busy === `use-${m.id}` ? 'Switching…' : 'Use this model'}
        </button>
      )}{' '}
      <button
        data-testid={`model-self-test-${m.id}`}
        disabled={busy !== null}
        onClick={() => onSelfTest(m)}
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
          title={m.active ? 'Switch to another model before deleting this one.' : undefined}
          onClick={() => {
            if (
              !window.confirm(`Delete ${m.label} (${formatBytes(m.sizeBytes)}) from this device?`)
            )
              return;
            onDelete(m);
          }}
        >
          Delete
        </button>
      )}
    </>
  );
}

function Recommendation({ entry }: { entry: CatalogueEntry }) {
  return (
    <p className="hint" data-testid="models-recommendation">
      Recommended while you are online: download {entry.label} ({formatBytes(entry.sizeBytes)}). On
      scientific questions (SciFact) it reaches nDCG@10 {entry.scifactNdcg10?.toFixed(3)} where the
      built-in model reaches about {USE_LITE_SCIFACT.toFixed(2)}.
    </p>
  );
}

const pct = (p: ModelTransferProgress | null) =>
  p && p.total > 0 ? Math.min(100, Math.floor((p.loaded / p.total) * 100)) : 0;

function Catalogue(props: {
  catalogue: CatalogueEntry[];
  installed: ReadonlySet<string>;
  download: Download | null;
  busy: Busy;
  onDownload: (c: CatalogueEntry) => void;
  onCancel: (jobId: string) => void;
}) {
  const { download } = props;
  return (
    <table className="doc-table" data-testid="models-catalogue">
      <tbody>
        {props.catalogue.map((c) => (
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
              {props.installed.has(c.id) ? (
                'Installed'
              ) : download?.id === c.id ? (
                <DownloadProgress download={download} onCancel={props.onCancel} />
              ) : (
                <button
                  data-testid={`model-download-${c.id}`}
                  disabled={download !== null || props.busy !== null}
                  onClick={() => props.onDownload(c)}
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
  );
}

function DownloadProgress({
  download,
  onCancel,
}: {
  download: Download;
  onCancel: (jobId: string) => void;
}) {
  const p = download.progress;
  return (
    <span className="row" data-testid="model-download-progress">
      <progress max={100} value={pct(p)} />{' '}
      <span data-testid="model-download-bytes">
        {p
          ? `${p.phase === 'downloading' ? p.file + ' ' : p.phase + ' '}${formatBytes(p.loaded)} of ${formatBytes(p.total)}`
          : 'Starting…'}
      </span>{' '}
      <button data-testid="model-download-cancel" onClick={() => onCancel(download.jobId)}>
        Cancel
      </button>
    </span>
  );
}

/** Import a model from a folder picked on disk, as the chosen catalogue profile. */
function ModelImport(props: {
  catalogue: CatalogueEntry[];
  busy: Busy;
  downloading: boolean;
  onImport: (profile: string, files: Array<{ name: string; data: File }>) => void;
}) {
  const [importProfile, setImportProfile] = useState('all-MiniLM-L6-v2');
  const dirInput = useRef<HTMLInputElement>(null);
  const onFolder = (list: FileList) => {
    const files = Array.from(list, (f) => ({ name: f.webkitRelativePath || f.name, data: f }));
    props.onImport(importProfile, files);
  };
  return (
    <>
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
          {props.catalogue.map((c) => (
            <option key={c.id} value={c.id}>
              {c.label}
            </option>
          ))}
        </select>
      </label>{' '}
      <button
        data-testid="model-import-folder"
        disabled={props.busy !== null || props.downloading}
        onClick={() => dirInput.current?.click()}
      >
        {props.busy === 'import' ? 'Importing…' : 'Import from folder…'}
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
    </>
  );
}

function HubAddress({ hub, onChange }: { hub: string; onChange: (hub: string) => void }) {
  return (
    <details>
      <summary>Advanced</summary>
      <label>
        Model hub address{' '}
        <input
          type="url"
          value={hub}
          data-testid="model-hub-url"
          onChange={(e) => onChange(e.currentTarget.value)}
          size={40}
        />
      </label>
      <p className="hint">
        Files are fetched from &lt;hub&gt;/&lt;repo&gt;/resolve/main/. Default {DEFAULT_HUB}.
      </p>
    </details>
  );
}
