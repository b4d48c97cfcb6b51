// The small things issue 28 saw, each checked in the built app: one storage figure in Settings;
// the "works offline" badge is still there after a reload; one Extractive option in the answer
// mode menu; asking the same question again does not add a second history row; a document
// cited through several passages appears once in the reference list.
import { test, expect } from '@playwright/test';
import { CLAIM_FIXTURES, ask, importFiles, openApp } from './helpers';

const QUESTION = 'Does smoking raise the risk of lung cancer?';

test('one storage figure, offline badge after reload, one Extractive option, history, references', async ({
  page,
}) => {
  await openApp(page);
  await importFiles(page, CLAIM_FIXTURES);
  const badge = page.getByTestId('network-status');
  await expect(badge).toContainText('works offline', { timeout: 60_000 });
  await page.reload();
  await expect(page.getByTestId('storage-status')).toBeVisible();
  await expect(badge).toContainText('works offline', { timeout: 30_000 });

  await page.keyboard.press('Alt+3');
  await expect(page.getByTestId('storage-usage')).toBeVisible();
  await expect(page.getByTestId('llm-capabilities')).toBeVisible();
  await expect(page.getByText(/ used of |Using .+ of the /)).toHaveCount(1);

  await page.keyboard.press('Alt+4');
  const options = page.getByTestId('answer-mode').locator('option');
  await expect(options).toHaveCount(3);
  await expect(options.filter({ hasText: /extractive/i })).toHaveCount(1);

  await ask(page, QUESTION);
  await ask(page, 'What did the green tea trial measure?');
  await ask(page, QUESTION);
  const history = page.getByTestId('answer-history-item');
  await expect(history).toHaveCount(2);
  await expect(history.filter({ hasText: QUESTION })).toHaveCount(1);

  const refs = page.getByTestId('answer').getByTestId('reference');
  await expect(refs.first()).toBeVisible();
  const texts = await refs.locator('.path').allTextContents();
  expect(new Set(texts).size).toBe(texts.length);
});
