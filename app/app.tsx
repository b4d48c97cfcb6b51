// The app shell: header, the active view, import progress, notices and the drop zone.
import { useEffect } from 'react';
import { Header } from './components/header';
import { DropZone, ImportProgressBar } from './components/import-panel';
import { Notices } from './components/notices';
import { SemanticStatusBar } from './components/semantic-status';
import { initLibrary, requestPersistence } from './state/actions';
import { useAppStore, type View } from './state/app-store';
import { LibraryView } from './views/library-view';
import { SearchView } from './views/search-view';
import { SettingsView } from './views/settings-view';
import { AnswerView } from './views/answer-view';
import { DiagnosticsView } from './views/diagnostics-view';
import { ProjectsView } from './views/projects-view';

// Alt+1..3 kept their views when Answer (Alt+4), Diagnostics (Alt+5) and Projects (Alt+6) arrived.
const VIEW_KEYS: Record<string, View> = {
  '1': 'search',
  '2': 'library',
  '3': 'settings',
  '4': 'answer',
  '5': 'diagnostics',
  '6': 'projects',
};

export function App() {
  const view = useAppStore((s) => s.view);
  const setView = useAppStore((s) => s.setView);
  const setOnline = useAppStore((s) => s.setOnline);

  useEffect(() => {
    void initLibrary();
    const on = () => setOnline(true);
    const off = () => setOnline(false);
    window.addEventListener('online', on);
    window.addEventListener('offline', off);
    const onKey = (e: KeyboardEvent) => {
      const target = VIEW_KEYS[e.key];
      if (e.altKey && target) {
        e.preventDefault();
        setView(target);
      }
    };
    window.addEventListener('keydown', onKey);
    // Browsers grant persistence more readily to installed apps: ask again once installed.
    const onInstalled = () => void requestPersistence('install').catch(() => undefined);
    window.addEventListener('appinstalled', onInstalled);
    return () => {
      window.removeEventListener('appinstalled', onInstalled);
      window.removeEventListener('online', on);
      window.removeEventListener('offline', off);
      window.removeEventListener('keydown', onKey);
    };
  }, [setOnline, setView]);

  return (
    <div className="app">
      <Header />
      <ImportProgressBar />
      <SemanticStatusBar />
      <main>
        {view === 'search' && <SearchView />}
        {view === 'library' && <LibraryView />}
        {view === 'settings' && <SettingsView />}
        {view === 'answer' && <AnswerView />}
        {view === 'diagnostics' && <DiagnosticsView />}
        {view === 'projects' && <ProjectsView />}
      </main>
      <Notices />
      <DropZone />
    </div>
  );
}
