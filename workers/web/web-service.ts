// The web search service behind the WebApi: provider settings, parallel multi-provider search
// with an overall deadline and streaming, credibility weighting, cross-provider dedupe, page
// fetching for import, and the ledger. Owns: orchestration and per-provider breaker/limiter
// state; fetch, clock, random, onLine and storage are injected.
import { AppError, createError } from '../shared/errors';
import type {
  CredibilityTier,
  FetchPageResult,
  KeyValueStorage,
  ProviderConfigPatch,
  ProviderFailure,
  ProviderId,
  ProviderStatus,
  RankedWebHit,
  WebApi,
  WebHit,
  WebSearchRequest,
  WebSearchResult,
} from '../shared/web-api';
import { PROVIDER_IDS } from '../shared/web-api';
import type { BackoffConfig } from './backoff';
import { createCircuitBreaker, DEFAULT_BREAKER, type BreakerConfig } from './breaker';
import type { Clock, RandomSource } from './clock';
import { createCredibility, TIER_GRADES, TIER_WEIGHTS, type Credibility } from './credibility';
import { createHttp, type Destination, type FetchLike, type ProviderChannel } from './http';
import { createNetworkLedger, type NetworkLedger } from './ledger';
import { PROVIDERS } from './providers';
import type { ProviderDefinition } from './provider-types';
import { createRateLimiter } from './rate-limiter';
import { createRedactor, REDACTED, type Redactor } from './redact';
import {
  createMemoryStorage,
  loadSettings,
  saveSettings,
  type ProviderSettings,
  type WebSettings,
  defaultSettings,
} from './settings';
import { normaliseUrlKey } from './url-key';

export interface WebServiceDeps {
  fetch: FetchLike;
  clock: Clock;
  random: RandomSource;
  /** navigator.onLine. */
  isOnline: () => boolean;
  /** True in a browser (enables CORS detection). */
  isBrowser: boolean;
  storage?: KeyValueStorage;
  backoff?: BackoffConfig;
  breaker?: BreakerConfig;
  /** Per-request timeout, default 10 s. */
  timeoutMs?: number;
  /** Retries per request, default 3. */
  maxRetries?: number;
  /** Replace provider definitions (tests use this to shorten nothing but the registry itself). */
  providers?: Partial<Record<ProviderId, ProviderDefinition>>;
}

export interface WebService extends WebApi {
  /** In-thread access for tests and for other modules in the same worker. */
  readonly ledger: NetworkLedger;
  readonly redactor: Redactor;
}

const DEFAULT_DEADLINE_MS = 15_000;
export const LEDGER_KEY = 'sift.web.ledger';

function toFailure(provider: ProviderId, err: unknown, redactor: Redactor): ProviderFailure {
  const e = err instanceof AppError ? err : createError('INTERNAL', { reason: String(err) });
  return { provider, code: e.code, message: redactor.redact(e.message), retryable: e.retryable };
}

/**
 * The ledger's writer to storage. Writes are coalesced without timers: while one write is in
 * flight, later records only mark it dirty. `storage` is read at each write (init may replace it).
 */
function ledgerSaver(ledger: NetworkLedger, storage: () => KeyValueStorage): () => void {
  let ledgerSaving = false;
  let ledgerDirty = false;
  function saveLedger(): void {
    if (ledgerSaving) {
      ledgerDirty = true;
      return;
    }
    ledgerSaving = true;
    const text = JSON.stringify({ version: 1, entries: ledger.list() });
    void storage()
      .set(LEDGER_KEY, text)
      .catch(() => undefined)
      .finally(() => {
        ledgerSaving = false;
        if (ledgerDirty) {
          ledgerDirty = false;
          saveLedger();
        }
      });
  }
  return saveLedger;
}

/** Where a provider's requests go and with which key; null without a base URL. */
function destinationOf(def: ProviderDefinition, s: ProviderSettings): Destination | null {
  const baseUrl = s.baseUrl ?? def.defaultBaseUrl;
  if (!baseUrl) return null;
  return {
    providerLabel: def.label,
    baseUrl,
    officialBaseUrl: def.defaultBaseUrl,
    apiKey: s.apiKey,
    keyRequirement: def.keyRequirement,
    authHeaders: def.authHeaders,
    sendKeyToCustomBaseUrl: s.sendKeyToCustomBaseUrl,
  };
}

