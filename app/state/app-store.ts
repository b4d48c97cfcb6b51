// UI state (zustand): the active view, library, search, import progress, errors and PWA status.
// Owns: what the UI shows. Data lives in the worker; this holds only the latest answers.
import { create } from 'zustand';
import type { AppError } from '../../workers/shared/errors';
import type { StorageStatus } from '../lib/storage-persistence';
import type { SemanticStatus } from '../../workers/shared/semantic-api';
import {
  DEFAULT_TECHNIQUES,
  type QueryPlan,
  type TechniqueSwitches,
} from '../../workers/shared/research-api';
import type {
  DocumentDetail,
  DocumentSummary,
  ImportProgress,
  SearchFilters,
  SearchMode,
  SearchResponse,
  StorageInfo,
} from '../../workers/shared/types';

export type View = 'search' | 'answer' | 'library' | 'settings' | 'diagnostics' | 'projects';

export interface Notice {
  id: number;
  kind: 'error' | 'info';
  text: string;
  code?: string;
}

export interface OpenDocument {
  detail: DocumentDetail;
  /** The chunk to highlight and scroll to. */
  chunkSeq: number | null;
  /** Exact character offsets to highlight instead (a cited strip); wins over chunkSeq. */
  range?: { start: number; end: number } | null;
  /**
   * The page view of a PDF is shown instead of the text: the quote to highlight and its page
   * (1-based) when known; without one the page is found by searching the pages' text.
   */
  page?: { quote: string; page?: number } | null;
  /** Why the page view could not be shown (no original kept, deleted), shown over the text. */
  pageNote?: string | null;
}

interface AppState {
  view: View;
  storage: StorageInfo | null;
  /** Persistence (granted / refused) and usage against quota, from navigator.storage. */
  storageStatus: StorageStatus | null;
  ready: boolean;
  online: boolean;
  offlineReady: boolean;
  applyUpdate: (() => void) | null;
  documents: DocumentSummary[];
  query: string;
  mode: SearchMode;
  filters: SearchFilters;
  results: SearchResponse | null;
  /** The query the shown results answer (e2e tests and screen readers wait on it). */
  resultsFor: string | null;
  searching: boolean;
  selected: number;
  open: OpenDocument | null;
  importing: ImportProgress | null;
  semantic: SemanticStatus | null;
  /** The user cancelled embedding (held until "Embed the rest"), as opposed to pausing it. */
  embeddingCancelled: boolean;
  /** Query optimisation: run searches through the query planner (on Enter, not as you type). */
  optimise: boolean;
  techniques: TechniqueSwitches;
  plan: QueryPlan | null;
  /** The shown results are "find related" hits: what they are related to, and any notice. */
  related: { label: string; notice: string | null } | null;
  /** Counts import runs, so per-run UI state (an expanded error list) starts fresh. */
  importRun: number;
  notices: Notice[];
  setView(view: View): void;
  setStorage(info: StorageInfo): void;
  setStorageStatus(status: StorageStatus): void;
  setOnline(online: boolean): void;
  setOfflineReady(ready: boolean): void;
  setUpdate(apply: () => void): void;
  setDocuments(docs: DocumentSummary[]): void;
  setQuery(query: string): void;
  setMode(mode: SearchMode): void;
  setFilters(filters: SearchFilters): void;
  /** Shows results; `related` marks them as "find related" hits (null: a search's). */
  setResults(results: SearchResponse | null, query?: string, related?: AppState['related']): void;
  setSearching(searching: boolean): void;
  setSelected(index: number): void;
  setOpen(open: OpenDocument | null): void;
  setImporting(progress: ImportProgress | null): void;
  startImportRun(): void;
  setSemantic(status: SemanticStatus): void;
  setEmbeddingCancelled(cancelled: boolean): void;
  setOptimise(optimise: boolean): void;
  setTechniques(techniques: TechniqueSwitches): void;
  setPlan(plan: QueryPlan | null): void;
  notify(kind: Notice['kind'], text: string, code?: string): void;
  notifyError(error: unknown): void;
  dismiss(id: number): void;
}

let noticeId = 0;

export const useAppStore = create<AppState>((set) => ({
  view: 'search',
  storage: null,
  storageStatus: null,
  ready: false,
  online: typeof navigator === 'undefined' ? true : navigator.onLine,
  offlineReady: false,
  applyUpdate: null,
  documents: [],
  query: '',
  mode: 'hybrid',
  filters: {},
  results: null,
  resultsFor: null,
  searching: false,
  selected: 0,
  open: null,
  importing: null,
  semantic: null,
  embeddingCancelled: false,
  optimise: false,
  techniques: DEFAULT_TECHNIQUES,
  plan: null,
  related: null,
  importRun: 0,
  notices: [],
  setView: (view) => set({ view }),
  setStorage: (storage) => set({ storage, ready: true }),
  // A grant made after the library opened also shows where the worker's answer is shown.
  setStorageStatus: (storageStatus) =>
    set((s) => ({
      storageStatus,
      ...(s.storage && storageStatus.persist === 'granted' && !s.storage.persistent
        ? { storage: { ...s.storage, persistent: true } }
        : {}),
    })),
  setOnline: (online) => set({ online }),
  setOfflineReady: (offlineReady) => set({ offlineReady }),
  setUpdate: (applyUpdate) => set({ applyUpdate }),
  setDocuments: (documents) => set({ documents }),
  setQuery: (query) => set({ query }),
  setMode: (mode) => set({ mode }),
  setFilters: (filters) => set({ filters }),
  setResults: (results, query, related = null) =>
    set({ results, resultsFor: results ? (query ?? null) : null, selected: 0, related }),
  setSearching: (searching) => set({ searching }),
  setSelected: (selected) => set({ selected }),
  setOpen: (open) => set({ open }),
  setImporting: (importing) => set({ importing }),
  setSemantic: (semantic) => set({ semantic }),
  setEmbeddingCancelled: (embeddingCancelled) => set({ embeddingCancelled }),
  setOptimise: (optimise) => set({ optimise, plan: null }),
  setTechniques: (techniques) => set({ techniques }),
  setPlan: (plan) => set({ plan }),
  startImportRun: () => set((s) => ({ importRun: s.importRun + 1 })),
  notify: (kind, text, code) =>
    set((s) => ({
      notices: [...s.notices.slice(-4), { id: ++noticeId, kind, text, ...(code ? { code } : {}) }],
    })),
  notifyError: (error) => {
    const err = error as Partial<AppError>;
    const text = typeof err.message === 'string' ? err.message : String(error);
    set((s) => ({
      notices: [
        ...s.notices.slice(-4),
        { id: ++noticeId, kind: 'error', text, ...(err.code ? { code: err.code } : {}) },
      ],
    }));
  },
  dismiss: (id) => set((s) => ({ notices: s.notices.filter((n) => n.id !== id) })),
}));

/** Escape in a view: the page view goes back to the text view, the text view closes. */
export function escapeOpenDocument(): void {
  const { open, setOpen } = useAppStore.getState();
  if (open) setOpen(open.page ? { ...open, page: null } : null);
}
