// Tavily search and extract. Shapes from Tavily's docs (docs.tavily.com API reference,
// "Search" and "Extract"; the Python SDK reference docs.tavily.com/docs/python-sdk/tavily-extract/
// api-reference): POST /search {query, max_results, search_depth} -> {query, answer?, results:
// [{title, url, content, score, raw_content?, published_date?}], response_time}; POST /extract
// {urls, extract_depth} -> {results: [{url, raw_content}], failed_results: [{url, error}]}.
// Auth: "Authorization: Bearer tvly-..." header. Rate limit: docs.tavily.com/documentation/rate-limits
// (Development keys 100 RPM). Must not import anything outside workers/shared and workers/web.
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

const LABEL = 'Tavily';

export const tavily: ProviderDefinition = {
  id: 'tavily',
  label: LABEL,
  defaultBaseUrl: 'https://api.tavily.com',
  keyRequirement: 'required',
  docsUrl: 'https://docs.tavily.com/documentation/api-reference/endpoint/search',
  // 100 requests per minute for Development keys.
  minIntervalMs: 600,
  rateLimitNote: '100 requests/min (Development key), docs.tavily.com/documentation/rate-limits',
  authHeaders: (key) => ({ Authorization: `Bearer ${key}` }),
  searchRequest: (query, limit) => ({
    method: 'POST',
    path: 'search',
    json: { query, max_results: Math.min(Math.max(1, limit), 20), search_depth: 'basic' },
    headers: { Accept: 'application/json' },
    // A search is a read: repeating it changes nothing on the server.
    idempotent: true,
    purpose: 'search:tavily',
  }),
  parseSearch(res) {
    const body = parseJsonBody(res, LABEL);
    if (!isRecord(body) || !Array.isArray(body.results)) malformed(LABEL, 'a results list');
    const hits: WebHit[] = [];
    for (const r of body.results as unknown[]) {
      if (!isRecord(r)) continue;
      const url = httpUrl(r.url);
      if (!url) continue;
      hits.push({
        url,
        title: str(r.title) ?? url,
        snippet: str(r.content) ?? '',
        publishedDate: str(r.published_date),
        provider: 'tavily',
        providerScore: num(r.score),
        raw: r,
      });
    }
    return hits;
  },
  extract: {
    request: (url) => ({
      method: 'POST',
      path: 'extract',
      json: { urls: [url], extract_depth: 'basic' },
      headers: { Accept: 'application/json' },
      idempotent: true,
      purpose: 'extract:tavily',
    }),
    parse(res, url) {
      const body = parseJsonBody(res, LABEL);
      if (!isRecord(body) || !Array.isArray(body.results)) malformed(LABEL, 'a results list');
      for (const r of body.results as unknown[]) {
        if (!isRecord(r)) continue;
        const text = str(r.raw_content);
        if (text && (str(r.url) === url || (body.results as unknown[]).length === 1)) {
          return { title: '', text };
        }
      }
      return null;
    },
  },
};
