// Network ledger completeness (issue 17 item 9): requests counted at the fetch layer against
// ledger rows, over real HTTP to mocks on 127.0.0.1 only — every web provider (success, a 429
// retried, a 500), a page fetched for import, the OpenAI-compatible LLM endpoint (success, a 429
// retried, a 404, a refused connection) and a model download from a hub. Plus the ledgered
// fetch's own rules: the app's own files are not recorded, records wait for the sink.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpGenerator } from '../llm/http';
import { createMemoryStorage, createModelStore } from '../embed/model-store';
import { bertFolder } from '../embed/bert-weights.testkit';
import { createScaledClock } from '../web/fake-clock.testkit';
import { startMockServer, type MockServer } from '../web/mock-server.testkit';
import { PROVIDERS } from '../web/providers';
import { createTestWebService } from '../web/web-service.testkit';
import { createError } from './errors';
import { createLedgeredFetch, ledgerCacheAdds } from './ledgered-fetch';
import { PROVIDER_IDS, type ExternalLedgerRecord } from './web-api';

const APP = 'http://app.sift.test';

/** Counts every request at the fetch layer, then makes it for real. */
function counting(): { fetch: typeof fetch; urls: string[] } {
  const urls: string[] = [];
  const f = (input: RequestInfo | URL, init?: RequestInit) => {
    urls.push(input instanceof URL ? input.href : typeof input === 'string' ? input : input.url);
    return fetch(input, init);
  };
  return { fetch: f, urls };
}

function ledgered(inner: typeof fetch, purpose = 'test') {
  const rows: ExternalLedgerRecord[] = [];
  const l = createLedgeredFetch(inner, { origin: APP, purpose: () => purpose });
  l.setSink((r) => rows.push(r));
  return { fetch: l.fetch, rows };
}

let mock: MockServer;
let llm: Server;
let llmBase = '';
let llmCalls = 0;
const files = bertFolder(3);

