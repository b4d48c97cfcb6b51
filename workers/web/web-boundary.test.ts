// Boundary test: the web service behind Comlink over a MessageChannel, as the worker exposes it.
// Errors arrive as AppError with their code; the streaming callback and the storage travel as proxies.
import * as Comlink from 'comlink';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { installErrorTransfer } from '../shared/comlink-errors';
import { AppError } from '../shared/errors';
import type { KeyValueStorage, RankedWebHit, WebApi } from '../shared/web-api';
import { realClock } from './clock';
import { createMemoryStorage, SETTINGS_KEY } from './settings';
import { createTestWebService } from './web-service.testkit';

const ports: MessagePort[] = [];
afterEach(() => ports.splice(0).forEach((p) => p.close()));

function expose(): Comlink.Remote<WebApi> {
  installErrorTransfer();
  const svc = createTestWebService({
    fetch: async () =>
      new Response(
        JSON.stringify({
          results: [{ url: 'https://arxiv.org/abs/1', title: 'T', content: 'c', score: 0.5 }],
        }),
        {
          status: 200,
        },
      ),
    clock: realClock,
  });
  const { ledger: _l, redactor: _r, ...api } = svc;
  const { port1, port2 } = new MessageChannel();
  ports.push(port1, port2);
  Comlink.expose(api, port1);
  return Comlink.wrap<WebApi>(port2);
}

describe('WebApi across a MessageChannel', () => {
  it('an invalid query arrives as AppError INVALID_QUERY', async () => {
    const remote = expose();
    await remote.init();
    const err = await remote.search({ query: ' ' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('INVALID_QUERY');
  });

  it('stores settings through a proxied storage and streams hits through a proxied callback', async () => {
    const remote = expose();
    const backing = createMemoryStorage();
    const storage: KeyValueStorage = {
      get: (k) => backing.get(k),
      set: (k, v) => backing.set(k, v),
      delete: (k) => backing.delete(k),
    };
    await remote.init(Comlink.proxy(storage));
    await remote.updateProvider('tavily', { enabled: true, apiKey: 'tvly-boundary-KEY-123456' });
    expect(await backing.get(SETTINGS_KEY)).toContain('"enabled":true');
    const streamed: RankedWebHit[][] = [];
    const result = await remote.search(
      { query: 'rag' },
      Comlink.proxy((hits: RankedWebHit[]) => {
        streamed.push(hits);
      }),
    );
    expect(result.hits[0]).toMatchObject({
      url: 'https://arxiv.org/abs/1',
      tier: 1,
      qualityGrade: 'A',
    });
    // The callback travels on its own channel: it may land just after the result.
    await vi.waitFor(() => expect(streamed).toHaveLength(1));
    const providers = await remote.listProviders();
    expect(JSON.stringify(providers)).not.toContain('tvly-boundary-KEY');
  });
});
