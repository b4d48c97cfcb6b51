// SearXNG JSON API of the user's own instance. Shapes from the SearXNG docs
// (docs.searxng.org/dev/search_api.html): GET /search?q=&format=json (the instance must list
// `json` in settings.yml search.formats, else it answers 403) -> {query, number_of_results,
// results: [{url, title, content?, engine, engines?, score?, publishedDate?, category?}],
// answers, suggestions, unresponsive_engines}. No key. Rate limit: none published (self-hosted);
// 1 request/s keeps clear of the instance's optional limiter plugin.
// Must not import anything outside workers/shared and workers/web.
import {
  jsonRead,
  num,
  parseJsonBody,
  recordList,
  str,
  toHits,
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
  searchRequest: (query) =>
    jsonRead('searxng', 'search', {
      method: 'GET',
      path: 'search',
      query: { q: query, format: 'json' },
    }),
  parseSearch: (res) =>
    toHits(recordList(parseJsonBody(res, LABEL), 'results', LABEL), 'searxng', (r, url) => ({
      title: str(r.title) ?? url,
      snippet: str(r.content) ?? '',
      publishedDate: str(r.publishedDate),
      providerScore: num(r.score),
    })),
};
