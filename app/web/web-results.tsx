// Web results: a search box that queries the enabled providers (results stream in as each
// answers), a list showing each result's tier, grade and providers with an "Import into
// library" button, and provider failures in plain words (offline, CORS, paused, ...). Web
// content is untrusted: rendered as text only, links only for http(s). Talks only to its props.
import { useState } from 'react';
import type {
  ProviderFailure,
  RankedWebHit,
  WebApi,
  WebSearchResult,
} from '../../workers/shared/web-api';
import { TIER_LABELS } from './credibility-editor';
import type { ShapedWebSearch } from '../../workers/shared/web-route';

export type ImportState = 'importing' | 'done' | { error: string };

export interface WebResultsListProps {
  hits: RankedWebHit[];
  failures?: ProviderFailure[];
  onImport?: (hit: RankedWebHit) => void;
  /** Per hit key. */
  importState?: Record<string, ImportState>;
}

const PROVIDER_LABELS: Record<string, string> = {
  tavily: 'Tavily',
  exa: 'Exa',
  perplexity: 'Perplexity',
  brave: 'Brave',
  'semantic-scholar': 'Semantic Scholar',
  arxiv: 'arXiv',
  searxng: 'SearXNG',
};

function safeHref(url: string): string | undefined {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.toString() : undefined;
  } catch {
    return undefined;
  }
}

function failureText(f: ProviderFailure): string {
  const who = PROVIDER_LABELS[f.provider] ?? f.provider;
  switch (f.code) {
    case 'OFFLINE':
      return `${who}: you are offline, so it was not asked. Local search still works.`;
    case 'CORS_BLOCKED':
      return `${who}: the browser blocked its answer (CORS). Set a proxy or base URL for it in Settings > Web search.`;
    case 'CIRCUIT_OPEN':
      return `${who}: paused after repeated failures; Sift will try it again shortly.`;
    default:
      return `${who}: ${f.message}`;
  }
}

export function WebResultsList({
  hits,
  failures = [],
  onImport,
  importState = {},
}: WebResultsListProps) {
  const offline = failures.length > 0 && failures.every((f) => f.code === 'OFFLINE');
  return (
    <div className="web-results" data-testid="web-results">
      {offline && (
        <p className="notice info" role="status" data-testid="web-offline">
          You are offline: web search is paused and nothing was sent. Local search still works.
        </p>
      )}
      {!offline && failures.length > 0 && (
        <ul className="web-failures">
          {failures.map((f) => (
            <li key={f.provider} data-testid="web-failure" data-code={f.code}>
              {failureText(f)}
            </li>
          ))}
        </ul>
      )}
      <ol className="web-hits">
        {hits.map((h) => {
          const state = importState[h.key];
          const href = safeHref(h.url);
          return (
            <li key={h.key} className="web-hit" data-testid="web-result">
              <div className="web-hit-title">
                {href ? (
                  <a href={href} target="_blank" rel="noopener noreferrer">
                    {h.title}
                  </a>
                ) : (
                  h.title
                )}
              </div>
              <div className="web-hit-meta">
                <span
                  className={`tier tier-${h.tier}`}
                  data-testid="web-result-tier"
                  title={`weight ${h.tierWeight}`}
                >
                  {TIER_LABELS[h.tier]} · grade {h.qualityGrade}
                </span>{' '}
                <span data-testid="web-result-provider">
                  {[h.provider, ...h.alsoFrom].map((p) => PROVIDER_LABELS[p] ?? p).join(', ')}
                </span>
                {h.publishedDate && <> · {h.publishedDate.slice(0, 10)}</>} ·{' '}
                <span className="web-hit-url">{h.url}</span>
              </div>
              {h.snippet && <p className="web-hit-snippet">{h.snippet}</p>}
              {onImport && (
                <button
                  type="button"
                  disabled={state === 'importing' || state === 'done'}
                  onClick={() => onImport(h)}
                  data-testid="web-import"
                >
                  {state === 'importing'
                    ? 'Importing…'
                    : state === 'done'
                      ? 'In library'
                      : 'Import into library'}
                </button>
              )}
              {state && typeof state === 'object' && (
                <p className="web-hit-error" role="alert">
                  {state.error}
                </p>
              )}
            </li>
          );
        })}
      </ol>
    </div>
  );
}

export interface WebSearchPanelProps {
  api: Pick<WebApi, 'search'>;
  /**
   * Imports one hit (the lead binds importWebResult with the HTML cleaner and the ingest
   * pipeline); resolves to an error message, or null on success.
   */
  onImport?: (hit: RankedWebHit) => Promise<string | null>;
  /** Wraps the streaming callback for the worker boundary: pass Comlink.proxy. */
  wrapCallback?: <F extends (...args: never[]) => unknown>(fn: F) => F;
  initialQuery?: string;
  /** How the query router shapes the request (shared/web-route.ts); absent: the query as typed. */
  shape?: (query: string) => ShapedWebSearch;
}

export function WebSearchPanel({
  api,
  onImport,
  wrapCallback = (f) => f,
  initialQuery = '',
  shape,
}: WebSearchPanelProps) {
  const [query, setQuery] = useState(initialQuery);
  const [hits, setHits] = useState<RankedWebHit[]>([]);
  const [result, setResult] = useState<WebSearchResult | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [importState, setImportState] = useState<Record<string, ImportState>>({});
  const [sent, setSent] = useState<string | null>(null);

  async function run(): Promise<void> {
    if (!query.trim()) return;
    setBusy(true);
    setError(null);
    setResult(null);
    setHits([]);
    // A streamed update can arrive after the final result (its own channel): ignore it then.
    let finished = false;
    try {
      const shaped = shape?.(query) ?? null;
      setSent(shaped?.note || null);
      const r = await api.search(
        shaped?.request ?? { query },
        wrapCallback((streamed: RankedWebHit[]) => {
          if (!finished) setHits(streamed);
        }),
      );
      finished = true;
      setResult(r);
      setHits(r.hits);
    } catch (err) {
      finished = true;
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  }

  async function importHit(hit: RankedWebHit): Promise<void> {
    if (!onImport) return;
    setImportState((s) => ({ ...s, [hit.key]: 'importing' }));
    const err = await onImport(hit);
    setImportState((s) => ({ ...s, [hit.key]: err === null ? 'done' : { error: err } }));
  }

  return (
    <section className="web-search" aria-label="Web search" data-testid="web-search">
      <form
        className="actions"
        onSubmit={(e) => {
          e.preventDefault();
          void run();
        }}
      >
        <input
          type="search"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          placeholder="Search the web with your enabled providers"
          aria-label="Web search query"
          data-testid="web-search-input"
        />
        <button type="submit" disabled={busy || !query.trim()}>
          {busy ? 'Searching…' : 'Search the web'}
        </button>
      </form>
      {sent && (
        <p className="hint" data-testid="web-route">
          Sent: {sent}
        </p>
      )}
      {error && <p role="alert">{error}</p>}
      {result && result.succeeded.length === 0 && result.failures.length === 0 && (
        <p className="empty">
          No web provider is turned on. Turn one on in Settings {'>'} Web search.
        </p>
      )}
      <WebResultsList
        hits={hits}
        failures={result?.failures ?? []}
        importState={importState}
        {...(onImport ? { onImport: (h: RankedWebHit) => void importHit(h) } : {})}
      />
    </section>
  );
}
