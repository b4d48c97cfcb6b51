// Settings: where the library is stored, and the panels of optional features (web providers,
// language models) that other modules contribute.
import { Comlink, libraryClient, llmClient, semanticClient, webClient } from '../clients';
import { LlmSettings } from '../llm';
import { ModelsCard } from '../components/models-card';
import { EmbedWorkersSetting } from '../components/embed-workers-setting';
import { formatBytes } from '../lib/format';
import { describeStorage } from '../lib/storage-persistence';
import { usePolled } from '../lib/use-polled';
import { requestPersistence } from '../state/actions';
import { useAppStore } from '../state/app-store';
import { CredibilityEditor, NetworkLedgerView, WebProviderSettings } from '../web';

export function SettingsView() {
  const storage = useAppStore((s) => s.storage);
  return (
    <section className="settings" aria-label="Settings">
      <h2>Settings</h2>
      <div className="card">
        <h3>Storage</h3>
        {storage ? (
          <p data-testid="settings-storage">
            {storage.kind === 'opfs' &&
              'Your library is stored in this browser’s private file system (OPFS).'}
            {storage.kind === 'idb' &&
              'Your library is stored in IndexedDB because this browser does not offer OPFS. It is kept, but slower.'}
            {storage.kind === 'memory' &&
              'Your library is kept in memory only and will be lost when you close Sift.'}{' '}
            {storage.persistent
              ? 'The browser has granted persistent storage, so it will not evict it.'
              : 'The browser may evict it under storage pressure; export your library as a backup.'}
            {storage.note ? ` (${storage.note})` : ''}
          </p>
        ) : (
          <p>Opening the library…</p>
        )}
        <StorageUsage />
        <p className="hint">
          Nothing leaves this device unless you turn on a web provider or a remote model below.
        </p>
      </div>
      <ModelsCard onActivate={(id) => semanticClient().activateModel(id)} />
      <EmbedWorkersSetting />
      <div className="card">
        <h3>Language model (optional)</h3>
        <p className="hint">
          Used to improve questions (rewrite, hypothetical answers, multiple queries). Without one,
          Sift uses keyword expansion instead.
        </p>
        <LlmSettings api={llmClient()} proxy={Comlink.proxy} />
      </div>
      <div className="card">
        <h3>Web search providers</h3>
        <p className="hint">
          Off by default. Keys stay on this device and are sent only to their own provider.
        </p>
        <WebProviderSettings api={webClient()} />
      </div>
      <div className="card">
        <h3>Source credibility</h3>
        <CredibilityEditor api={webClient()} />
      </div>
      <div className="card">
        <h3>Network ledger</h3>
        <p className="hint">
          Every request Sift made to another host, so you can check for yourself.
        </p>
        <NetworkLedgerView api={webClient()} />
      </div>
    </section>
  );
}

const loadOriginals = () =>
  libraryClient()
    .originalsUsage()
    .catch(() => ({ files: 0, bytes: 0 }));

/** The part of the storage use that is original PDFs kept for the page view. */
function OriginalsUsage() {
  const [usage] = usePolled(loadOriginals, { files: 0, bytes: 0 }, 0);
  return (
    <p data-testid="storage-originals" data-files={usage.files}>
      Original PDFs kept for the page view: {usage.files} ({formatBytes(usage.bytes)}), included in
      the figure above; deleting a document deletes its original.
    </p>
  );
}

/** Persistence (asked, granted, refused), usage against quota, and the 80 % warning. */
function StorageUsage() {
  const status = useAppStore((s) => s.storageStatus);
  if (!status) return null;
  const words = describeStorage(status, formatBytes);
  return (
    <>
      <p data-testid="storage-persist" data-state={status.persist}>
        {words.persistence}{' '}
        {(status.persist === 'refused' || status.persist === 'not-asked') && (
          <button
            className="link"
            onClick={() => void requestPersistence('user')}
            data-testid="storage-persist-ask"
          >
            Ask the browser to keep my library
          </button>
        )}
      </p>
      {words.usage && <p data-testid="storage-usage">{words.usage}</p>}
      <OriginalsUsage />
      {words.warning && (
        <p className="notice error" role="alert" data-testid="storage-quota-warning">
          {words.warning}
        </p>
      )}
    </>
  );
}