beforeAll(async () => {
  mock = await startMockServer();
  // One server for the LLM endpoint (429 on the first call, then SSE) and the model hub.
  llm = createServer((req, res) => {
    const url = req.url ?? '';
    req.resume();
    req.on('end', () => {
      if (url.includes('/resolve/main/')) {
        const name = url.split('/resolve/main/')[1] as keyof typeof files;
        const bytes = files[name];
        if (!bytes) return res.writeHead(404).end();
        res.writeHead(200, { 'content-length': String(bytes.length) });
        return res.end(Buffer.from(bytes));
      }
      if (url.startsWith('/missing/')) return res.writeHead(404).end();
      if (llmCalls++ === 0) return res.writeHead(429, { 'retry-after': '0' }).end();
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(
        `data: ${JSON.stringify({ choices: [{ delta: { content: 'hi' }, finish_reason: null }] })}\n\ndata: [DONE]\n\n`,
      );
    });
  });
  await new Promise<void>((r) => llm.listen(0, '127.0.0.1', r));
  llmBase = `http://127.0.0.1:${(llm.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await mock.close();
  await new Promise<void>((r) => llm.close(() => r()));
});

describe('network ledger completeness', () => {
  it('web providers: one ledger row per request, retries and failures included', async () => {
    const counted = counting();
    const clock = createScaledClock(0.001);
    const svc = createTestWebService({
      fetch: counted.fetch,
      clock,
      timeoutMs: 3_000_000,
      maxRetries: 2,
    });
    await svc.init();
    for (const id of PROVIDER_IDS) {
      await svc.updateProvider(id, {
        enabled: true,
        baseUrl: `${mock.url}/${id}`,
        ...(PROVIDERS[id].keyRequirement !== 'none' ? { apiKey: 'sk-ledger-test-123456' } : {}),
        sendKeyToCustomBaseUrl: true,
      });
      mock.queue(id, '429-seconds', 'ok', '500', '500', '500');
    }
    for (let i = 0; i < 2; i++) {
      await svc.search({ query: 'ledger completeness', limit: 3, deadlineMs: 60_000_000 });
    }
    await svc.fetchPage(`${mock.url}/page/article.html`, null);
    expect(counted.urls.length).toBeGreaterThan(PROVIDER_IDS.length * 2);
    expect(mock.requests.length).toBe(counted.urls.length);
    expect(svc.ledger.list()).toHaveLength(counted.urls.length);
  });

  it('the OpenAI-compatible endpoint: every request, the retried 429 and the errors, in the ledger', async () => {
    const counted = counting();
    const l = ledgered(counted.fetch, 'llm endpoint');
    const sleep = async () => undefined;
    const g = createHttpGenerator(
      { baseUrl: `${llmBase}/v1`, model: 'm', apiKey: 'sk-llm-key-9999' },
      {
        fetch: l.fetch,
        sleep,
      },
    );
    expect((await g.generate({ prompt: 'p' })).text).toBe('hi');
    await expect(
      createHttpGenerator(
        { baseUrl: `${llmBase}/missing/v1`, model: 'm' },
        { fetch: l.fetch, sleep },
      ).generate({ prompt: 'p' }),
    ).rejects.toMatchObject({ code: 'PROVIDER_ERROR' });
    await expect(
      createHttpGenerator(
        { baseUrl: 'http://127.0.0.1:9/v1', model: 'm' },
        { fetch: l.fetch, sleep },
      ).generate({ prompt: 'p' }),
    ).rejects.toBeDefined();
    expect(counted.urls).toHaveLength(4); // 429, retry, 404, refused
    expect(l.rows.map((r) => [r.method, r.outcome])).toEqual([
      ['POST', 'HTTP 429'],
      ['POST', 'ok'],
      ['POST', 'HTTP 404'],
      ['POST', 'NETWORK_ERROR'],
    ]);
    expect(JSON.stringify(l.rows)).not.toContain('sk-llm-key-9999');
  });

  it('a model download: one row per file request', async () => {
    const counted = counting();
    const l = ledgered(counted.fetch, 'model download');
    const s = createModelStore({
      storage: createMemoryStorage(),
      fetch: l.fetch,
      estimate: async () => ({ quota: 10e9, usage: 0 }),
      now: () => 1000,
    });
    await s.download('all-MiniLM-L6-v2', { baseUrl: llmBase });
    expect(counted.urls.length).toBeGreaterThanOrEqual(3);
    expect(l.rows).toHaveLength(counted.urls.length);
    expect(l.rows.every((r) => r.status === 200 && r.outcome === 'ok')).toBe(true);
  });
});

describe('createLedgeredFetch', () => {
  it('skips the app’s own files, keeps records until the sink connects, counts bytes sent', async () => {
    const inner = (async () => new Response('x', { status: 200 })) as typeof fetch;
    const l = createLedgeredFetch(inner, {
      origin: APP,
      purpose: (u) => `p ${u.host}`,
      now: () => 5,
    });
    await l.fetch('/models/use-lite/model.bin');
    await l.fetch(`${APP}/assets/app.js`);
    await l.fetch('https://hub.example/a', { method: 'post', body: 'héllo' });
    const rows: ExternalLedgerRecord[] = [];
    l.setSink((r) => rows.push(r));
    await l.fetch(new URL('https://cdn.example/b'));
    expect(rows).toEqual([
      {
        url: 'https://hub.example/a',
        method: 'POST',
        purpose: 'p hub.example',
        bytesSent: 6,
        time: 5,
        status: 200,
        outcome: 'ok',
        durationMs: 0,
      },
      expect.objectContaining({ url: 'https://cdn.example/b', method: 'GET', outcome: 'ok' }),
    ]);
  });

  it('does not record a request the network gate refused (it never left)', async () => {
    const refused = (async () => {
      throw createError('ORIGIN_NOT_ALLOWED', { origin: 'https://evil.example' });
    }) as typeof fetch;
    const l = createLedgeredFetch(refused, { origin: APP, purpose: () => 'x' });
    const rows: ExternalLedgerRecord[] = [];
    l.setSink((r) => rows.push(r));
    await expect(l.fetch('https://evil.example/x')).rejects.toMatchObject({
      code: 'ORIGIN_NOT_ALLOWED',
    });
    expect(rows).toEqual([]);
  });

  it('records Cache.add and every URL of Cache.addAll (WebLLM stores shards with them)', async () => {
    const sent: string[] = [];
    class FakeCache {
      async add(r: string) {
        sent.push(r);
      }
      async addAll(rs: string[]) {
        sent.push(...rs);
        if (rs.some((r) => r.includes('bad'))) throw new TypeError('Failed to fetch');
      }
    }
    const scope = { Cache: FakeCache as unknown as { prototype: Cache } };
    const l = createLedgeredFetch(fetch, { origin: APP, purpose: () => 'shard' });
    const rows: ExternalLedgerRecord[] = [];
    l.setSink((r) => rows.push(r));
    ledgerCacheAdds(scope, l);
    const cache = new FakeCache() as unknown as Cache;
    await cache.add('https://hf.example/a.bin');
    await cache.addAll(['https://hf.example/b.bin', 'https://hf.example/c.bin']);
    await expect(cache.addAll(['https://hf.example/bad.bin'])).rejects.toThrow('Failed to fetch');
    expect(rows.map((r) => [r.url, r.outcome])).toEqual([
      ['https://hf.example/a.bin', 'ok'],
      ['https://hf.example/b.bin', 'ok'],
      ['https://hf.example/c.bin', 'ok'],
      ['https://hf.example/bad.bin', 'NETWORK_ERROR'],
    ]);
    expect(rows).toHaveLength(sent.length);
  });
});
