// Top bar: navigation, storage and network status, and the "new version ready" prompt.
import { useAppStore, type View } from '../state/app-store';
import { ImportButtons } from './import-panel';

const TABS: Array<{ view: View; label: string; key: string }> = [
  { view: 'search', label: 'Search', key: '1' },
  { view: 'answer', label: 'Answer', key: '4' },
  { view: 'library', label: 'Library', key: '2' },
  { view: 'settings', label: 'Settings', key: '3' },
  { view: 'projects', label: 'Projects', key: '6' },
  { view: 'diagnostics', label: 'Diagnostics', key: '5' },
];

export function Header() {
  const view = useAppStore((s) => s.view);
  const setView = useAppStore((s) => s.setView);
  const storage = useAppStore((s) => s.storage);
  const online = useAppStore((s) => s.online);
  const applyUpdate = useAppStore((s) => s.applyUpdate);
  const offlineReady = useAppStore((s) => s.offlineReady);
  const semantic = useAppStore((s) => s.semantic);
  return (
    <header className="header">
      <div className="brand">
        <img src="/icons/icon.svg" alt="" width={28} height={28} />
        <span>Sift</span>
      </div>
      <nav className="tabs" role="tablist" aria-label="Views">
        {TABS.map((t) => (
          <button
            key={t.view}
            role="tab"
            aria-selected={view === t.view}
            className={view === t.view ? 'tab active' : 'tab'}
            onClick={() => setView(t.view)}
            title={`Alt+${t.key}`}
            data-testid={`tab-${t.view}`}
          >
            {t.label}
          </button>
        ))}
      </nav>
      <ImportButtons />
      <div className="status">
        {applyUpdate && (
          <button className="update" onClick={applyUpdate} data-testid="update-ready">
            A new version is ready — reload
          </button>
        )}
        <span
          className={online ? 'pill ok' : 'pill warn'}
          data-testid="network-status"
          title={offlineReady ? 'Sift is installed and works offline.' : undefined}
        >
          {online ? 'Online' : 'Offline'}
          {offlineReady ? ' · works offline' : ''}
        </span>
        <span
          className={semantic?.phase === 'ready' ? 'pill ok' : 'pill'}
          data-testid="semantic-pill"
          data-phase={semantic?.phase ?? 'starting'}
          title="Semantic (meaning-based) search"
        >
          {!semantic || semantic.phase === 'starting'
            ? 'Semantic: starting'
            : semantic.phase === 'ready'
              ? 'Semantic: ready'
              : semantic.phase === 'embedding'
                ? `Semantic: ${semantic.embedded}/${semantic.total}`
                : `Semantic: ${semantic.phase}`}
        </span>
        {storage && (
          <span
            className={storage.kind === 'opfs' ? 'pill ok' : 'pill warn'}
            data-testid="storage-status"
            title={storage.note ?? undefined}
          >
            {storage.kind === 'opfs'
              ? 'Stored on this device (OPFS)'
              : storage.kind === 'idb'
                ? 'Stored in IndexedDB (OPFS unavailable)'
                : 'Not saved: memory only'}
          </span>
        )}
      </div>
    </header>
  );
}
