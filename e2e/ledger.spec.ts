// Network ledger completeness in the browser (issue 17 item 9): an OpenAI-compatible endpoint on
// 127.0.0.1 answers a generated answer through the real llm.worker; every request the endpoint
// received (CORS preflights aside, which the browser makes on its own) is a ledger row, and the
// API key is in none of them. The Node side (web providers, model downloads) is
// workers/shared/ledgered-fetch.test.ts.
import { test, expect } from '@playwright/test';
import { askGenerated, mockLlmEndpoint, sseDelta, withHttpEndpoint } from './helpers';

const KEY = 'sk-ledger-e2e-KEY-4242';
let endpoint: Awaited<ReturnType<typeof mockLlmEndpoint>>;
const posts: string[] = [];

test.beforeAll(async () => {
  endpoint = await mockLlmEndpoint((_body, res, request) => {
    posts.push(request);
    res.end(`${sseDelta('Smoking raises lung cancer risk [1].')}data: [DONE]\n\n`);
  });
});
test.afterAll(() => endpoint.close());

test('every request to the OpenAI-compatible endpoint is a ledger row, without the key', async ({
  page,
}) => {
  await withHttpEndpoint(page, endpoint.base, KEY);
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
