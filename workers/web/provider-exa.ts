// Exa search and contents. Shapes from Exa's docs (exa.ai/docs/reference/search,
// exa.ai/docs/reference/contents-retrieval, exa.ai/docs/sdks/typescript-sdk-specification):
// POST /search {query, numResults, type: 'auto', contents: {highlights: {...}}} -> {requestId,
// results: [{id, url, title, score?, publishedDate?, author?, text?, highlights?: string[]}]};
// POST /contents {urls, text: true} -> {results: [{url, title, text}]}. Auth: "x-api-key" header.
// Rate limit: exa.ai/docs/reference/rate-limits (/search 10 QPS, /contents 100 QPS).
import {
  clampLimit,
  jsonRead,
  jsonResults,
  scoredFields,
  str,
  toHits,
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
  searchRequest: (query, limit) =>
    jsonRead('exa', 'search', {
      method: 'POST',
      path: 'search',
      json: {
        query,
        numResults: clampLimit(limit, 100),
        type: 'auto',
        contents: { highlights: { maxCharacters: 500 } },
      },
    }),
  parseSearch: (res) =>
    toHits(jsonResults(res, LABEL), 'exa', (r, url) => {
      const highlights = Array.isArray(r.highlights)
        ? r.highlights.filter((h): h is string => typeof h === 'string')
        : [];
      const snippet = highlights.join(' … ') || (str(r.text) ?? '').slice(0, 500);
      return scoredFields(r, url, snippet, r.publishedDate);
    }),
  extract: {
    request: (url) =>
      jsonRead('exa', 'extract', {
        method: 'POST',
        path: 'contents',
        json: { urls: [url], text: true },
      }),
    parse(res) {
      const [first] = jsonResults(res, LABEL);
      const text = first ? str(first.text) : null;
      return first && text ? { title: str(first.title) ?? '', text } : null;
    },
  },
};
