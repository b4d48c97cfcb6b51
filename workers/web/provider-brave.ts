// Brave Search web API. Shapes from Brave's docs (api-dashboard.search.brave.com/app/documentation/
// web-search, WebSearchApiResponse model): GET /res/v1/web/search?q=&count= with headers
// "Accept: application/json" and "X-Subscription-Token" -> {type: 'search', query: {original},
// web?: {type: 'search', results: [{title, url, description, age?, page_age?, extra_snippets?}]}}.
// `web` is absent when there are no web results. Rate limit: 1 request/s on the free plan
// (docs.openwebui.com/features/web-search/brave quoting Brave's plan table); paid plans allow more.
import {
  clampLimit,
  isRecord,
  jsonRead,
  malformed,
  parseJsonBody,
  recordList,
  str,
  toHits,
  type ProviderDefinition,
} from './provider-types';

const LABEL = 'Brave Search';

/** Brave marks query words in descriptions with <strong>; snippets are plain text here. */
function stripTags(s: string): string {
  return s.replace(/<[^>]*>/g, '');
}

export const brave: ProviderDefinition = {
  id: 'brave',
  label: LABEL,
  defaultBaseUrl: 'https://api.search.brave.com',
  keyRequirement: 'required',
  docsUrl: 'https://api-dashboard.search.brave.com/app/documentation/web-search/get-started',
  minIntervalMs: 1000,
  rateLimitNote: '1 request/s (free plan), api-dashboard.search.brave.com',
  authHeaders: (key) => ({ 'X-Subscription-Token': key }),
  searchRequest: (query, limit) =>
    jsonRead('brave', 'search', {
      method: 'GET',
      path: 'res/v1/web/search',
      query: { q: query, count: String(clampLimit(limit, 20)) },
    }),
  parseSearch(res) {
    const body = parseJsonBody(res, LABEL);
    if (!isRecord(body) || typeof body.type !== 'string') malformed(LABEL, 'a response type');
    if (body.web === undefined) return [];
    return toHits(recordList(body.web, 'results', LABEL, 'web results'), 'brave', (r, url) => ({
      title: stripTags(str(r.title) ?? url),
      snippet: stripTags(str(r.description) ?? ''),
      publishedDate: str(r.page_age),
      providerScore: null,
    }));
  },
};
