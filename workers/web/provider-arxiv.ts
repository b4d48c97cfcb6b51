// arXiv query API (Atom 1.0), parsed with a real XML parser (fast-xml-parser). Shapes from the
// arXiv API User's Manual (info.arxiv.org/help/api/user-manual.html, sections 3.1 "Query
// Interface" and 3.3 "Outline of an Atom feed"): GET /api/query?search_query=all:..&start=0&
// max_results=N -> <feed><opensearch:totalResults/><entry><id>http://arxiv.org/abs/ID</id>
// <published/><updated/><title/><summary/><author><name/></author><link rel="alternate" href/>
// <link title="pdf" href/></entry></feed>. Errors come back as an entry whose id is
// http://arxiv.org/api/errors#... (manual section 3.4). No key. Rate limit: one request every
// 3 s (info.arxiv.org/help/api/tou.html).
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { createError } from '../shared/errors';
import type { WebHit } from '../shared/web-api';
import {
  clampLimit,
  httpUrl,
  isRecord,
  malformed,
  str,
  type ProviderDefinition,
} from './provider-types';

const LABEL = 'arXiv';

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  removeNSPrefix: true,
  // Entries, authors and links repeat; keep them arrays even when there is one.
  isArray: (name) =>
    name === 'entry' || name === 'author' || name === 'link' || name === 'category',
  // Entities in titles (&amp;) are decoded; no external entities are ever fetched.
  processEntities: true,
});

/** Words of the user's query as arXiv field terms: all:w1 AND all:w2 (manual 5.1). */
export function arxivSearchQuery(query: string): string {
  const words = query
    .split(/\s+/)
    .map((w) => w.replace(/[^\p{L}\p{N}.-]/gu, ''))
    .filter((w) => w.length > 0 && !/^(AND|OR|ANDNOT)$/i.test(w));
  return words.map((w) => `all:${w}`).join(' AND ');
}

function text(v: unknown): string | null {
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return String(v);
  if (isRecord(v) && typeof v['#text'] === 'string') return v['#text'];
  return null;
}

function clean(s: string | null): string {
  return (s ?? '').replace(/\s+/g, ' ').trim();
}

export const arxiv: ProviderDefinition = {
  id: 'arxiv',
  label: LABEL,
  defaultBaseUrl: 'https://export.arxiv.org',
  keyRequirement: 'none',
  docsUrl: 'https://info.arxiv.org/help/api/user-manual.html',
  minIntervalMs: 3000,
  rateLimitNote: 'one request every 3 s, info.arxiv.org/help/api/tou.html',
  authHeaders: () => ({}),
  searchRequest: (query, limit) => ({
    method: 'GET',
    path: 'api/query',
    query: {
      search_query: arxivSearchQuery(query),
      start: '0',
      max_results: String(clampLimit(limit, 50)),
    },
    headers: { Accept: 'application/atom+xml' },
    idempotent: true,
    purpose: 'search:arxiv',
  }),
  parseSearch(res) {
    if (XMLValidator.validate(res.text) !== true) {
      throw createError('MALFORMED_RESPONSE', { reason: `${LABEL} sent invalid XML.` });
    }
    const doc: unknown = parser.parse(res.text);
    if (!isRecord(doc) || !isRecord(doc.feed)) malformed(LABEL, 'an Atom feed');
    const feed = doc.feed;
    const entries = Array.isArray(feed.entry) ? (feed.entry as unknown[]) : [];
    const hits: WebHit[] = [];
    for (const e of entries) {
      if (!isRecord(e)) continue;
      const id = clean(text(e.id));
      if (id.includes('/api/errors')) {
        throw createError('PROVIDER_ERROR', {
          reason: `${LABEL} rejected the query: ${clean(text(e.summary))}.`,
        });
      }
      const links = Array.isArray(e.link) ? (e.link as unknown[]).filter(isRecord) : [];
      const alternate = links.find((l) => l['@_rel'] === 'alternate');
      const raw = httpUrl(alternate?.['@_href']) ?? httpUrl(id);
      if (!raw) continue;
      // The feed uses http://arxiv.org/abs/...; the https form is the canonical page.
      const url = raw.replace(/^http:\/\/arxiv\.org\//, 'https://arxiv.org/');
      const authors = Array.isArray(e.author)
        ? (e.author as unknown[])
            .filter(isRecord)
            .map((a) => clean(text(a.name)))
            .filter(Boolean)
        : [];
      hits.push({
        url,
        title: clean(text(e.title)) || url,
        snippet: clean(text(e.summary)).slice(0, 600),
        publishedDate: str(text(e.published)),
        provider: 'arxiv',
        providerScore: null,
        raw: { id, authors, published: text(e.published), updated: text(e.updated), links },
      });
    }
    return hits;
  },
};
