// SearXNG JSON API of the user's own instance. Shapes from the SearXNG docs
// (docs.searxng.org/dev/search_api.html): GET /search?q=&format=json (the instance must list
// `json` in settings.yml search.formats, else it answers 403) -> {query, number_of_results,
// results: [{url, title, content?, engine, engines?, score?, publishedDate?, category?}],
// answers, suggestions, unresponsive_engines}. No key. Rate limit: none published (self-hosted);
// 1 request/s keeps clear of the instance's optional limiter plugin.
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

const LABEL = 'SearXNG';

export const searxng: ProviderDefinition = {
  id: 'searxng',
  label: LABEL,
  defaultBaseUrl: null,
  keyRequirement: 'none',
  docsUrl: 'https://docs.searxng.org/dev/search_api.html',
  minIntervalMs: 1000,
  rateLimitNote: 'your own instance; Sift sends at most 1 request/s',
  authHeaders: () => ({}),
  searchRequest: (query) => ({
    method: 'GET',
    path: 'search',
    query: { q: query, format: 'json' },
    headers: { Accept: 'application/json' },
    idempotent: true,
    purpose: 'search:searxng',
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
        publishedDate: str(r.publishedDate),
        provider: 'searxng',
        providerScore: num(r.score),
        raw: r,
      });
    }
    return hits;
  },
};
