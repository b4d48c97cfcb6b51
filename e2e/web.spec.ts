// Web providers end to end: a SearXNG-shaped service and a page on 127.0.0.1 (no real network),
// enabled from Settings; results show their credibility tier; a result is imported into the
// library and becomes searchable; the network ledger lists the requests; offline fails fast; a
// provider that fails leaves the Answer view's library answer standing, with a notice.
import { test, expect, type Page } from '@playwright/test';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ask, fixtureFiles, importFiles, openApp, search } from './helpers';

let server: Server;
let origin = '';
const requests: string[] = [];

const ARTICLE = `<!doctype html><html><head><title>Cormorant migration study</title></head><body>
<nav>menu</nav><article><h1>Cormorant migration study</h1>
<p>Ringing records show that cormorant flocks from the estuary winter on the southern lagoons, returning each March.</p>
<p>The study followed four hundred birds over six seasons and found the route unchanged.</p>
<script>window.__pwned = true</script></article></body></html>`;

test.beforeAll(async () => {
  server = createServer((req, res) => {
    requests.push(req.url ?? '');
    const cors = { 'Access-Control-Allow-Origin': '*' };
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/searxng/search') {
      res.writeHead(200, { 'Content-Type': 'application/json', ...cors });
      res.end(
        JSON.stringify({
          query: url.searchParams.get('q'),
          number_of_results: 1,
          results: [
            {
              url: `${origin}/article.html`,
              title: 'Cormorant migration study',
              content: 'Ringing records show cormorant flocks winter on the southern lagoons.',
              engine: 'mock',
              score: 1.0,
            },
          ],
        }),
      );
    } else if (url.pathname === '/article.html') {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', ...cors });
      res.end(ARTICLE);
    } else {
      res.writeHead(404, cors);
      res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

/** Enables SearXNG at `${origin}${path}` (default: the mock service that answers). */
async function enableSearxng(page: Page, path = '/searxng'): Promise<void> {
  await page.getByTestId('tab-settings').click();
  const card = page.getByTestId('web-provider-searxng');
  await card.getByTestId('web-provider-base-searxng').fill(`${origin}${path}`);
  await card.getByRole('button', { name: 'Save URL' }).click();
  // The checkbox is controlled by the worker's answer, so click and then wait for it.
  await expect(card.getByTestId('web-provider-base-searxng')).toHaveValue(`${origin}${path}`);
  await card.getByTestId('web-provider-enable-searxng').click();
  await expect(card.getByTestId('web-provider-enable-searxng')).toBeChecked();
}

test('web search through an enabled provider, import a result, see it in the ledger', async ({
  page,
}) => {
  await openApp(page);
  expect(requests).toHaveLength(0); // nothing leaves the device before a provider is enabled
  await enableSearxng(page);
  await page.getByTestId('tab-search').click();
  await page.getByTestId('web-toggle').click();
  await page.getByTestId('web-search-input').fill('cormorant migration');
  await page.getByRole('button', { name: 'Search the web' }).click();
  const hit = page.getByTestId('web-result').first();
  await expect(hit).toContainText('Cormorant migration study');
  await expect(hit.getByTestId('web-result-tier')).toBeVisible();
  await hit.getByTestId('web-import').click();
  await expect(hit).toContainText(/imported|in library/i);

  await search(page, 'lagoons');
  await expect(page.getByTestId('result').first()).toContainText('Cormorant migration study');
  expect(await page.evaluate(() => (window as { __pwned?: boolean }).__pwned)).toBeUndefined();

  await page.getByTestId('tab-settings').click();
  const ledger = page.getByTestId('network-ledger');
  await expect(ledger.getByTestId('ledger-row').first()).toBeVisible();
  await expect(ledger).toContainText('127.0.0.1');
  expect(requests.some((r) => r.startsWith('/searxng/search'))).toBe(true);
});

test('offline, enabled providers fail fast and nothing is sent', async ({ page, context }) => {
  await openApp(page);
  await enableSearxng(page);
  await page.getByTestId('tab-search').click();
  const before = requests.length;
  await context.setOffline(true);
  try {
    await page.getByTestId('web-toggle').click();
    await page.getByTestId('web-search-input').fill('cormorant');
    await page.getByRole('button', { name: 'Search the web' }).click();
    await expect(page.getByTestId('web-offline')).toBeVisible();
    expect(requests.length).toBe(before);
  } finally {
    await context.setOffline(false);
  }
});

test('a web provider that fails: the Answer view keeps the library answer and says so', async ({
  page,
}) => {
  await openApp(page);
  await importFiles(page, fixtureFiles());
  // The provider's base URL answers 404: every web search fails.
  await enableSearxng(page, '/gone');
  await page.getByTestId('tab-answer').click();
  const before = requests.length;
  const question = 'quantum chromodynamics lattice gluon confinement';
  await ask(page, question);
  const answer = page.getByTestId('answer').first();
  await expect(answer).not.toHaveAttribute('data-decision', 'CORRECT');
  expect(requests.slice(before).some((u) => u.startsWith('/gone'))).toBe(true);
  await expect(page.getByTestId('answer-notice')).toContainText([
    'Web search failed; the library answer stands.',
  ]);
  await expect(page.getByTestId('answer-not-found')).toBeVisible();
  await expect(answer.getByTestId('reference').filter({ hasText: origin })).toHaveCount(0);
});
