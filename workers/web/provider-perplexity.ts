// Perplexity Sonar. Shapes from Perplexity's docs (docs.perplexity.ai chat completions reference
// and its CompletionResponse / ApiPublicSearchResult schemas; docs.perplexity.ai/docs/sonar/
// openai-compatibility): POST /chat/completions {model: 'sonar', messages} -> {id, model, choices:
// [{message: {content}}], citations?: string[], search_results?: [{title, url, date?,
// last_updated?, snippet?}]}. Hits come from search_results, else from citations (URL only).
// Auth: "Authorization: Bearer". Rate limit: docs.perplexity.ai/guides/usage-tiers (sonar 50 RPM).
// Must not import anything outside workers/shared and workers/web.
import type { WebHit } from '../shared/web-api';
import {
  httpUrl,
  isRecord,
  malformed,
  parseJsonBody,
  str,
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
    const hits: WebHit[] = [];
    const seen = new Set<string>();
    if (Array.isArray(body.search_results)) {
      for (const r of body.search_results as unknown[]) {
        if (!isRecord(r)) continue;
        const url = httpUrl(r.url);
        if (!url || seen.has(url)) continue;
        seen.add(url);
        hits.push({
          url,
          title: str(r.title) ?? url,
          snippet: str(r.snippet) ?? '',
          publishedDate: str(r.date) ?? str(r.last_updated),
          provider: 'perplexity',
          providerScore: null,
          raw: { ...r, answer },
        });
      }
    }
    if (Array.isArray(body.citations)) {
      for (const c of body.citations as unknown[]) {
        const url = httpUrl(c);
        if (!url || seen.has(url)) continue;
        seen.add(url);
        hits.push({
          url,
          title: url,
          snippet: '',
          publishedDate: null,
          provider: 'perplexity',
          providerScore: null,
          raw: { citation: url, answer },
        });
      }
    }
    return hits;
  },
};
