// Perplexity Sonar. Shapes from Perplexity's docs (docs.perplexity.ai chat completions reference
// and its CompletionResponse / ApiPublicSearchResult schemas; docs.perplexity.ai/docs/sonar/
// openai-compatibility): POST /chat/completions {model: 'sonar', messages} -> {id, model, choices:
// [{message: {content}}], citations?: string[], search_results?: [{title, url, date?,
// last_updated?, snippet?}]}. Hits come from search_results, else from citations (URL only).
// Auth: "Authorization: Bearer". Rate limit: docs.perplexity.ai/guides/usage-tiers (sonar 50 RPM).
import {
  httpUrl,
  isRecord,
  malformed,
  parseJsonBody,
  str,
  toHits,
  type ProviderDefinition,
} from './provider-types';

const LABEL = 'Perplexity';

export const perplexity: ProviderDefinition = {
  id: 'perplexity',
  label: LABEL,
  defaultBaseUrl: 'https://api.perplexity.ai',
  keyRequirement: 'required',
  docsUrl: 'https://docs.perplexity.ai/api-reference/chat-completions-post',
  minIntervalMs: 1200,
  rateLimitNote: 'sonar 50 requests/min (tier 0), docs.perplexity.ai/guides/usage-tiers',
  authHeaders: (key) => ({ Authorization: `Bearer ${key}` }),
  searchRequest: (query) => ({
    method: 'POST',
    path: 'chat/completions',
    json: {
      model: 'sonar',
      messages: [
        { role: 'system', content: 'Answer briefly and cite your sources.' },
        { role: 'user', content: query },
      ],
    },
    headers: { Accept: 'application/json' },
    // Each call is a billed generation, not a plain read: never repeated automatically.
    idempotent: false,
    purpose: 'search:perplexity',
  }),
  parseSearch(res) {
    const body = parseJsonBody(res, LABEL);
    if (!isRecord(body) || !Array.isArray(body.choices)) malformed(LABEL, 'choices');
    const choice = (body.choices as unknown[]).find(isRecord);
    const message = choice && isRecord(choice.message) ? choice.message : null;
    const answer = message ? (str(message.content) ?? '') : '';
    // Each URL once: its search result if there is one, else the bare citation.
    const seen = new Set<string>();
    const firstTime = (url: string | null) => (url && !seen.has(url) ? (seen.add(url), url) : null);
    const results = Array.isArray(body.search_results) ? body.search_results.filter(isRecord) : [];
    const citations = Array.isArray(body.citations)
      ? (body.citations as unknown[]).map((c) => ({ citation: c }))
      : [];
    return [
      ...toHits(
        results,
        'perplexity',
        (r, url) => ({
          title: str(r.title) ?? url,
          snippet: str(r.snippet) ?? '',
          publishedDate: str(r.date) ?? str(r.last_updated),
          providerScore: null,
          raw: { ...r, answer },
        }),
        (r) => firstTime(httpUrl(r.url)),
      ),
      ...toHits(
        citations,
        'perplexity',
        (_c, url) => ({
          title: url,
          snippet: '',
          publishedDate: null,
          providerScore: null,
          raw: { citation: url, answer },
        }),
        (c) => firstTime(httpUrl(c.citation)),
      ),
    ];
  },
};
