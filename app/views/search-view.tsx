// Search: search-as-you-type with debounce, filters, ranked highlighted results, keyboard
// navigation (/ focuses, ↑/↓ select, Enter opens, Esc closes), and the document viewer.
import { useEffect, useRef, useState, type RefObject } from 'react';
import { DocumentViewer } from '../components/document-viewer';
import { ResultEntry } from '../components/result-entry';
import { FilterBar } from '../components/search-filters';
import { WebSection } from '../components/web-section';
import { openDocument, runPlan, runRelated, runSearch } from '../state/actions';
import { QueryPlanPanel } from '../llm';
import { escapeOpenDocument, useAppStore } from '../state/app-store';
import { orderResults, sourceInfo, type ResultOrder } from '../lib/provenance';
import { documentResults } from '../../workers/shared/document-results';
import type { DocumentResult, DocumentSummary, SearchResponse } from '../../workers/shared/types';

const DEBOUNCE_MS = 150;
const NONE_EXPANDED: ReadonlySet<number> = new Set();

export function SearchView() {
  const query = useAppStore((s) => s.query);
  const setQuery = useAppStore((s) => s.setQuery);
  const results = useAppStore((s) => s.results);
  const open = useAppStore((s) => s.open);
  const documents = useAppStore((s) => s.documents);
  const [order, setOrder] = useState<ResultOrder>('relevance');
  const byId = new Map(documents.map((d) => [d.id, d]));
  const ready = useAppStore((s) => s.ready);
  const input = useRef<HTMLInputElement>(null);
  const list = useRef<HTMLOListElement>(null);

  useSearchAsYouType();
  useSearchShortcuts(input);

  // One entry per document (the workers page by documents; a plan's chunks are grouped here).
  const docs = orderResults(
    results ? (results.documents ?? documentResults(results.hits)) : [],
    order,
    byId,
  );
  const onListKey = useResultKeys(list, docs);

  return (
    <div className={open ? 'search-layout with-viewer' : 'search-layout'}>
      <section className="search-pane" onKeyDown={onListKey}>
        <div className="search-box">
          <input
            ref={input}
            type="search"
            autoFocus
            placeholder="Search your library (press / to focus)"
            aria-label="Search"
            value={query}
            onChange={(e) => setQuery(e.currentTarget.value)}
            data-testid="search-input"
            spellCheck={false}
          />
          <ModePicker />
        </div>
        <div className="filters-row">
          <FilterBar />
          <OrderPicker order={order} onChange={setOrder} />
        </div>
        <OptimisePanel />
        <ResultMeta docs={docs} />
        <RelatedHead />
        <QueryNotice />
        {ready && documents.length === 0 && !query && <EmptyLibrary />}
        <NoResults shown={docs.length === 0} />
        <ResultList list={list} docs={docs} byId={byId} />
        {ready && <WebSection />}
      </section>
      {open && <DocumentViewer />}
    </div>
  );
}

/** Runs the search a moment after the query or filters change, unless the query is optimised. */
function useSearchAsYouType() {
  const query = useAppStore((s) => s.query);
  const filters = useAppStore((s) => s.filters);
  const optimise = useAppStore((s) => s.optimise);
  useEffect(() => {
    // Optimised searches call a language model: they run on Enter, not on every keystroke.
    if (optimise) return;
    const t = setTimeout(() => void runSearch(), DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [query, filters, optimise]);
}

/**
 * "/" focuses the search box (when not typing elsewhere); Escape leaves the page view, then
 * closes the open document.
 */
function useSearchShortcuts(input: RefObject<HTMLInputElement | null>) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement | null;
      const typing =
        target &&
        (target.tagName === 'INPUT' ||
          target.tagName === 'TEXTAREA' ||
          target.tagName === 'SELECT');
      if (e.key === '/' && !typing) {
        e.preventDefault();
        input.current?.focus();
      } else if (e.key === 'Escape') {
        escapeOpenDocument();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [input]);
}

/** ↑/↓ move the selection (kept in view), Enter opens it or runs an optimised query. */
function useResultKeys(list: RefObject<HTMLOListElement | null>, docs: DocumentResult[]) {
  const query = useAppStore((s) => s.query);
  const resultsFor = useAppStore((s) => s.resultsFor);
  const optimise = useAppStore((s) => s.optimise);
  const selected = useAppStore((s) => s.selected);
  const setSelected = useAppStore((s) => s.setSelected);

  useEffect(() => {
    list.current
      ?.querySelector<HTMLElement>(`[data-index="${selected}"]`)
      ?.scrollIntoView({ block: 'nearest' });
  }, [selected, list]);

  return (e: React.KeyboardEvent) => {
    // Buttons inside an entry (more passages, more like this) keep their own Enter and Space.
    if ((e.target as HTMLElement).closest('button')) return;
    if (docs.length === 0 && !(optimise && e.key === 'Enter')) return;
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      setSelected(Math.min(selected + 1, docs.length - 1));
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      setSelected(Math.max(selected - 1, 0));
    } else if (e.key === 'Enter' && optimise && resultsFor !== query) {
      e.preventDefault();
      void runPlan();
    } else if (e.key === 'Enter') {
      const doc = docs[selected];
      if (doc) {
        e.preventDefault();
        void openDocument(doc.documentId, doc.passages[0]!.seq);
      }
    }
  };
}

