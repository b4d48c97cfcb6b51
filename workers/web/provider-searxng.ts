// SearXNG JSON API of the user's own instance. Shapes from the SearXNG docs
// (docs.searxng.org/dev/search_api.html): GET /search?q=&format=json (the instance must list
// `json` in settings.yml search.formats, else it answers 403) -> {query, number_of_results,
// results: [{url, title, content?, engine, engines?, score?, publishedDate?, category?}],
// answers, suggestions, unresponsive_engines}. No key. Rate limit: none published (self-hosted);
// 1 request/s keeps clear of the instance's optional limiter plugin.
import {
  jsonRead,
  jsonResults,
  scoredFields,
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
    toHits(jsonResults(res, LABEL), 'searxng', (r, url) =>
      scoredFields(r, url, str(r.content) ?? '', r.publishedDate),
    ),
};