function statusOf(
  id: ProviderId,
  def: ProviderDefinition,
  s: ProviderSettings,
  breaker: ProviderStatus['breaker'],
): ProviderStatus {
  return {
    id,
    label: def.label,
    enabled: s.enabled,
    hasKey: s.apiKey !== null,
    keyRequirement: def.keyRequirement,
    baseUrl: s.baseUrl,
    defaultBaseUrl: def.defaultBaseUrl,
    effectiveBaseUrl: s.baseUrl ?? def.defaultBaseUrl,
    sendKeyToCustomBaseUrl: s.sendKeyToCustomBaseUrl,
    minIntervalMs: def.minIntervalMs,
    rateLimitNote: def.rateLimitNote,
    docsUrl: def.docsUrl,
    canExtract: def.extract !== undefined,
    breaker,
  };
}

/** Provider hits -> ranked hits: relevance normalised per provider, weighted by tier. */
function rankHits(hits: WebHit[], credibility: Credibility): RankedWebHit[] {
  const n = hits.length;
  const maxScore = Math.max(1, ...hits.map((h) => h.providerScore ?? 0));
  const out: RankedWebHit[] = [];
  hits.forEach((h, i) => {
    const tier: CredibilityTier = credibility.tierFor(h.url);
    if (tier === 5) return; // blocked by the user
    // Providers without scores (Brave, arXiv, S2, Perplexity) are ranked by position: 1 .. 0.5.
    const relevance =
      h.providerScore !== null
        ? Math.max(0, h.providerScore) / maxScore
        : 1 - (i / Math.max(n, 1)) * 0.5;
    const weight = TIER_WEIGHTS[tier];
    out.push({
      ...h,
      key: normaliseUrlKey(h.url),
      alsoFrom: [],
      tier,
      tierWeight: weight,
      qualityGrade: TIER_GRADES[tier],
      relevance,
      score: relevance * weight,
    });
  });
  return out;
}

/** Adds hits to the merged list: one per URL key, the better scored kept, the others in alsoFrom. */
function merge(into: Map<string, RankedWebHit>, hits: RankedWebHit[]): void {
  for (const h of hits) {
    const existing = into.get(h.key);
    if (!existing) {
      into.set(h.key, h);
      continue;
    }
    const [keep, other] = h.score > existing.score ? [h, existing] : [existing, h];
    const providers = new Set([...keep.alsoFrom, ...other.alsoFrom, other.provider]);
    providers.delete(keep.provider);
    into.set(h.key, {
      ...keep,
      snippet: keep.snippet || other.snippet,
      publishedDate: keep.publishedDate ?? other.publishedDate,
      alsoFrom: [...providers],
    });
  }
}

/** The merged hits, best score first, ties by URL key. */
function sorted(map: Map<string, RankedWebHit>): RankedWebHit[] {
  return [...map.values()].sort(
    (a, b) => b.score - a.score || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0),
  );
}

/**
 * A provider's base URL as the user typed it: blank means the default (null), otherwise a full
 * http(s) address without credentials, its trailing slashes dropped.
 * @throws AppError INVALID_ARGUMENT
 */
function parseBaseUrl(baseUrl: string | null): string | null {
  const raw = (baseUrl ?? '').trim();
  if (raw === '') return null;
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw createError('INVALID_ARGUMENT', {
      reason: 'The base URL must be a full http(s) address.',
    });
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') {
    throw createError('INVALID_ARGUMENT', {
      reason: 'The base URL must start with https:// or http://.',
    });
  }
  if (u.username || u.password) {
    throw createError('INVALID_ARGUMENT', {
      reason: 'Put credentials in the key field, not in the base URL.',
    });
  }
  return u.toString().replace(/\/+$/, '');
}

/** The ledger as the WebApi serves it. */
function ledgerMethods(
  ledger: NetworkLedger,
): Pick<WebApi, 'getLedger' | 'exportLedger' | 'clearLedger' | 'recordExternal'> {
  return {
    async getLedger() {
      return ledger.list();
    },
    async exportLedger() {
      return ledger.exportJson();
    },
    async clearLedger() {
      ledger.clear();
    },
    async recordExternal(record) {
      ledger.recordExternal(record);
    },
  };
}

