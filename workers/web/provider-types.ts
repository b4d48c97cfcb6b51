// What a provider module is: a pure description of how to ask one search API and how to read
// its answer into the normalised WebHit. No I/O here: http.ts sends, the engine orchestrates.
import { createError } from '../shared/errors';
import type { ProviderId, WebHit } from '../shared/web-api';
import type { HttpResponse, RequestSpec } from './http';

export interface ProviderDefinition {
  id: ProviderId;
  label: string;
  /** The provider's own API base; null when the user must supply one (SearXNG). */
  defaultBaseUrl: string | null;
  keyRequirement: 'required' | 'optional' | 'none';
  docsUrl: string;
  /** Minimum spacing between requests, from the provider's documentation (see `rateLimitNote`). */
  minIntervalMs: number;
  rateLimitNote: string;
  /** Headers that carry the key. Called only after the host guard allowed it. */
  authHeaders(key: string): Record<string, string>;
  searchRequest(query: string, limit: number): RequestSpec;
  /** @throws AppError MALFORMED_RESPONSE when the body is not the documented shape. */
  parseSearch(res: HttpResponse): WebHit[];
  /** Full-text extraction for import, when the provider offers it. */
  extract?: {
    request(url: string): RequestSpec;
    /** Null when the provider could not extract this URL. */
    parse(res: HttpResponse, url: string): { title: string; text: string } | null;
  };
}

/** JSON.parse that fails with MALFORMED_RESPONSE instead of a SyntaxError. */
export function parseJsonBody(res: HttpResponse, label: string): unknown {
  try {
    return JSON.parse(res.text) as unknown;
  } catch {
    throw createError('MALFORMED_RESPONSE', { reason: `${label} sent invalid JSON.` });
  }
}

export function malformed(label: string, what: string): never {
  throw createError('MALFORMED_RESPONSE', { reason: `${label} sent an answer without ${what}.` });
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function str(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}

export function num(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

/** Only http(s) URLs become hits: a provider answer is untrusted input. */
export function httpUrl(v: unknown): string | null {
  if (typeof v !== 'string') return null;
  try {
    const u = new URL(v);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.toString() : null;
  } catch {
    return null;
  }
}

/**
 * A read request for a JSON answer (a search, an extract): `Accept: application/json`, and
 * idempotent, since repeating a read changes nothing on the server (so http.ts may retry it).
 */
export function jsonRead(
  provider: ProviderId,
  kind: 'search' | 'extract',
  spec: Pick<RequestSpec, 'method' | 'path' | 'query' | 'json'>,
): RequestSpec {
  return {
    ...spec,
    headers: { Accept: 'application/json' },
    idempotent: true,
    purpose: `${kind}:${provider}`,
  };
}

/** A search's result count: at least one, at most the provider's documented maximum. */
export function clampLimit(limit: number, max: number): number {
  return Math.min(Math.max(1, limit), max);
}

/** The records of the list a JSON object keeps under `key`; MALFORMED_RESPONSE without one. */
export function recordList(
  body: unknown,
  key: string,
  label: string,
  what = 'a results list',
): Record<string, unknown>[] {
  if (!isRecord(body) || !Array.isArray(body[key])) malformed(label, what);
  return (body[key] as unknown[]).filter(isRecord);
}

/** The records of a JSON answer's `results` list (Exa, Tavily, SearXNG). */
export function jsonResults(res: HttpResponse, label: string): Record<string, unknown>[] {
  return recordList(parseJsonBody(res, label), 'results', label);
}

/** What a provider reads from one result record besides its URL. */
export type HitFields = Pick<WebHit, 'title' | 'snippet' | 'publishedDate' | 'providerScore'> & {
  /** The record kept as the hit's `raw` (default: the record itself). */
  raw?: unknown;
};

/**
 * WebHits from result records. A provider answer is untrusted input: only a record whose URL
 * (`urlOf`, default its `url` field) is http(s) becomes a hit.
 */
export function toHits(
  records: readonly Record<string, unknown>[],
  provider: ProviderId,
  fields: (record: Record<string, unknown>, url: string) => HitFields,
  urlOf: (record: Record<string, unknown>) => string | null = (r) => httpUrl(r.url),
): WebHit[] {
  const hits: WebHit[] = [];
  for (const r of records) {
    const url = urlOf(r);
    if (!url) continue;
    const { title, snippet, publishedDate, providerScore, raw = r } = fields(r, url);
    hits.push({ url, title, snippet, publishedDate, provider, providerScore, raw });
  }
  return hits;
}

/**
 * The fields of a scored result record (Exa, Tavily, SearXNG): its title, else its URL; the
 * provider's own score; the date from whichever field the provider keeps it in.
 */
export function scoredFields(
  record: Record<string, unknown>,
  url: string,
  snippet: string,
  date: unknown,
): HitFields {
  return {
    title: str(record.title) ?? url,
    snippet,
    publishedDate: str(date),
    providerScore: num(record.score),
  };
}
