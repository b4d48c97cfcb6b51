// Issue 16, bad input and faults: the LLM backend dies mid-stream. An OpenAI-compatible endpoint
// on 127.0.0.1 streams the first sentence of the answer, then drops the connection; the real
// llm.worker reads what arrived. The Answer view keeps the partial answer and marks it, shows
// the extractive answer beside it, and the history says "partial". (The library side, and Stop
// while the model writes, are workers/db/answers.test.ts.)
import { test, expect } from '@playwright/test';
import { askGenerated, mockLlmEndpoint, sseDelta, withHttpEndpoint } from './helpers';

const WRITTEN = 'Smoking significantly increases the risk of lung cancer';
let endpoint: Awaited<ReturnType<typeof mockLlmEndpoint>>;
let dropped = 0;

test.beforeAll(async () => {
  endpoint = await mockLlmEndpoint((body, res) => {
    if (!body.includes('cite the sources')) {
      // Judges (relevance, entailment) and the router get a short complete reply.
      const reply = body.includes('simple, moderate or complex') ? 'moderate' : ' yes';
      return res.end(`${sseDelta(reply)}data: [DONE]\n\n`);
    }
    // The answer: one sentence arrives, then the connection drops before [DONE].
    dropped++;
    res.write(sseDelta(`${WRITTEN} [1]. It also`), () => res.socket?.destroy());
  });
});
test.afterAll(() => endpoint.close());

test('the LLM endpoint dies mid-stream: the partial answer is kept and marked, the extractive answer shown', async ({
  page,
}) => {
  await withHttpEndpoint(page, endpoint.base);
  await expect(page.getByTestId('llm-http-current')).toBeVisible();

  const question = 'Does smoking raise lung cancer risk?';
  await askGenerated(page, question);
  const answer = page.getByTestId('answer').first();
  await expect(answer).toHaveAttribute('data-question', question, { timeout: 60_000 });
  expect(dropped).toBeGreaterThan(0);

  // The partial answer: generated, marked, holding what arrived and nothing after it.
  await expect(answer).toHaveAttribute('data-mode', 'generated');
  await expect(page.getByTestId('answer-partial')).toContainText('this answer is partial');
  await expect(answer.getByTestId('answer-sentence').first()).toContainText(WRITTEN);
  // The extractive answer beside it, cited sentences from the library.
  const extractive = page.getByTestId('answer-extractive');
  await expect(extractive).toBeVisible();
  await expect(extractive.getByTestId('answer-sentence').first()).toBeVisible();
  await expect(
    extractive.getByTestId('answer-sentence').first().getByTestId('citation').first(),
  ).toBeVisible();
  // Kept in the history, marked partial.
  await expect(
    page.getByTestId('answer-history-item').filter({ hasText: question }).first(),
  ).toContainText('partial');
});
