// The web-search contract the UI sees: provider settings and status, hits with credibility,
// the network ledger, and the import hand-off. Plain DTOs only (structured-clone safe), plus the
// `WebApi` interface the web worker implements.
import type { QualityGrade } from './types';

/** Every provider Sift can query. */
export type ProviderId =
  'tavily' | 'exa' | 'perplexity' | 'brave' | 'semantic-scholar' | 'arxiv' | 'searxng';

export const PROVIDER_IDS: readonly ProviderId[] = [
  'tavily',
  'exa',
  'perplexity',
  'brave',
  'semantic-scholar',
  'arxiv',
  'searxng',
];

/** One result, normalised across providers. `raw` is the provider's own record (untrusted). */
export interface WebHit {
  url: string;
  title: string;
  snippet: string;
  /** ISO 8601 date or date-time when the provider gave one, else null. */
  publishedDate: string | null;
  provider: ProviderId;
  /** The provider's own relevance score, or null when it gives none (Brave, arXiv, S2, Perplexity). */
  providerScore: number | null;
  raw: unknown;
}

/** Credibility tier: 1 authoritative, 2 secondary, 3 other (spec); 4 distrusted and 5 blocked are user-only. */
export type CredibilityTier = 1 | 2 | 3 | 4 | 5;

/** A hit after credibility weighting and cross-provider merging. */
export interface RankedWebHit extends WebHit {
  /** Normalised key used for dedupe (lowercase host, no www., no fragment or tracking params). */
  key: string;
  /** Other providers that returned the same normalised URL. */
  alsoFrom: ProviderId[];
  tier: CredibilityTier;
  tierWeight: number;
  qualityGrade: QualityGrade;
  /** Provider score normalised to 0..1 (rank-based when the provider gives none). */
  relevance: number;
  /** relevance * tierWeight: what results are ordered by. */
  score: number;
}

export interface ProviderFailure {
  provider: ProviderId;
  /** An ErrorCode (OFFLINE, CORS_BLOCKED, CIRCUIT_OPEN, RATE_LIMITED, TIMEOUT, AUTH_FAILED, ...). */
  code: string;
  /** Plain words, key redacted. */
  message: string;
  retryable: boolean;
}

export interface WebSearchRequest {
  query: string;
  /** Providers to ask; default every enabled one. Disabled providers are skipped silently. */
  providers?: ProviderId[];
  /** Results per provider, default 10. */
  limit?: number;
  /** Overall deadline for the whole search in ms, default 15000. */
  deadlineMs?: number;
}

export interface WebSearchResult {
  hits: RankedWebHit[];
  failures: ProviderFailure[];
  /** Providers that answered (possibly with zero hits). */
  succeeded: ProviderId[];
  tookMs: number;
}

export type BreakerState = 'closed' | 'open' | 'half-open';

export interface BreakerSnapshot {
  state: BreakerState;
  consecutiveFailures: number;
  /** When an open breaker lets its one half-open trial through (ms since epoch), else null. */
  retryAt: number | null;
  lastError: { code: string; message: string; at: number } | null;
}

/** Settings of one provider as the UI sees them: the key itself is write-only and never returned. */
export interface ProviderStatus {
  id: ProviderId;
  label: string;
  enabled: boolean;
  hasKey: boolean;
  keyRequirement: 'required' | 'optional' | 'none';
  /** User-set base URL (a proxy or own instance), or null for the default. */
  baseUrl: string | null;
  defaultBaseUrl: string | null;
  /** Effective base URL: baseUrl ?? defaultBaseUrl. */
  effectiveBaseUrl: string | null;
  /** Whether the key may go to a base URL on another host than the provider's own (a proxy the user trusts). */
  sendKeyToCustomBaseUrl: boolean;
  /** Minimum spacing between two requests, from the provider's documentation. */
  minIntervalMs: number;
  rateLimitNote: string;
  docsUrl: string;
  /** Whether the provider can return a page's full text itself (Tavily /extract, Exa /contents). */
  canExtract: boolean;
  breaker: BreakerSnapshot;
}

export interface ProviderConfigPatch {
  enabled?: boolean;
  /** A new key; '' removes it. Keys are stored on the device only. */
  apiKey?: string;
  /** '' or null resets to the default. */
  baseUrl?: string | null;
  sendKeyToCustomBaseUrl?: boolean;
}

