// The answer's relevance reading in Chromium: Sift's pair verifier (fetched from the app's origin
// on first use) reads the best sentences of the library against the question. A question the
// fixtures answer is answered and the answer says what the verifier read and how sure it was; a
// question they do not answer (however many words it shares with them) gets "not in your
// library", with the verifier's reason. Once fetched, the verifier also works offline.
import { test, expect } from '@playwright/test';
import { ask, fixtureFiles, goOffline, importFiles, openApp } from './helpers';

test('the pair verifier decides whether the library answers, and says so', async ({
  page,
  context,
}) => {
  test.setTimeout(120_000);
  await openApp(page);
  await importFiles(page, fixtureFiles());
  await page.getByTestId('tab-answer').click();

  await ask(page, 'Who tuned each xylophone bar by ear?');
  const answer = page.getByTestId('answer');
  const reading = answer.getByTestId('answer-relevance').first();
  await expect(reading).toHaveAttribute('data-source', 'verifier', { timeout: 60_000 });
  await expect(reading).toContainText(
    /the best addresses the question \(relevance [01]\.\d{3}, needs 0\.\d{3}\)/,
  );
  await expect(answer.getByTestId('answer-text')).toContainText('xylophone bar by ear');
  await expect(answer.getByTestId('answer-not-found')).toHaveCount(0);

  await goOffline(page, context);
  // The verifier lives in an embed worker: after the reload, ask once they are up again (an ask
  // before that is answered without it, and says so).
  await expect(page.getByTestId('semantic-pill')).toHaveAttribute('data-phase', 'ready', {
    timeout: 60_000,
  });
  await page.keyboard.press('Alt+4');
  await ask(page, 'What is the price of marmalade in the supermarket?');
  const offTopic = page.getByTestId('answer').first();
  await expect(offTopic.getByTestId('answer-not-found')).toBeVisible();
  await expect(offTopic.getByTestId('answer-relevance').first()).toHaveAttribute(
    'data-source',
    'verifier',
  );
  await expect(offTopic.getByTestId('answer-relevance').first()).toContainText(
    'none addresses the question',
  );
  await expect(offTopic.getByTestId('answer-sentence')).toHaveCount(0);
});
