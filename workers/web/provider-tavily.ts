// Tavily search and extract. Shapes from Tavily's docs (docs.tavily.com API reference,
// "Search" and "Extract"; the Python SDK reference docs.tavily.com/docs/python-sdk/tavily-extract/
// api-reference): POST /search {query, max_results, search_depth} -> {query, answer?, results:
// [{title, url, content, score, raw_content?, published_date?}], response_time}; POST /extract
// {urls, extract_depth} -> {results: [{url, raw_content}], failed_results: [{url, error}]}.
// Auth: "Authorization: Bearer tvly-..." header. Rate limit: docs.tavily.com/documentation/rate-limits
// (Development keys 100 RPM).
import {
  clampLimit,
  isRecord,
  jsonRead,
  jsonResults,
  parseJsonBody,
  recordList,
  scoredFields,
  str,
  toHits,
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
  searchRequest: (query, limit) =>
    jsonRead('tavily', 'search', {
      method: 'POST',
      path: 'search',
      json: { query, max_results: clampLimit(limit, 20), search_depth: 'basic' },
    }),
  parseSearch: (res) =>
    toHits(jsonResults(res, LABEL), 'tavily', (r, url) =>
      scoredFields(r, url, str(r.content) ?? '', r.published_date),
    ),
  extract: {
    request: (url) =>
      jsonRead('tavily', 'extract', {
        method: 'POST',
        path: 'extract',
        json: { urls: [url], extract_depth: 'basic' },
      }),
    parse(res, url) {
      const body = parseJsonBody(res, LABEL);
      const results = recordList(body, 'results', LABEL);
      // One answer for one URL is that URL's, whatever spelling of it the answer carries.
      const single = isRecord(body) && (body.results as unknown[]).length === 1;
      for (const r of results) {
        const text = str(r.raw_content);
        if (text && (str(r.url) === url || single)) return { title: '', text };
      }
      return null;
    },
  },
};