/** One outbound request. Never holds a key, a query string or a request body. */
export interface LedgerEntry {
  id: number;
  /** ms since epoch when the request started. */
  time: number;
  host: string;
  /** Path without query string. */
  path: string;
  method: string;
  /** e.g. 'search:tavily', 'extract:exa', 'page-fetch', 'cors-probe', 'model-download'. */
  purpose: string;
  bytesSent: number;
  bytesReceived: number;
  /** HTTP status, or null when no response arrived. */
  status: number | null;
  /** 'ok', or the ErrorCode (or HTTP_<status>) when the request failed. */
  outcome: string;
  durationMs: number;
}

/** What a component outside the web worker (model downloads) records into the ledger. */
export interface ExternalLedgerRecord {
  url: string;
  method?: string;
  purpose: string;
  bytesSent?: number;
  bytesReceived?: number;
  status?: number | null;
  outcome?: string; // 'ok' or an error code
  time?: number;
  durationMs?: number;
}

export interface CredibilityOverride {
  /** A registrable domain or host; subdomains are included. */
  domain: string;
  tier: CredibilityTier;
}

export interface CredibilityTable {
  /** The spec's lists (web-search-optimization-protocol.yaml, credibility_scoring). */
  defaults: CredibilityOverride[];
  overrides: CredibilityOverride[];
  weights: Record<CredibilityTier, number>;
  grades: Record<CredibilityTier, QualityGrade>;
}

/**
 * A page fetched for import. `kind: 'text'` came from a provider's extract endpoint (plain text
 * or markdown); `kind: 'html'` must be cleaned on the UI thread (Readability + DOMPurify need a DOM).
 */
export type FetchedPage =
  | {
      kind: 'text';
      url: string;
      title: string;
      text: string;
      provider: ProviderId | null;
      via: string;
      fetchedAt: number;
      qualityGrade: QualityGrade;
    }
  | {
      kind: 'html';
      url: string;
      title: string;
      html: string;
      provider: ProviderId | null;
      via: string;
      fetchedAt: number;
      qualityGrade: QualityGrade;
    };

/** Outcome of fetching a page: a value, never an exception, so the UI can explain failures. */
export type FetchPageResult =
  { ok: true; page: FetchedPage } | { ok: false; code: string; message: string };

/** Injected key-value storage for settings (IndexedDB or the SQLite store behind it). */
export interface KeyValueStorage {
  get(key: string): Promise<string | null>;
  set(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
}

/**
 * The web worker's API (exposed with Comlink). All methods are async so the Comlink remote and an
 * in-thread instance share this type.
 */
export interface WebApi {
  /**
   * Connects persistent settings storage and loads saved settings. Without it settings live in memory.
   * @throws AppError INVALID_ARGUMENT when stored settings cannot be read (they are then reset).
   */
  init(storage?: KeyValueStorage): Promise<void>;
  listProviders(): Promise<ProviderStatus[]>;
  /** @throws AppError INVALID_ARGUMENT for a base URL that is not http(s). */
  updateProvider(id: ProviderId, patch: ProviderConfigPatch): Promise<ProviderStatus>;
  /** Closes a provider's breaker by hand (the user says "try again now"). */
  resetBreaker(id: ProviderId): Promise<void>;
  /**
   * Parallel multi-provider search. Never throws for a provider failure. `onHits` is called each
   * time a provider answers, with all hits merged and ranked so far and the provider that just
   * answered (pass it through Comlink.proxy).
   * @throws AppError INVALID_QUERY for an empty query.
   */
  search(
    request: WebSearchRequest,
    onHits?: (hits: RankedWebHit[], provider: ProviderId) => void,
  ): Promise<WebSearchResult>;
  /** Full text of a result for import: provider extract endpoint first, else a direct fetch. */
  fetchPage(url: string, provider?: ProviderId | null): Promise<FetchPageResult>;
  getLedger(): Promise<LedgerEntry[]>;
  /** The ledger as JSON text for download (keys and query strings never included). */
  exportLedger(): Promise<string>;
  clearLedger(): Promise<void>;
  /** Model downloads and other modules record their outbound requests here. */
  recordExternal(record: ExternalLedgerRecord): Promise<void>;
  getCredibility(): Promise<CredibilityTable>;
  /** @throws AppError INVALID_ARGUMENT for a domain that is not a host name. */
  setCredibilityOverride(domain: string, tier: CredibilityTier | null): Promise<CredibilityTable>;
  /** Settings as JSON for a diagnostics export; keys replaced by "[REDACTED]". */
  exportSettings(): Promise<string>;
}