/** Which entries show all their passages; they belong to the results they were opened in. */
function useExpansion(results: SearchResponse | null) {
  // New results start collapsed.
  const [expansion, setExpansion] = useState<{ of: unknown; ids: ReadonlySet<number> }>({
    of: null,
    ids: new Set(),
  });
  const expanded = expansion.of === results ? expansion.ids : NONE_EXPANDED;
  const toggle = (documentId: number) =>
    setExpansion((prev) => {
      const ids = new Set(prev.of === results ? prev.ids : []);
      if (!ids.delete(documentId)) ids.add(documentId);
      return { of: results, ids };
    });
  return { expanded, toggle };
}

function OrderPicker({
  order,
  onChange,
}: {
  order: ResultOrder;
  onChange: (order: ResultOrder) => void;
}) {
  return (
    <label>
      Order{' '}
      <select
        value={order}
        onChange={(e) => onChange(e.currentTarget.value as ResultOrder)}
        data-testid="result-order"
      >
        <option value="relevance">relevance</option>
        <option value="grade">grade (A first)</option>
        <option value="newest">newest import</option>
        <option value="oldest">oldest import</option>
      </select>
    </label>
  );
}

/** How many documents and passages, how long, and what the search could not yet cover. */
function ResultMeta({ docs }: { docs: DocumentResult[] }) {
  const results = useAppStore((s) => s.results);
  const resultsFor = useAppStore((s) => s.resultsFor);
  const mode = useAppStore((s) => s.mode);
  const searching = useAppStore((s) => s.searching);
  // While the backlog is embedded, meaning search sees only part of the library: say so.
  const coverage = useAppStore((s) =>
    s.semantic && s.semantic.model && s.semantic.embedded < s.semantic.total
      ? `${s.semantic.embedded.toLocaleString('en')} of ${s.semantic.total.toLocaleString('en')}`
      : null,
  );
  const passageCount = docs.reduce((n, d) => n + d.passages.length, 0);
  return (
    <div
      className="result-meta"
      aria-live="polite"
      data-testid="result-meta"
      data-query={searching ? undefined : (resultsFor ?? undefined)}
    >
      {searching
        ? 'Searching…'
        : results
          ? `${docs.length} document${docs.length === 1 ? '' : 's'}` +
            (passageCount > docs.length ? ` (${passageCount} passages)` : '') +
            ` in ${results.tookMs.toFixed(0)} ms` +
            (results.mode !== mode
              ? ' · keyword results: semantic search is still getting ready'
              : coverage && results.mode === 'hybrid'
                ? ` · meaning search covers ${coverage} chunks so far; the rest match by keywords only`
                : coverage && results.mode === 'semantic'
                  ? ` · meaning search covers ${coverage} chunks so far; the rest are not searched until embedded`
                  : '')
          : ''}
    </div>
  );
}

function RelatedHead() {
  const related = useAppStore((s) => s.related);
  if (!related) return null;
  return (
    <div className="related-head" data-testid="related-head">
      Related to {related.label}
      {related.notice && <span className="plan-note"> · {related.notice}</span>}{' '}
      <button className="link" onClick={() => void runSearch()} data-testid="related-back">
        Back to search
      </button>
    </div>
  );
}

