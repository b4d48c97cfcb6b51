// One contract suite, run against every provider client over real HTTP to a mock on 127.0.0.1
// that serves each provider's documented response shape and its failure modes. Virtual time
// runs 1000x faster than real time (createScaledClock), so backoff and Retry-After waits are
// measured in virtual ms without real sleeping.
import { describe, expect, it } from 'vitest';
import type { ProviderId } from '../shared/web-api';
import { PROVIDER_IDS } from '../shared/web-api';
import { createScaledClock } from './fake-clock.testkit';
import type { FetchLike } from './http';
import { useMockServer, type RecordedRequest } from './mock-server.testkit';
import { PROVIDERS } from './providers';
import { createTestWebService } from './web-service.testkit';

const KEY = 'sk-contract-SECRET-1234567890';
const QUERY = 'retrieval augmented generation';

interface Expectation {
  keyHeader: string | null;
  keyValue: (k: string) => string;
  method: 'GET' | 'POST';
  path: string;
  checkRequest: (r: RecordedRequest) => void;
  minHits: number;
}

const EXPECT: Record<ProviderId, Expectation> = {
  tavily: {
    keyHeader: 'authorization',
    keyValue: (k) => `Bearer ${k}`,
    method: 'POST',
    path: '/search',
    checkRequest: (r) => {
      const body = JSON.parse(r.body) as Record<string, unknown>;
      expect(body.query).toBe(QUERY);
      expect(body.max_results).toBe(5);
      expect(body).not.toHaveProperty('api_key');
    },
    minHits: 2,
  },
  exa: {
    keyHeader: 'x-api-key',
    keyValue: (k) => k,
    method: 'POST',
    path: '/search',
    checkRequest: (r) => {
      const body = JSON.parse(r.body) as Record<string, unknown>;
      expect(body.query).toBe(QUERY);
      expect(body.numResults).toBe(5);
      expect(body.contents).toBeTypeOf('object');
    },
    minHits: 2,
  },
  perplexity: {
    keyHeader: 'authorization',
    keyValue: (k) => `Bearer ${k}`,
    method: 'POST',
    path: '/chat/completions',
    checkRequest: (r) => {
      const body = JSON.parse(r.body) as {
        model: string;
        messages: Array<{ role: string; content: string }>;
      };
      expect(body.model).toBe('sonar');
      expect(body.messages.at(-1)).toEqual({ role: 'user', content: QUERY });
    },
    minHits: 2,
  },
  brave: {
    keyHeader: 'x-subscription-token',
    keyValue: (k) => k,
    method: 'GET',
    path: '/res/v1/web/search',
    checkRequest: (r) => {
      expect(r.query.get('q')).toBe(QUERY);
      expect(r.query.get('count')).toBe('5');
      expect(r.headers.accept).toBe('application/json');
    },
    minHits: 2,
  },
  'semantic-scholar': {
    keyHeader: 'x-api-key',
    keyValue: (k) => k,
    method: 'GET',
    path: '/graph/v1/paper/search',
    checkRequest: (r) => {
      expect(r.query.get('query')).toBe(QUERY);
      expect(r.query.get('limit')).toBe('5');
      expect(r.query.get('fields')).toContain('abstract');
    },
    minHits: 2,
  },
  arxiv: {
    keyHeader: null,
    keyValue: (k) => k,
    method: 'GET',
    path: '/api/query',
    checkRequest: (r) => {
      expect(r.query.get('search_query')).toBe(
        'all:retrieval AND all:augmented AND all:generation',
      );
      expect(r.query.get('start')).toBe('0');
      expect(r.query.get('max_results')).toBe('5');
    },
    minHits: 2,
  },
  searxng: {
    keyHeader: null,
    keyValue: (k) => k,
    method: 'GET',
    path: '/search',
    checkRequest: (r) => {
      expect(r.query.get('q')).toBe(QUERY);
      expect(r.query.get('format')).toBe('json');
    },
    minHits: 2,
  },
};

const server = useMockServer();

/**
 * Node's fetch does not enforce CORS. This one does what a browser does with a cross-origin
 * answer that lacks Access-Control-Allow-Origin: the request went out, the answer is hidden, and
 * fetch rejects with a TypeError. no-cors requests get their (opaque) answer.
 */
const browserLikeFetch: FetchLike = async (input, init) => {
  const res = await fetch(input, init);
  if (init?.mode !== 'no-cors' && !res.headers.get('access-control-allow-origin')) {
    throw new TypeError('Failed to fetch');
  }
  return res;
};

