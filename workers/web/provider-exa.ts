// Exa search and contents. Shapes from Exa's docs (exa.ai/docs/reference/search,
// exa.ai/docs/reference/contents-retrieval, exa.ai/docs/sdks/typescript-sdk-specification):
// POST /search {query, numResults, type: 'auto', contents: {highlights: {...}}} -> {requestId,
// results: [{id, url, title, score?, publishedDate?, author?, text?, highlights?: string[]}]};
// POST /contents {urls, text: true} -> {results: [{url, title, text}]}. Auth: "x-api-key" header.
// Rate limit: exa.ai/docs/reference/rate-limits (/search 10 QPS, /contents 100 QPS).
// Must not import anything outside workers/shared and workers/web.
import type { WebHit } from '../shared/web-api';
import {
  httpUrl,
  isRecord,
  malformed,
  num,
  parseJsonBody,
  str,
  type ProviderDefinition,
} from './provider-types';

const LABEL = 'Exa';

export const exa: ProviderDefinition = {
  id: 'exa',
  label: LABEL,
  defaultBaseUrl: 'https://api.exa.ai',
  keyRequirement: 'required',
  docsUrl: 'https://exa.ai/docs/reference/search',
  minIntervalMs: 100,
  rateLimitNote: '/search 10 requests/s, exa.ai/docs/reference/rate-limits',
  authHeaders: (key) => ({ 'x-api-key': key }),
  searchRequest: (query, limit) => ({
    method: 'POST',
    path: 'search',
    json: {
      query,
      numResults: Math.min(Math.max(1, limit), 100),
      type: 'auto',
      contents: { highlights: { maxCharacters: 500 } },
    },
    headers: { Accept: 'application/json' },
    idempotent: true,
    purpose: 'search:exa',
  }),
  parseSearch(res) {
    const body = parseJsonBody(res, LABEL);
    if (!isRecord(body) || !Array.isArray(body.results)) malformed(LABEL, 'a results list');
    const hits: WebHit[] = [];
    for (const r of body.results as unknown[]) {
      if (!isRecord(r)) continue;
      const url = httpUrl(r.url);
      if (!url) continue;
      const highlights = Array.isArray(r.highlights)
        ? r.highlights.filter((h): h is string => typeof h === 'string')
        : [];
      const snippet = highlights.join(' … ') || (str(r.text) ?? '').slice(0, 500);
      hits.push({
        url,
        title: str(r.title) ?? url,
        snippet,
        publishedDate: str(r.publishedDate),
        provider: 'exa',
        providerScore: num(r.score),
        raw: r,
      });
    }
    return hits;
  },
  extract: {
    request: (url) => ({
      method: 'POST',
      path: 'contents',
      json: { urls: [url], text: true },
      headers: { Accept: 'application/json' },
      idempotent: true,
      purpose: 'extract:exa',
    }),
    parse(res) {
      const body = parseJsonBody(res, LABEL);
      if (!isRecord(body) || !Array.isArray(body.results)) malformed(LABEL, 'a results list');
      const first = (body.results as unknown[]).find(isRecord);
      const text = first ? str(first.text) : null;
      return first && text ? { title: str(first.title) ?? '', text } : null;
    },
  },
};
