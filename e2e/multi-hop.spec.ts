// Multi-hop answers in Chromium (issue 17 item 7): off by default; switched on in the Answer
// view, a question the library cannot answer at once gets further retrievals from the evidence
// found, each listed with the query it sent among the corrective actions of the answer.
import { test, expect } from '@playwright/test';
import { ask, CLAIM_FIXTURES, importFiles, openApp } from './helpers';

const QUESTION = 'What is the boiling point of liquid nitrogen?';

test('multi-hop: off by default, each hop listed with its query when switched on', async ({
  page,
}) => {
  await openApp(page);
  await importFiles(page, CLAIM_FIXTURES);
  await page.keyboard.press('Alt+4');
  await expect(page.getByTestId('answer-multi-hop')).not.toBeChecked();
  await ask(page, QUESTION);
  const actions = page.getByTestId('crag-action');
  await expect(actions.first()).toBeAttached();
  await expect(page.locator('[data-testid="crag-action"][data-kind="hop"]')).toHaveCount(0);

  await page.getByTestId('answer-multi-hop').check();
  await ask(page, QUESTION);
  // The same question again: wait for the new answer's hops, not the first answer's attribute.
  const hops = page.locator('[data-testid="crag-action"][data-kind="hop"]');
  await expect(hops.first()).toBeAttached({ timeout: 60_000 });
  await page.getByTestId('crag-meta').locator('summary').click();
  await expect(hops.first()).toBeVisible();
  expect(await hops.count()).toBeLessThanOrEqual(2);
  await expect(hops.first()).toContainText(/hop 1 of 2: /);
  await expect(hops.first()).toContainText(`query “${QUESTION} `);
  await expect(page.locator('[data-testid="crag-step"][data-kind="hop"]')).toHaveCount(1);
});