function QueryNotice() {
  const notice = useAppStore((s) => s.results?.notice);
  const searching = useAppStore((s) => s.searching);
  if (!notice || searching) return null;
  return (
    <div className="query-notice" role="status" data-testid="query-notice">
      {notice.message}
    </div>
  );
}

function EmptyLibrary() {
  return (
    <div className="empty" data-testid="empty-library">
      <p>
        Your library is empty. Import documents with the buttons at the top to search them — they
        stay on this device.
      </p>
      <p className="hint">
        Or drop files and folders anywhere on this window. Supported: .txt, .md, .html, .pdf, .docx.
      </p>
    </div>
  );
}

/** Why a finished search found nothing, and what to try instead. */
function NoResults({ shown }: { shown: boolean }) {
  const results = useAppStore((s) => s.results);
  const searching = useAppStore((s) => s.searching);
  const related = useAppStore((s) => s.related);
  const filtered = useAppStore((s) => Object.keys(s.filters).length > 0);
  const query = useAppStore((s) => s.query);
  if (!results || !shown || searching) return null;
  return (
    <div className="empty" data-testid="no-results">
      {related
        ? filtered
          ? 'No related passages in the filtered documents. Clear the filters to look everywhere.'
          : 'No other document is related to this passage.'
        : filtered
          ? `No document in the filtered set matches “${query}”. Clear the filters to search everywhere.`
          : `No matches for “${query}”. Try fewer or different words.`}
    </div>
  );
}

function ResultList({
  list,
  docs,
  byId,
}: {
  list: RefObject<HTMLOListElement | null>;
  docs: DocumentResult[];
  byId: ReadonlyMap<number, DocumentSummary>;
}) {
  const results = useAppStore((s) => s.results);
  const selected = useAppStore((s) => s.selected);
  const setSelected = useAppStore((s) => s.setSelected);
  const { expanded, toggle } = useExpansion(results);
  return (
    <ol className="results" ref={list} role="listbox" aria-label="Results" data-testid="results">
      {docs.map((doc, i) => (
        <ResultEntry
          key={doc.documentId}
          doc={doc}
          source={byId.has(doc.documentId) ? sourceInfo(byId.get(doc.documentId)!) : undefined}
          index={i}
          selected={i === selected}
          expanded={expanded.has(doc.documentId)}
          onToggle={() => toggle(doc.documentId)}
          onSelect={() => setSelected(i)}
          onOpen={(seq) => void openDocument(doc.documentId, seq)}
          onRelated={(chunkId) => void runRelated({ kind: 'chunk', chunkId })}
        />
      ))}
    </ol>
  );
}

function ModePicker() {
  const mode = useAppStore((s) => s.mode);
  const setMode = useAppStore((s) => s.setMode);
  return (
    <select
      aria-label="Search mode"
      value={mode}
      onChange={(e) => {
        setMode(e.currentTarget.value as typeof mode);
        void runSearch();
      }}
      data-testid="mode"
    >
      <option value="hybrid">Hybrid (keyword + meaning)</option>
      <option value="lexical">Keyword (BM25)</option>
      <option value="semantic">Meaning (semantic)</option>
    </select>
  );
}

function OptimisePanel() {
  const optimise = useAppStore((s) => s.optimise);
  const setOptimise = useAppStore((s) => s.setOptimise);
  const techniques = useAppStore((s) => s.techniques);
  const setTechniques = useAppStore((s) => s.setTechniques);
  const plan = useAppStore((s) => s.plan);
  const results = useAppStore((s) => s.results);
  const titles = Object.fromEntries(
    (results?.hits ?? []).map((h) => [String(h.chunkId), `${h.title} (${h.path})`]),
  );
  return (
    <div className="optimise">
      <label className="check">
        <input
          type="checkbox"
          checked={optimise}
          onChange={(e) => setOptimise(e.currentTarget.checked)}
          data-testid="optimise-toggle"
        />{' '}
        Optimise the query (press Enter to run): techniques are off until you switch them on where
        measurements showed no gain
      </label>
      {optimise && (
        <div data-testid="optimise-panel">
          <QueryPlanPanel
            plan={plan}
            techniques={techniques}
            onTechniquesChange={setTechniques}
            titles={titles}
          />
        </div>
      )}
    </div>
  );
}