export function createWebService(deps: WebServiceDeps): WebService {
  const redactor = createRedactor();
  const ledger = createNetworkLedger({ clock: deps.clock, redactor });
  const http = createHttp({
    fetch: deps.fetch,
    clock: deps.clock,
    random: deps.random,
    ledger,
    redactor,
    isOnline: deps.isOnline,
    isBrowser: deps.isBrowser,
    ...(deps.backoff ? { backoff: deps.backoff } : {}),
  });
  const registry: Record<ProviderId, ProviderDefinition> = {
    ...PROVIDERS,
    ...deps.providers,
  };
  let storage: KeyValueStorage = deps.storage ?? createMemoryStorage();
  let settings: WebSettings = defaultSettings();
  let credibility = createCredibility();
  const channels = new Map<ProviderId, ProviderChannel>();

  // The ledger survives reloads in the same storage.
  const saveLedger = ledgerSaver(ledger, () => storage);
  ledger.subscribe(saveLedger);
  ledger.onClear(saveLedger);

  function channel(id: ProviderId): ProviderChannel {
    let c = channels.get(id);
    if (!c) {
      c = {
        breaker: createCircuitBreaker(deps.clock, deps.breaker ?? DEFAULT_BREAKER),
        limiter: createRateLimiter(deps.clock, registry[id].minIntervalMs),
      };
      channels.set(id, c);
    }
    return c;
  }

  const destination = (id: ProviderId) => destinationOf(registry[id], settings.providers[id]);
  const status = (id: ProviderId) =>
    statusOf(id, registry[id], settings.providers[id], channel(id).breaker.snapshot());
  const rank = (hits: WebHit[]) => rankHits(hits, credibility);

  function applySettings(next: WebSettings): void {
    settings = next;
    for (const id of PROVIDER_IDS) redactor.addSecret(settings.providers[id].apiKey);
    credibility = createCredibility(settings.credibilityOverrides);
  }

  async function persist(): Promise<void> {
    settings.credibilityOverrides = credibility.overrides();
    await saveSettings(storage, settings);
  }

  /**
   * The page as the provider's extract endpoint gives it, when the provider has one, is enabled
   * and has a key; null otherwise (then the page is fetched directly).
   */
  async function extractPage(
    url: string,
    provider: ProviderId | null | undefined,
    grade: (typeof TIER_GRADES)[CredibilityTier],
    fetchedAt: number,
  ): Promise<FetchPageResult | null> {
    if (!provider || !PROVIDER_IDS.includes(provider)) return null;
    const def = registry[provider];
    const dest = destination(provider);
    if (!def.extract || !dest || !settings.providers[provider].enabled || !dest.apiKey) return null;
    const extract = def.extract;
    const got = await http.send(
      dest,
      channel(provider),
      extract.request(url),
      (res) => extract.parse(res, url),
      {
        ...(deps.timeoutMs !== undefined ? { timeoutMs: deps.timeoutMs } : {}),
      },
    );
    if (!got) return null;
    return {
      ok: true,
      page: {
        kind: 'text',
        url,
        title: got.title,
        text: got.text,
        provider,
        via: `extract:${provider}`,
        fetchedAt,
        qualityGrade: grade,
      },
    };
  }

  /** The page fetched directly (HTML or text); a failure says why, and why extract failed first. */
  async function directPage(
    url: string,
    provider: ProviderId | null | undefined,
    grade: (typeof TIER_GRADES)[CredibilityTier],
    fetchedAt: number,
    extractError: unknown,
  ): Promise<FetchPageResult> {
    try {
      const res = await http.fetchPublic(url, 'page-fetch', {
        ...(deps.timeoutMs !== undefined ? { timeoutMs: deps.timeoutMs } : {}),
      });
      const type = (res.headers.get('content-type') ?? '').toLowerCase();
      const base = {
        url,
        title: '',
        provider: provider ?? null,
        via: 'direct',
        fetchedAt,
        qualityGrade: grade,
      };
      if (type.includes('html') || type.includes('xml') || type === '') {
        return { ok: true, page: { ...base, kind: 'html', html: res.text } };
      }
      if (type.startsWith('text/'))
        return { ok: true, page: { ...base, kind: 'text', text: res.text } };
      return {
        ok: false,
        code: 'UNSUPPORTED_TYPE',
        message: `That page is ${type.split(';')[0]}, not a web page. Download it and import the file instead.`,
      };
    } catch (err) {
      // The direct fetch's reason (often CORS) is the useful one; an extract error is mentioned too.
      const f = toFailure(provider ?? 'searxng', err, redactor);
      const extra =
        extractError instanceof AppError
          ? ` (Extract failed first: ${redactor.redact(extractError.message)})`
          : '';
      return { ok: false, code: f.code, message: f.message + extra };
    }
  }

  const service: WebService = {
    ledger,
    redactor,

    async init(store) {
      if (store) storage = store;
      applySettings(await loadSettings(storage));
      try {
        const saved = await storage.get(LEDGER_KEY);
        if (saved) ledger.load((JSON.parse(saved) as { entries?: unknown }).entries);
      } catch {
        // An unreadable ledger is dropped; it is a record, not data the user made.
      }
    },

    async listProviders() {
      return PROVIDER_IDS.map(status);
    },

    async updateProvider(id, patch: ProviderConfigPatch) {
      if (!PROVIDER_IDS.includes(id))
        throw createError('INVALID_ARGUMENT', { reason: `Unknown provider ${String(id)}.` });
      const s = { ...settings.providers[id] };
      if (patch.enabled !== undefined) s.enabled = patch.enabled;
      if (patch.apiKey !== undefined) {
        const key = patch.apiKey.trim();
        if (s.apiKey) redactor.removeSecret(s.apiKey);
        s.apiKey = key === '' ? null : key;
        // Register before anything can log or throw with it.
        redactor.addSecret(s.apiKey);
      }
      if (patch.baseUrl !== undefined) {
        s.baseUrl = parseBaseUrl(patch.baseUrl);
      }
      if (patch.sendKeyToCustomBaseUrl !== undefined)
        s.sendKeyToCustomBaseUrl = patch.sendKeyToCustomBaseUrl;
      settings.providers[id] = s;
      await persist();
      return status(id);
    },

    async resetBreaker(id) {
      channel(id).breaker.reset();
    },

    async search(request: WebSearchRequest, onHits) {
      const started = deps.clock.now();
      const query = request.query.trim();
      if (!query) throw createError('INVALID_QUERY', { reason: 'The web search query is empty.' });
      const limit = request.limit ?? 10;
      const wanted = (request.providers ?? PROVIDER_IDS).filter((id) => PROVIDER_IDS.includes(id));
      const active = wanted.filter((id) => settings.providers[id].enabled);
      const failures: ProviderFailure[] = [];
      const succeeded: ProviderId[] = [];
      const merged = new Map<string, RankedWebHit>();

      // Offline: say so at once for every provider; nothing is sent and nothing is queued.
      if (!deps.isOnline()) {
        for (const id of active) {
          failures.push(
            toFailure(
              id,
              createError('OFFLINE', { reason: `${registry[id].label} was not asked.` }),
              redactor,
            ),
          );
        }
        return { hits: [], failures, succeeded, tookMs: deps.clock.now() - started };
      }

      const deadlineMs = request.deadlineMs ?? DEFAULT_DEADLINE_MS;
      const deadline = started + deadlineMs;
      const abort = new AbortController();
      const stopTimer = new AbortController();
      let deadlineHit = false;
      deps.clock.sleep(deadlineMs, stopTimer.signal).then(
        () => {
          deadlineHit = true;
          abort.abort();
        },
        () => undefined,
      );

      await Promise.all(
        active.map(async (id) => {
          const def = registry[id];
          const dest = destination(id);
          try {
            if (!dest) {
              throw createError('PROVIDER_NOT_CONFIGURED', {
                reason: `${def.label} needs a base URL (your instance).`,
              });
            }
            const hits = await http.send(
              dest,
              channel(id),
              def.searchRequest(query, limit),
              (res) => def.parseSearch(res),
              {
                signal: abort.signal,
                deadline,
                ...(deps.timeoutMs !== undefined ? { timeoutMs: deps.timeoutMs } : {}),
                ...(deps.maxRetries !== undefined ? { maxRetries: deps.maxRetries } : {}),
              },
            );
            succeeded.push(id);
            merge(merged, rank(hits.slice(0, limit)));
            if (onHits && !deadlineHit) {
              try {
                onHits(sorted(merged), id);
              } catch {
                // A failing listener must not turn a provider's success into a failure.
              }
            }
          } catch (err) {
            const e =
              deadlineHit && err instanceof AppError && err.code === 'ABORTED'
                ? createError('TIMEOUT', {
                    reason: `${def.label} did not answer before the search deadline.`,
                  })
                : err;
            failures.push(toFailure(id, e, redactor));
          }
        }),
      );
      stopTimer.abort();
      return {
        hits: sorted(merged),
        failures,
        succeeded,
        tookMs: deps.clock.now() - started,
      } satisfies WebSearchResult;
    },

    async fetchPage(url, provider): Promise<FetchPageResult> {
      const grade = TIER_GRADES[credibility.tierFor(url)];
      const fetchedAt = deps.clock.now();
      let extractError: unknown = null;
      try {
        const extracted = await extractPage(url, provider, grade, fetchedAt);
        if (extracted) return extracted;
      } catch (err) {
        extractError = err;
      }
      return directPage(url, provider, grade, fetchedAt, extractError);
    },

    ...ledgerMethods(ledger),

    async getCredibility() {
      return credibility.table();
    },
    async setCredibilityOverride(domain, tier) {
      if (!credibility.setOverride(domain, tier)) {
        throw createError('INVALID_ARGUMENT', {
          reason: `"${domain}" is not a domain name such as example.org.`,
        });
      }
      await persist();
      return credibility.table();
    },

    async exportSettings() {
      const copy = JSON.parse(JSON.stringify(settings)) as WebSettings;
      for (const id of PROVIDER_IDS) {
        const p = copy.providers[id];
        if (p.apiKey) p.apiKey = REDACTED;
      }
      return redactor.redact(JSON.stringify({ format: 'sift-web-settings', ...copy }, null, 2));
    },
  };
  return service;
}
