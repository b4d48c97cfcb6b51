// Service behaviour on a fake clock with an injected fetch: offline, CORS, breaker (no request
// while open), rate-limit compliance over a burst, deadline and streaming, dedupe, credibility,
// settings persistence and key handling.
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { KeyValueStorage, ProviderId } from '../shared/web-api';
import { PROVIDER_IDS } from '../shared/web-api';
import { createFakeClock, type FakeClock } from './fake-clock.testkit';
import type { FetchLike } from './http';
import { PROVIDERS } from './providers';
import { createMemoryStorage } from './settings';
import { createTestWebService } from './web-service.testkit';

const KEY = 'tvly-dev-SECRETKEY-0123456789';
const fixture = (name: string) =>
  readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

const FIXTURE: Record<ProviderId, string> = {
  tavily: 'tavily-search.json',
  exa: 'exa-search.json',
  perplexity: 'perplexity-chat.json',
  brave: 'brave-web.json',
  'semantic-scholar': 'semantic-scholar-search.json',
  arxiv: 'arxiv-query.xml',
  searxng: 'searxng-search.json',
};

interface Call {
  url: string;
  init: RequestInit | undefined;
  at: number;
}

/** A fetch that answers each provider's host with its fixture, unless `route` says otherwise. */
function fakeFetch(
  clock: FakeClock,
  route?: (url: URL, init?: RequestInit) => Promise<Response> | null,
) {
  const calls: Call[] = [];
  const fn: FetchLike = async (input, init) => {
    calls.push({ url: input, init, at: clock.now() });
    const url = new URL(input);
    const custom = route?.(url, init);
    if (custom) return custom;
    const id = PROVIDER_IDS.find((p) => {
      const base = PROVIDERS[p].defaultBaseUrl;
      return base ? new URL(base).host === url.host : url.host === 'searx.example';
    });
    if (!id) return new Response('not found', { status: 404 });
    return new Response(fixture(FIXTURE[id]), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  };
  return { fetch: fn, calls };
}

/** A promise that settles only when the request's signal aborts (a server that never answers). */
function hang(init?: RequestInit): Promise<Response> {
  return new Promise((_resolve, reject) => {
    init?.signal?.addEventListener('abort', () =>
      reject(new DOMException('aborted', 'AbortError')),
    );
  });
}

async function makeService(opts: {
  clock?: FakeClock;
  route?: (url: URL, init?: RequestInit) => Promise<Response> | null;
  online?: () => boolean;
  isBrowser?: boolean;
  storage?: KeyValueStorage;
  maxRetries?: number;
  enable?: ProviderId[];
}) {
  const clock = opts.clock ?? createFakeClock();
  const ff = fakeFetch(clock, opts.route);
  const svc = createTestWebService({
    fetch: ff.fetch,
    clock,
    isOnline: opts.online ?? (() => true),
    isBrowser: opts.isBrowser ?? false,
    ...(opts.storage ? { storage: opts.storage } : {}),
    ...(opts.maxRetries !== undefined ? { maxRetries: opts.maxRetries } : {}),
  });
  await svc.init();
  for (const id of opts.enable ?? []) {
    await svc.updateProvider(id, {
      enabled: true,
      ...(PROVIDERS[id].keyRequirement !== 'none' ? { apiKey: `${KEY}-${id}` } : {}),
      ...(id === 'searxng' ? { baseUrl: 'https://searx.example' } : {}),
    });
  }
  return { svc, clock, calls: ff.calls };
}

afterEach(() => vi.restoreAllMocks());

describe('defaults and settings', () => {
  it('everything is off by default and nothing is sent', async () => {
    const { svc, calls } = await makeService({});
    const providers = await svc.listProviders();
    expect(providers.every((p) => !p.enabled && !p.hasKey)).toBe(true);
    const result = await svc.search({ query: 'anything' });
    expect(result).toMatchObject({ hits: [], failures: [], succeeded: [] });
    expect(calls).toHaveLength(0);
    expect(await svc.getLedger()).toEqual([]);
  });

  it('settings persist through the injected storage and the key is never read back', async () => {
    const storage = createMemoryStorage();
    const a = await makeService({ storage, enable: ['tavily'] });
    await a.svc.updateProvider('brave', { baseUrl: 'https://proxy.example/brave/' });
    await a.svc.setCredibilityOverride('example-blog.com', 4);
    const b = await makeService({ storage });
    const tavily = (await b.svc.listProviders()).find((p) => p.id === 'tavily');
    expect(tavily).toMatchObject({ enabled: true, hasKey: true });
    expect(JSON.stringify(await b.svc.listProviders())).not.toContain(KEY);
    const brave = (await b.svc.listProviders()).find((p) => p.id === 'brave');
    expect(brave?.effectiveBaseUrl).toBe('https://proxy.example/brave');
    expect((await b.svc.getCredibility()).overrides).toEqual([
      { domain: 'example-blog.com', tier: 4 },
    ]);
    await expect(b.svc.updateProvider('brave', { baseUrl: 'ftp://x' })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
  });
});

describe('offline', () => {
  it('fails fast with OFFLINE for each enabled provider, sends and queues nothing', async () => {
    const { svc, calls, clock } = await makeService({
      online: () => false,
      enable: ['tavily', 'arxiv'],
    });
    const result = await svc.search({ query: 'rag' });
    expect(result.failures.map((f) => [f.provider, f.code])).toEqual([
      ['tavily', 'OFFLINE'],
      ['arxiv', 'OFFLINE'],
    ]);
    expect(calls).toHaveLength(0);
    expect(clock.pendingTimers()).toBe(0);
    expect(await svc.getLedger()).toEqual([]);
  });
});

describe('CORS detection (browser)', () => {
  const corsRoute = (probeOk: boolean) => (url: URL, init?: RequestInit) => {
    // A no-cors answer is opaque: status 0, as browsers give it.
    if (init?.mode === 'no-cors')
      return probeOk
        ? Promise.resolve({ status: 0 } as Response)
        : Promise.reject(new TypeError('Failed to fetch'));
    if (url.host === 'api.search.brave.com')
      return Promise.reject(new TypeError('Failed to fetch'));
    return null;
  };

  it('a TypeError on a reachable host is CORS_BLOCKED, explained in plain words', async () => {
    const { svc, clock } = await makeService({
      isBrowser: true,
      route: corsRoute(true),
      enable: ['brave'],
    });
    const result = await clock.run(svc.search({ query: 'rag' }));
    expect(result.failures).toHaveLength(1);
    const f = result.failures[0];
    expect(f?.code).toBe('CORS_BLOCKED');
    expect(f?.message).toContain('api.search.brave.com');
    expect(f?.message).toMatch(/proxy or base URL/);
    const ledger = await svc.getLedger();
    expect(ledger.map((e) => e.purpose).sort()).toEqual(['cors-probe', 'search:brave']);
    expect(ledger.find((e) => e.purpose === 'cors-probe')).toMatchObject({
      path: '/',
      status: null,
      outcome: 'ok',
    });
    expect(ledger.find((e) => e.purpose === 'search:brave')?.outcome).toBe('CORS_BLOCKED');
  });

  it('an unreachable host is NETWORK_ERROR, retried with backoff', async () => {
    const { svc, clock, calls } = await makeService({
      isBrowser: true,
      route: corsRoute(false),
      enable: ['brave'],
      maxRetries: 1,
    });
    const result = await clock.run(svc.search({ query: 'rag' }));
    expect(result.failures.map((f) => f.code)).toEqual(['NETWORK_ERROR']);
    expect(calls.filter((c) => c.init?.mode !== 'no-cors')).toHaveLength(2);
    const probes = (await svc.getLedger()).filter((e) => e.purpose === 'cors-probe');
    expect(probes.map((e) => [e.status, e.outcome])).toEqual([
      [null, 'NETWORK_ERROR'],
      [null, 'NETWORK_ERROR'],
    ]);
  });
});

describe('circuit breaker in the service', () => {
  const fail500 = (url: URL) =>
    url.host === 'api.tavily.com' ? Promise.resolve(new Response('boom', { status: 500 })) : null;

  it('opens after 5 failed searches; while open no request is made; half-open trial closes it', async () => {
    let broken = true;
    const { svc, clock, calls } = await makeService({
      route: (url) => (broken ? fail500(url) : null),
      enable: ['tavily'],
      maxRetries: 0,
    });
    for (let i = 0; i < 5; i++) {
      const r = await clock.run(svc.search({ query: `q${i}` }));
      expect(r.failures[0]?.code).toBe('PROVIDER_ERROR');
    }
    const status = (await svc.listProviders()).find((p) => p.id === 'tavily');
    expect(status?.breaker).toMatchObject({
      state: 'open',
      consecutiveFailures: 5,
      lastError: { code: 'PROVIDER_ERROR' },
    });
    const sent = calls.length;
    for (let i = 0; i < 3; i++) {
      const r = await clock.run(svc.search({ query: 'while open' }));
      expect(r.failures[0]?.code).toBe('CIRCUIT_OPEN');
    }
    await clock.advance(29_000);
    expect((await clock.run(svc.search({ query: 'still open' }))).failures[0]?.code).toBe(
      'CIRCUIT_OPEN',
    );
    expect(calls.length).toBe(sent); // not one request while open
    await clock.advance(1_000);
    broken = false;
    const trial = await clock.run(svc.search({ query: 'trial' }));
    expect(trial.failures).toEqual([]);
    expect(calls.length).toBe(sent + 1);
    expect((await svc.listProviders()).find((p) => p.id === 'tavily')?.breaker.state).toBe(
      'closed',
    );
  });

  it('resetBreaker closes it by hand', async () => {
    const { svc, clock } = await makeService({ route: fail500, enable: ['tavily'], maxRetries: 0 });
    for (let i = 0; i < 5; i++) await clock.run(svc.search({ query: 'x' }));
    await svc.resetBreaker('tavily');
    expect((await svc.listProviders()).find((p) => p.id === 'tavily')?.breaker.state).toBe(
      'closed',
    );
  });
});

describe('rate-limit compliance over a burst (100% of requests spaced per the documented limit)', () => {
  it.each(PROVIDER_IDS.map((id) => [id] as const))('%s', async (id) => {
    const { svc, clock, calls } = await makeService({ enable: [id] });
    const burst = Array.from({ length: 12 }, (_, i) =>
      svc.search({ query: `burst ${i}`, deadlineMs: 3_600_000 }),
    );
    const results = await clock.run(Promise.all(burst));
    expect(results.every((r) => r.failures.length === 0)).toBe(true);
    expect(calls).toHaveLength(12);
    const min = PROVIDERS[id].minIntervalMs;
    const gaps = calls.slice(1).map((c, i) => c.at - (calls[i]?.at ?? 0));
    const compliant = gaps.filter((g) => g >= min).length;
    expect(compliant / gaps.length).toBe(1);
  });

  it('a Retry-After beyond max_delay (60 s) is not waited for: RATE_LIMITED at once', async () => {
    const { svc, clock, calls } = await makeService({
      route: (url) =>
        url.host === 'api.exa.ai'
          ? Promise.resolve(new Response('{}', { status: 429, headers: { 'retry-after': '120' } }))
          : null,
      enable: ['exa'],
    });
    const r = await clock.run(svc.search({ query: 'a' }));
    expect(r.failures.map((f) => f.code)).toEqual(['RATE_LIMITED']);
    expect(r.failures[0]?.message).toContain('120 s');
    expect(calls).toHaveLength(1);
  });

  it('a page larger than the limit is refused, not buffered', async () => {
    const { svc, clock } = await makeService({
      route: () =>
        Promise.resolve(
          new Response('x', {
            status: 200,
            headers: { 'content-length': String(50 * 1024 * 1024), 'content-type': 'text/html' },
          }),
        ),
    });
    const got = await clock.run(svc.fetchPage('https://example.org/huge', null));
    expect(got).toMatchObject({ ok: false, code: 'FILE_TOO_LARGE' });
  });

  it('a 429 Retry-After pushes back the next requests too', async () => {
    let first = true;
    const { svc, clock, calls } = await makeService({
      route: (url) => {
        if (url.host !== 'api.exa.ai' || !first) return null;
        first = false;
        return Promise.resolve(
          new Response('{}', { status: 429, headers: { 'retry-after': '5' } }),
        );
      },
      enable: ['exa'],
    });
    const results = await clock.run(
      Promise.all(['a', 'b', 'c', 'd'].map((q) => svc.search({ query: q, deadlineMs: 60_000 }))),
    );
    expect(results.every((r) => r.failures.length === 0)).toBe(true);
    expect(calls).toHaveLength(5);
    const t0 = calls[0]?.at ?? 0;
    expect(calls.slice(1).every((c) => c.at - t0 >= 5000)).toBe(true);
    // Still spaced per the limit after the pause.
    const gaps = calls.slice(2).map((c, i) => c.at - (calls[i + 1]?.at ?? 0));
    expect(gaps.every((g) => g >= PROVIDERS.exa.minIntervalMs)).toBe(true);
  });
});

describe('parallel search: deadline, streaming, dedupe, credibility', () => {
  it('merges the same page across providers by normalised URL and streams as providers answer', async () => {
    const { svc, clock } = await makeService({ enable: ['tavily', 'exa', 'brave'] });
    const streamed: Array<[string, number]> = [];
    const result = await clock.run(
      svc.search({ query: 'rag' }, (hits, provider) => streamed.push([provider, hits.length])),
    );
    expect(result.failures).toEqual([]);
    expect(streamed.map(([p]) => p).sort()).toEqual(['brave', 'exa', 'tavily']);
    expect(streamed.map(([, n]) => n)).toEqual(
      [...streamed.map(([, n]) => n)].sort((a, b) => a - b),
    );
    const rag = result.hits.filter((h) => h.key === 'example-blog.com/what-is-rag');
    expect(rag).toHaveLength(1);
    expect([rag[0]?.provider, ...(rag[0]?.alsoFrom ?? [])].sort()).toEqual([
      'brave',
      'exa',
      'tavily',
    ]);
    // Ordered by score = relevance x tier weight.
    const scores = result.hits.map((h) => h.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    const arxivHit = result.hits.find((h) => h.url.includes('arxiv.org'));
    expect(arxivHit).toMatchObject({ tier: 1, tierWeight: 1, qualityGrade: 'A' });
    const github = result.hits.find((h) => h.url.includes('github.com'));
    expect(github).toMatchObject({ tier: 1, qualityGrade: 'A' });
    const blog = rag[0];
    expect(blog).toMatchObject({ tier: 3, tierWeight: 0.6, qualityGrade: 'C' });
  });

  it('a blocked domain (tier 5) is dropped; a distrusted one (tier 4) is down-weighted to grade D', async () => {
    const { svc, clock } = await makeService({ enable: ['tavily'] });
    await svc.setCredibilityOverride('arxiv.org', 5);
    await svc.setCredibilityOverride('example-blog.com', 4);
    const result = await clock.run(svc.search({ query: 'rag' }));
    expect(result.hits.some((h) => h.url.includes('arxiv.org'))).toBe(false);
    expect(result.hits[0]).toMatchObject({ tier: 4, tierWeight: 0.3, qualityGrade: 'D' });
  });

  it('the overall deadline returns what arrived and reports the slow provider as TIMEOUT', async () => {
    const { svc, clock } = await makeService({
      route: (url, init) => (url.host === 'api.exa.ai' ? hang(init) : null),
      enable: ['tavily', 'exa'],
    });
    const streamed: string[] = [];
    const result = await clock.run(
      svc.search({ query: 'rag', deadlineMs: 5_000 }, (_h, p) => streamed.push(p)),
    );
    expect(result.succeeded).toEqual(['tavily']);
    expect(result.failures.map((f) => [f.provider, f.code])).toEqual([['exa', 'TIMEOUT']]);
    expect(result.hits.length).toBeGreaterThan(0);
    expect(result.tookMs).toBe(5_000);
    expect(streamed).toEqual(['tavily']);
  });

  it('an empty query is INVALID_QUERY', async () => {
    const { svc } = await makeService({ enable: ['tavily'] });
    await expect(svc.search({ query: '   ' })).rejects.toMatchObject({ code: 'INVALID_QUERY' });
  });

  it('SearXNG without a base URL is PROVIDER_NOT_CONFIGURED, not an exception', async () => {
    const { svc, clock } = await makeService({});
    await svc.updateProvider('searxng', { enabled: true });
    const result = await clock.run(svc.search({ query: 'rag' }));
    expect(result.failures.map((f) => f.code)).toEqual(['PROVIDER_NOT_CONFIGURED']);
  });
});

describe('API keys', () => {
  it('are never sent to another host: required key refused, optional key left off, trusted proxy allowed', async () => {
    const { svc, clock, calls } = await makeService({
      route: () => Promise.resolve(new Response(fixture('tavily-search.json'), { status: 200 })),
      enable: ['tavily', 'semantic-scholar'],
    });
    await svc.updateProvider('tavily', { baseUrl: 'https://evil.example' });
    await svc.updateProvider('semantic-scholar', { baseUrl: 'https://proxy.example/s2' });
    const result = await clock.run(svc.search({ query: 'rag' }));
    const tav = result.failures.find((f) => f.provider === 'tavily');
    expect(tav?.code).toBe('KEY_HOST_REFUSED');
    expect(calls.some((c) => c.url.startsWith('https://evil.example'))).toBe(false);
    const s2 = calls.find((c) => c.url.startsWith('https://proxy.example/s2/'));
    expect(s2).toBeDefined();
    const s2Headers = (s2?.init?.headers ?? {}) as Record<string, string>;
    expect(Object.keys(s2Headers).map((k) => k.toLowerCase())).not.toContain('x-api-key');
    expect(JSON.stringify(s2?.init)).not.toContain(KEY);

    await svc.updateProvider('tavily', { sendKeyToCustomBaseUrl: true });
    calls.length = 0;
    await clock.run(svc.search({ query: 'rag', providers: ['tavily'] }));
    const sent = calls[0];
    expect(sent?.url).toBe('https://evil.example/search');
    expect((sent?.init?.headers as Record<string, string>).Authorization).toBe(
      `Bearer ${KEY}-tavily`,
    );
    // A keyed request never follows a redirect (which could carry the key elsewhere).
    expect(sent?.init?.redirect).toBe('error');
  });

  it('appear in no log, error, failure, ledger or export', async () => {
    const spies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((m) =>
      vi.spyOn(console, m),
    );
    // Providers that echo the key back in error bodies and a header dump.
    const { svc, clock } = await makeService({
      route: (url) =>
        url.host === 'api.tavily.com'
          ? Promise.resolve(
              new Response(
                `{"detail":"invalid key ${KEY}-tavily; Authorization: Bearer ${KEY}-tavily"}`,
                { status: 401 },
              ),
            )
          : url.host === 'api.exa.ai'
            ? Promise.resolve(new Response(`upstream said x-api-key=${KEY}-exa`, { status: 500 }))
            : null,
      enable: ['tavily', 'exa', 'brave'],
      maxRetries: 0,
    });
    const result = await clock.run(svc.search({ query: 'rag' }));
    expect(result.failures.map((f) => f.code).sort()).toEqual(['AUTH_FAILED', 'PROVIDER_ERROR']);
    let thrown: unknown = null;
    await svc.updateProvider('tavily', { baseUrl: 'https://elsewhere.example' });
    const refused = await clock.run(svc.search({ query: 'rag', providers: ['tavily'] }));
    const page = await clock.run(svc.fetchPage(`https://example.org/?api_key=${KEY}`, 'tavily'));
    try {
      await svc.updateProvider('tavily', { baseUrl: `https://user:${KEY}@x.example` });
    } catch (err) {
      thrown = err;
    }
    const everything = [
      JSON.stringify(result),
      JSON.stringify(refused),
      JSON.stringify(page),
      String((thrown as Error | null)?.message),
      JSON.stringify(thrown),
      await svc.exportLedger(),
      JSON.stringify(await svc.getLedger()),
      await svc.exportSettings(),
      JSON.stringify(await svc.listProviders()),
      ...spies.flatMap((s) => s.mock.calls.map((c) => JSON.stringify(c))),
    ].join('\n');
    expect(everything).not.toContain(KEY);
    expect(everything).not.toContain('SECRETKEY');
    expect(await svc.exportSettings()).toContain('[REDACTED]');
  });
});

describe('ledger', () => {
  it('survives a reload through the injected storage, and clearing is persisted', async () => {
    const storage = createMemoryStorage();
    const a = await makeService({ storage, enable: ['tavily'] });
    await a.clock.run(a.svc.search({ query: 'rag' }));
    await a.svc.recordExternal({
      url: 'https://models.example/m.onnx',
      purpose: 'model-download',
      bytesReceived: 10,
    });
    await new Promise((r) => setTimeout(r, 5));
    const b = await makeService({ storage });
    expect((await b.svc.getLedger()).map((e) => e.purpose)).toEqual([
      'search:tavily',
      'model-download',
    ]);
    await b.svc.recordExternal({
      url: 'https://models.example/m2.onnx',
      purpose: 'model-download',
    });
    expect((await b.svc.getLedger()).map((e) => e.id)).toEqual([1, 2, 3]);
    await b.svc.clearLedger();
    await new Promise((r) => setTimeout(r, 5));
    const c = await makeService({ storage });
    expect(await c.svc.getLedger()).toEqual([]);
  });

  it('records external requests (model downloads) without their query strings', async () => {
    const { svc } = await makeService({});
    await svc.recordExternal({
      url: 'https://models.example/org/model/resolve/main/model.onnx?token=abc&x=1',
      purpose: 'model-download',
      bytesReceived: 1234,
      status: 200,
    });
    const [e] = await svc.getLedger();
    expect(e).toMatchObject({
      host: 'models.example',
      path: '/org/model/resolve/main/model.onnx',
      purpose: 'model-download',
      bytesReceived: 1234,
    });
    expect(await svc.exportLedger()).not.toContain('abc');
    await svc.clearLedger();
    expect(await svc.getLedger()).toEqual([]);
  });
});
