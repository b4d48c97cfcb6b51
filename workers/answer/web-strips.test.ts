// The corrective web step on the real web service (recorded provider responses, fake clock):
// hits become labelled web strips with their tier; offline or failing providers become an error
// the answer service records while the library answer stands.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createFakeClock } from '../web/fake-clock.testkit';
import type { Clock } from '../web/clock';
import type { WebServiceDeps } from '../web/web-service';
import { createTestWebService } from '../web/web-service.testkit';
import { webAction } from './corrective';
import { createWebStrips, webEnabled } from './web-strips';

const tavilyFixture = readFileSync(
  new URL('../web/fixtures/tavily-search.json', import.meta.url),
  'utf8',
);

const KEYS = { tavily: 'tvly-dev-KEY-0123456789', exa: 'exa-KEY-0123456789' } as const;

const json = (body: BodyInit): Response =>
  new Response(body, { status: 200, headers: { 'content-type': 'application/json' } });

/** The real web service answering through `fetch` on a fake clock, with `enable` switched on. */
async function webService(
  fetch: WebServiceDeps['fetch'],
  opts: { clock?: Clock; online?: boolean | undefined; enable?: Array<keyof typeof KEYS> } = {},
) {
  const svc = createTestWebService({
    fetch,
    clock: opts.clock ?? createFakeClock(),
    isOnline: () => opts.online ?? true,
    maxRetries: 0,
  });
  await svc.init();
  for (const id of opts.enable ?? ['tavily'])
    await svc.updateProvider(id, { enabled: true, apiKey: KEYS[id] });
  return svc;
}

/** Tavily alone, answering with the recorded results (or `status` with an error body). */
function service(opts: { online?: boolean; status?: number; enable?: boolean }) {
  return webService(
    async () =>
      opts.status ? new Response('{"error":"boom"}', { status: opts.status }) : json(tavilyFixture),
    { online: opts.online, enable: (opts.enable ?? true) ? ['tavily'] : [] },
  );
}

describe('createWebStrips', () => {
  it('turns ranked hits into web strips with url, tier and exact snippet offsets', async () => {
    const svc = await service({});
    const { strips, failures } = await createWebStrips({ api: svc })(
      'retrieval augmented generation',
    );
    expect(failures).toEqual([]);
    expect(strips.length).toBeGreaterThan(0);
    strips.forEach((s, i) => {
      expect(s).toMatchObject({ id: `w${i + 1}`, source: 'web', documentId: null, chunkId: null });
      expect(s.url).toMatch(/^https?:\/\//);
      expect(s.path).toBe(s.url);
      expect(['1', '2', '3', '4']).toContain(s.tier);
      expect(s.text.slice(s.start, s.end)).toBe(s.text);
      expect(s.text.length).toBeGreaterThan(0);
    });
  });

  it('says whether any provider is enabled (none: the step is skipped, nothing sent)', async () => {
    expect(await webEnabled(await service({ enable: false }))).toBe(false);
    expect(await webEnabled(await service({}))).toBe(true);
  });

  it('throws the providers’ failure code when none answered, so the library answer stands', async () => {
    const offline = await service({ online: false });
    await expect(createWebStrips({ api: offline })('q')).rejects.toMatchObject({ code: 'OFFLINE' });
    const failing = await service({ status: 500 });
    const err = await createWebStrips({ api: failing })('q').catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'PROVIDER_ERROR' });
    expect((err as { details: { failures: unknown[] } }).details.failures).toEqual([
      { provider: 'tavily', code: 'PROVIDER_ERROR' },
    ]);
  });

  it('lets the route pick the providers and depth, and says so in the web action', async () => {
    const clock = createFakeClock();
    const asked: string[] = [];
    const svc = await webService(
      async (input) => {
        asked.push(new URL(input).host);
        return json(tavilyFixture);
      },
      { clock, enable: ['tavily', 'exa'] },
    );
    // A simple question goes to the general engines only (not Exa); a complex one to both.
    const simple = createWebStrips({ api: svc, route: () => 'simple' });
    const r = await clock.run(simple('capital of peru'));
    expect(asked).toEqual(['api.tavily.com']);
    expect(r.shaped).toBe(
      'simple route: the query as typed, up to 5 results from brave, tavily, searxng, perplexity',
    );
    const { action } = await clock.run(webAction(simple, 'capital of peru', 'why', () => 0));
    expect(action.note).toContain('(simple route: the query as typed');
    asked.length = 0;
    await clock.run(createWebStrips({ api: svc, route: () => 'complex' })('q'));
    expect(asked.sort()).toEqual(['api.exa.ai', 'api.tavily.com']);
  });

  it('keeps what arrived when a provider breaks off half way, and marks the step partial', async () => {
    const clock = createFakeClock();
    const exaFixture = readFileSync(
      new URL('../web/fixtures/exa-search.json', import.meta.url),
      'utf8',
    );
    const svc = await webService(
      async (input) => {
        if (new URL(input).host !== 'api.exa.ai') return json(tavilyFixture);
        // Exa starts answering, then the connection drops in the middle of the body.
        const half = new TextEncoder().encode(exaFixture.slice(0, exaFixture.length >> 1));
        const body = new ReadableStream<Uint8Array>({
          start(c) {
            c.enqueue(half);
            c.error(new TypeError('network connection lost'));
          },
        });
        return json(body);
      },
      { clock, enable: ['tavily', 'exa'] },
    );
    const web = createWebStrips({ api: svc });
    const { strips, failures } = await clock.run(web('retrieval augmented generation'));
    expect(strips.length).toBeGreaterThan(0);
    expect(failures.map((f) => f.provider)).toEqual(['exa']);
    expect(failures[0]!.code).toMatch(/^[A-Z_]+$/);
    const { action, strips: kept } = await clock.run(
      webAction(
        web,
        'retrieval augmented generation',
        'library retrieval judged incorrect',
        () => 0,
      ),
    );
    expect(kept).toEqual(strips);
    expect(action).toMatchObject({ kind: 'web', status: 'ok', applied: true });
    expect(action.note).toMatch(
      /partial: exa failed \([A-Z_]+\), the results that arrived are kept/,
    );
    expect(action.errorCode).toBe(failures[0]!.code);
  });
});
