// Local models in one click (issue 28 item 5): presets for Ollama, LM Studio and llama.cpp's
// server say the CORS setting each needs; "Test connection" lists the models of an
// OpenAI-compatible endpoint (a mock on 127.0.0.1) and fills the model; a generated answer through
// it counts the bytes the streamed reply brought in the network ledger (it used to say 0 B).
import { test, expect } from '@playwright/test';
import { FIXTURES, askGenerated, importFiles, mockLlmEndpoint, openApp, sseDelta } from './helpers';
import { join } from 'node:path';

const REPLY = `${sseDelta('Smoking raises lung cancer risk [1].')}data: [DONE]\n\n`;
let endpoint: Awaited<ReturnType<typeof mockLlmEndpoint>>;

test.beforeAll(async () => {
  endpoint = await mockLlmEndpoint((_body, res) => res.end(REPLY), ['qwen2.5:7b', 'llama3.2:3b']);
});
test.afterAll(() => endpoint.close());

test('presets say the CORS setting; the connection test lists models; the ledger counts the reply', async ({
  page,
}) => {
  await openApp(page);
  await importFiles(page, join(FIXTURES, 'claims', 'smoking-cohort.txt'));
  await page.keyboard.press('Alt+3');

  await page.getByTestId('llm-preset-lm-studio').click();
  await expect(page.getByTestId('llm-http-base')).toHaveValue('http://localhost:1234/v1');
  await expect(page.getByTestId('llm-http-cors')).toContainText('Enable CORS');
  await page.getByTestId('llm-preset-ollama').click();
  await expect(page.getByTestId('llm-http-base')).toHaveValue('http://localhost:11434/v1');
  const origin = new URL(page.url()).origin;
  await expect(page.getByTestId('llm-http-cors')).toContainText(`OLLAMA_ORIGINS=${origin}`);
  await page.getByTestId('llm-preset-llama-cpp').click();
  await expect(page.getByTestId('llm-http-cors')).toContainText('--cors-origins');

  await page.getByTestId('llm-http-base').fill(endpoint.base);
  await expect(page.getByTestId('llm-http-cors')).toHaveCount(0);
  await page.getByTestId('llm-http-test').click();
  await expect(page.getByTestId('llm-http-probe')).toHaveAttribute('data-state', 'ok');
  await expect(page.getByTestId('llm-http-probe')).toContainText(
    '2 models (llama3.2:3b, qwen2.5:7b)',
  );
  await expect(page.getByTestId('llm-http-model')).toHaveValue('llama3.2:3b');
  await page.getByTestId('llm-http-save').click();
  await expect(page.getByTestId('llm-http-current')).toContainText('llama3.2:3b');

  const question = 'Does smoking raise lung cancer risk?';
  await askGenerated(page, question);
  await expect(page.getByTestId('answer')).toHaveAttribute('data-question', question, {
    timeout: 60_000,
  });
  await page.keyboard.press('Alt+3');
  const ledger = page.getByTestId('network-ledger');
  const post = ledger.getByTestId('ledger-row').filter({ hasText: 'POST /v1/chat/completions' });
  await expect(post.first()).toBeVisible();
  // The reply is REPLY's bytes (no Content-Length: it is streamed).
  await expect(post.first().getByTestId('ledger-received')).toHaveText(
    `${Buffer.byteLength(REPLY)} B`,
  );
  // Each preset click tested its own address too (nothing listens there): count the mock's.
  const list = ledger
    .getByTestId('ledger-row')
    .filter({ hasText: new URL(endpoint.base).host })
    .filter({ hasText: 'GET /v1/models' });
  await expect(list).toHaveCount(1);
  await expect(list.getByTestId('ledger-received')).not.toHaveText('0 B');
});
