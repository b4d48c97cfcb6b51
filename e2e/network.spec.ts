// Worker network gate in Chromium: module workers do not inherit the page's CSP, so Sift's
// workers install workers/shared/net-gate.ts on their global scope (workers/install-net-gate.ts).
// A probe worker bundled from that same module tries every request API against an origin nobody
// allowed: each is refused with ORIGIN_NOT_ALLOWED and that server sees no request; its own
// origin still works, and once an origin is allowed a request reaches it.
import { test, expect } from '@playwright/test';
import { build } from 'esbuild';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

let app: Server;
let elsewhere: Server;
let appOrigin = '';
let elsewhereOrigin = '';
const reachedElsewhere: string[] = [];

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

test.beforeAll(async () => {
  const bundle = await build({
    entryPoints: ['e2e/fixtures/net-gate-probe.worker.ts'],
    bundle: true,
    format: 'esm',
    write: false,
  });
  const probe = bundle.outputFiles[0]!.text;
  // No CSP on this page: only the gate stands between the worker and the other origin.
  app = createServer((req, res) => {
    if (req.url === '/probe.worker.js') {
      res.writeHead(200, { 'Content-Type': 'text/javascript' });
      res.end(probe);
    } else {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end('<!doctype html><title>probe</title>');
    }
  });
  elsewhere = createServer((req, res) => {
    reachedElsewhere.push(req.url ?? '');
    res.writeHead(200, { 'Access-Control-Allow-Origin': '*', 'Content-Type': 'text/plain' });
    res.end('reached');
  });
  appOrigin = await listen(app);
  elsewhereOrigin = await listen(elsewhere);
});

test.afterAll(async () => {
  await Promise.all([app, elsewhere].map((s) => new Promise((resolve) => s.close(resolve))));
});

test('a worker behind the gate reaches only its own origin and what was allowed', async ({
  page,
}) => {
  await page.goto(`${appOrigin}/`);
  const outcomes = await page.evaluate(
    async ({ other }) => {
      const worker = new Worker('/probe.worker.js', { type: 'module' });
      const ask = (kind: string, url: string) =>
        new Promise<string>((resolve) => {
          worker.onmessage = (e: MessageEvent<string>) => resolve(e.data);
          worker.postMessage({ kind, url });
        });
      const refused: Record<string, string> = {};
      for (const kind of ['fetch', 'xhr', 'websocket', 'eventsource', 'cache'])
        refused[kind] = await ask(
          kind,
          kind === 'websocket' ? other.replace('http', 'ws') : `${other}/${kind}`,
        );
      const own = await ask('fetch', '/index.html');
      const allowed = await ask('allow', other);
      const afterAllow = await ask('fetch', `${other}/after-allow`);
      worker.terminate();
      return { refused, own, allowed, afterAllow };
    },
    { other: elsewhereOrigin },
  );
  expect(outcomes.refused).toEqual({
    fetch: 'ORIGIN_NOT_ALLOWED',
    xhr: 'ORIGIN_NOT_ALLOWED',
    websocket: 'ORIGIN_NOT_ALLOWED',
    eventsource: 'ORIGIN_NOT_ALLOWED',
    cache: 'ORIGIN_NOT_ALLOWED',
  });
  expect(outcomes.own).toBe('200');
  expect(outcomes.allowed).toBe(elsewhereOrigin);
  expect(outcomes.afterAllow).toBe('200');
  expect(reachedElsewhere).toEqual(['/after-allow']);
});