async function serviceFor(
  id: ProviderId,
  opts: { timeoutMs?: number; maxRetries?: number; browser?: boolean } = {},
) {
  const clock = createScaledClock(0.001);
  const svc = createTestWebService({
    fetch: opts.browser ? browserLikeFetch : (input, init) => fetch(input, init),
    clock,
    isBrowser: opts.browser ?? false,
    timeoutMs: opts.timeoutMs ?? 3_000_000,
    maxRetries: opts.maxRetries ?? 3,
  });
  await svc.init();
  await svc.updateProvider(id, {
    enabled: true,
    baseUrl: `${server().url}/${id}`,
    ...(PROVIDERS[id].keyRequirement !== 'none' ? { apiKey: KEY } : {}),
    // The mock is on another host than the provider's API; the user trusts it with the key.
    sendKeyToCustomBaseUrl: true,
  });
  const search = () => svc.search({ query: QUERY, limit: 5, deadlineMs: 60_000_000 });
  return { svc, clock, search };
}

const providerRequests = (id: ProviderId) => server().requests.filter((r) => r.provider === id);

describe.each(PROVIDER_IDS.map((id) => [id] as const))('provider contract: %s', (id) => {
  const exp = EXPECT[id];
  const idempotent = PROVIDERS[id].searchRequest(QUERY, 5).idempotent;

  it('parses the documented response into normalised hits', async () => {
    const { search } = await serviceFor(id);
    const result = await search();
    expect(result.failures).toEqual([]);
    expect(result.succeeded).toEqual([id]);
    expect(result.hits.length).toBeGreaterThanOrEqual(exp.minHits);
    for (const h of result.hits) {
      expect(h.url).toMatch(/^https?:\/\//);
      expect(typeof h.title).toBe('string');
      expect(h.title.length).toBeGreaterThan(0);
      expect(typeof h.snippet).toBe('string');
      expect(h.snippet).not.toMatch(/<[a-z]/i);
      expect(h.publishedDate === null || typeof h.publishedDate === 'string').toBe(true);
      expect(h.providerScore === null || typeof h.providerScore === 'number').toBe(true);
      expect(h.provider).toBe(id);
      expect(h.raw).toBeDefined();
      expect([1, 2, 3, 4]).toContain(h.tier);
      expect(h.score).toBeCloseTo(h.relevance * h.tierWeight);
    }
  });

  it('sends the documented request, with the key only in its own header', async () => {
    const { search } = await serviceFor(id);
    await search();
    const [req] = providerRequests(id);
    expect(req).toBeDefined();
    if (!req) return;
    expect(req.method).toBe(exp.method);
    expect(req.path).toBe(exp.path);
    exp.checkRequest(req);
    if (exp.keyHeader) expect(req.headers[exp.keyHeader]).toBe(exp.keyValue(KEY));
    // The key appears in no other header, in the URL or in the body.
    const elsewhere = Object.entries(req.headers)
      .filter(([k]) => k !== exp.keyHeader)
      .map(([, v]) => String(v));
    expect(elsewhere.join('\n')).not.toContain(KEY);
    expect(req.query.toString()).not.toContain(KEY);
    expect(req.body).not.toContain(KEY);
  });

  it('records the request in the ledger without key or query string', async () => {
    const { svc, search } = await serviceFor(id);
    await search();
    const entries = await svc.getLedger();
    expect(entries).toHaveLength(1);
    const [e] = entries;
    expect(e?.host).toBe(new URL(server().url).host);
    expect(e?.path).toBe(`/${id}${exp.path}`);
    expect(e?.purpose).toBe(`search:${id}`);
    expect(e?.bytesReceived).toBeGreaterThan(100);
    expect(e?.bytesSent).toBeGreaterThan(0);
    expect(e?.status).toBe(200);
    const exported = await svc.exportLedger();
    expect(exported).not.toContain(KEY);
    expect(exported).not.toContain('retrieval');
  });

  it('an empty answer is zero hits, not a failure', async () => {
    server().queue(id, 'empty');
    const { search } = await serviceFor(id);
    const result = await search();
    expect(result.failures).toEqual([]);
    expect(result.hits).toEqual([]);
  });

  it('429 with Retry-After in seconds: waits that long, then retries if idempotent', async () => {
    server().queue(id, '429-seconds');
    const { search, clock } = await serviceFor(id);
    const result = await search();
    if (idempotent) {
      expect(result.failures).toEqual([]);
      expect(providerRequests(id)).toHaveLength(2);
      expect(clock.sleeps).toContain(7000);
    } else {
      expect(result.failures.map((f) => f.code)).toEqual(['RATE_LIMITED']);
      expect(providerRequests(id)).toHaveLength(1);
    }
  });

  it('429 with Retry-After as an HTTP-date is honoured', async () => {
    server().queue(id, '429-date');
    const { search, clock } = await serviceFor(id);
    const result = await search();
    if (idempotent) {
      expect(result.failures).toEqual([]);
      // The date is 12 s after the clock's start.
      expect(clock.sleeps.some((s) => s >= 11_000 && s <= 12_000)).toBe(true);
    } else {
      expect(result.failures[0]?.code).toBe('RATE_LIMITED');
    }
  });

  it('429 without Retry-After backs off exponentially with jitter', async () => {
    server().queue(id, '429-bare', '429-bare');
    const { search, clock } = await serviceFor(id);
    const result = await search();
    if (idempotent) {
      expect(result.failures).toEqual([]);
      expect(providerRequests(id)).toHaveLength(3);
      // random() = 0.5, jitter 0.5: 0.75 * 1000, then 0.75 * 2000.
      expect(clock.sleeps).toEqual(expect.arrayContaining([750, 1500]));
    } else {
      expect(providerRequests(id)).toHaveLength(1);
    }
  });

  it('500 on every attempt ends as a PROVIDER_ERROR failure, never an exception', async () => {
    server().queue(id, '500', '500', '500', '500', '500');
    const { search } = await serviceFor(id);
    const result = await search();
    expect(result.hits).toEqual([]);
    expect(result.failures.map((f) => f.code)).toEqual(['PROVIDER_ERROR']);
    expect(providerRequests(id)).toHaveLength(idempotent ? 4 : 1);
  });

  it('503 with Retry-After is retried after the given time', async () => {
    server().queue(id, '503-seconds');
    const { search, clock } = await serviceFor(id);
    const result = await search();
    if (idempotent) {
      expect(result.failures).toEqual([]);
      expect(clock.sleeps).toContain(2000);
    } else {
      expect(result.failures[0]?.code).toBe('PROVIDER_ERROR');
    }
  });

  it('malformed body is MALFORMED_RESPONSE and is not retried', async () => {
    server().queue(id, 'malformed');
    const { search } = await serviceFor(id);
    const result = await search();
    expect(result.failures.map((f) => f.code)).toEqual(['MALFORMED_RESPONSE']);
    expect(providerRequests(id)).toHaveLength(1);
  });

  // Keyless providers (arXiv, SearXNG) have no key to reject: the case does not exist for them,
  // so it is not registered (rather than reported as a skipped test).
  if (PROVIDERS[id].keyRequirement !== 'none') {
    it('401 is AUTH_FAILED and is not retried', async () => {
      server().queue(id, '401');
      const { search } = await serviceFor(id);
      const result = await search();
      expect(result.failures.map((f) => f.code)).toEqual(['AUTH_FAILED']);
      expect(providerRequests(id)).toHaveLength(1);
    });
  }

  it('an answer without CORS headers is CORS_BLOCKED in a browser, explained and not retried', async () => {
    server().queue(id, 'no-cors');
    const { svc, search } = await serviceFor(id, { browser: true });
    const result = await search();
    expect(result.failures.map((f) => f.code)).toEqual(['CORS_BLOCKED']);
    expect(result.failures[0]?.message).toMatch(/proxy or base URL/);
    expect(providerRequests(id)).toHaveLength(1);
    expect((await svc.getLedger()).map((e) => e.purpose)).toContain('cors-probe');
  });

  it('a server that never answers times out (TIMEOUT)', async () => {
    server().queue(id, 'hang', 'hang');
    const { search } = await serviceFor(id, { timeoutMs: 100_000, maxRetries: 1 });
    const result = await search();
    expect(result.failures.map((f) => f.code)).toEqual(['TIMEOUT']);
    expect(providerRequests(id)).toHaveLength(idempotent ? 2 : 1);
  });

  it('a body that stops half-way times out (TIMEOUT)', async () => {
    server().queue(id, 'slow-body', 'slow-body');
    const { search } = await serviceFor(id, { timeoutMs: 100_000, maxRetries: 1 });
    const result = await search();
    expect(result.failures.map((f) => f.code)).toEqual(['TIMEOUT']);
  });
});

describe('import path over HTTP', () => {
  it('uses the provider extract endpoint when it has one', async () => {
    const { svc } = await serviceFor('tavily');
    const got = await svc.fetchPage('https://www.example-blog.com/what-is-rag/', 'tavily');
    expect(got.ok).toBe(true);
    if (!got.ok) return;
    expect(got.page.kind).toBe('text');
    expect(got.page.via).toBe('extract:tavily');
    expect(got.page.kind === 'text' && got.page.text).toContain('retriever with a generator');
    expect(got.page.qualityGrade).toBe('C');
    const [req] = providerRequests('tavily');
    expect(req?.path).toBe('/extract');
    expect(JSON.parse(req?.body ?? '{}')).toMatchObject({
      urls: ['https://www.example-blog.com/what-is-rag/'],
    });
  });

  it('fetches the page directly (no key) when the provider cannot extract, returning HTML to clean', async () => {
    const { svc } = await serviceFor('brave');
    const got = await svc.fetchPage(`${server().url}/pages/article.html`, 'brave');
    expect(got.ok).toBe(true);
    if (!got.ok) return;
    expect(got.page.kind).toBe('html');
    expect(got.page.kind === 'html' && got.page.html).toContain('<article>');
    const [req] = server().requests.filter((r) => r.provider === 'pages');
    expect(Object.values(req?.headers ?? {}).join('\n')).not.toContain(KEY);
    const ledger = await svc.getLedger();
    expect(ledger.map((e) => e.purpose)).toContain('page-fetch');
  });
});
