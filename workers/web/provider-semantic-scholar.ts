// Semantic Scholar Academic Graph paper relevance search. Shapes from the S2 API docs
// (api.semanticscholar.org/api-docs/graph#tag/Paper-Data/operation/get_graph_paper_relevance_search
// and the tutorial www.semanticscholar.org/product/api/tutorial): GET /graph/v1/paper/search?
// query=&limit=&fields= -> {total, offset, next?, data: [{paperId, title, abstract?, url, year?,
// publicationDate?, externalIds?}]}. Key optional, "x-api-key" header. Rate limit: about 1 request/s
// (WSOP spec search_providers.semantic_scholar.rate_limit; unauthenticated use shares a pool).
import {
  clampLimit,
  httpUrl,
  isRecord,
  jsonRead,
  malformed,
  parseJsonBody,
  recordList,
  str,
  num,
  toHits,
  type ProviderDefinition,
} from './provider-types';

const LABEL = 'Semantic Scholar';

export const semanticScholar: ProviderDefinition = {
  id: 'semantic-scholar',
  label: LABEL,
  defaultBaseUrl: 'https://api.semanticscholar.org',
  keyRequirement: 'optional',
  docsUrl: 'https://api.semanticscholar.org/api-docs/graph',
  minIntervalMs: 1000,
  rateLimitNote: 'about 1 request/s, www.semanticscholar.org/product/api',
  authHeaders: (key) => ({ 'x-api-key': key }),
  searchRequest: (query, limit) =>
    jsonRead('semantic-scholar', 'search', {
      method: 'GET',
      path: 'graph/v1/paper/search',
      query: {
        query,
        limit: String(clampLimit(limit, 100)),
        fields: 'title,abstract,url,year,publicationDate,externalIds',
      },
    }),
  parseSearch(res) {
    const body = parseJsonBody(res, LABEL);
    if (!isRecord(body)) malformed(LABEL, 'a JSON object');
    // With zero matches the API may omit `data`; `total` is still there.
    if (body.data === undefined && num(body.total) !== null) return [];
    return toHits(
      recordList(body, 'data', LABEL, 'a data list'),
      'semantic-scholar',
      (r, url) => {
        const year = num(r.year);
        return {
          title: str(r.title) ?? url,
          snippet: (str(r.abstract) ?? '').slice(0, 600),
          publishedDate: str(r.publicationDate) ?? (year ? String(year) : null),
          providerScore: null,
        };
      },
      // A paper without a URL of its own links to its Semantic Scholar page.
      (r) => {
        const paperId = str(r.paperId);
        return (
          httpUrl(r.url) ??
          (paperId ? `https://www.semanticscholar.org/paper/${encodeURIComponent(paperId)}` : null)
        );
      },
    );
  },
};
