// Network ledger completeness in the browser (issue 17 item 9): an OpenAI-compatible endpoint on
// 127.0.0.1 answers a generated answer through the real llm.worker; every request the endpoint
// received (CORS preflights aside, which the browser makes on its own) is a ledger row, and the
// API key is in none of them. The Node side (web providers, model downloads) is
// workers/shared/ledgered-fetch.test.ts.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test, expect } from '@playwright/test';
import { askGenerated, withHttpEndpoint } from './helpers';

const KEY = 'sk-ledger-e2e-KEY-4242';
let server: Server;
let base = '';
const posts: string[] = [];

test.beforeAll(async () => {
  server = createServer((req, res) => {
    const cors = {
      'access-control-allow-origin': '*',
      'access-control-allow-headers': 'authorization, content-type',
      'access-control-allow-methods': 'POST, GET, OPTIONS',
    };
    if (req.method === 'OPTIONS') return res.writeHead(204, cors).end();
    req.resume();
    req.on('end', () => {
      posts.push(`${req.method} ${req.url}`);
      res.writeHead(200, { ...cors, 'content-type': 'text/event-stream' });
      const delta = (content: string) =>
        `data: ${JSON.stringify({ choices: [{ delta: { content }, finish_reason: null }] })}\n\n`;
      res.end(`${delta('Smoking raises lung cancer risk [1].')}data: [DONE]\n\n`);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
test.afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
});

test('every request to the OpenAI-compatible endpoint is a ledger row, without the key', async ({
  page,
}) => {
  await withHttpEndpoint(page, base, KEY);
  await expect(page.getByTestId('llm-http-current')).toContainText('with key');

  const question = 'Does smoking raise lung cancer risk?';
  await askGenerated(page, question);
  await expect(page.getByTestId('answer')).toHaveAttribute('data-question', question, {
    timeout: 60_000,
  });
  expect(posts.length).toBeGreaterThan(0);

  await page.keyboard.press('Alt+3');
  const rows = page.getByTestId('network-ledger').getByTestId('ledger-row');
  await expect(rows.filter({ hasText: 'llm endpoint' })).toHaveCount(posts.length);
  await expect(page.getByTestId('network-ledger')).not.toContainText(KEY);
});
