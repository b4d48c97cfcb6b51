// Answers you can trust, in Chromium with the network off (served by the service worker after a
// first load): import the fixtures, ask a question, get an extractive answer whose sentences cite
// [n], click a citation and see the cited passage highlighted at its exact characters; with the
// scripted generator (`?llm=scripted`, deterministic, it makes a sentence up on purpose) the
// made-up sentence is flagged unsupported. Also: empty library, empty and over-long questions,
// the history, Markdown, diagnostics, and a citation to a deleted document shown as missing.
import { test, expect, type BrowserContext, type Page } from '@playwright/test';
import { ask, fixtureFiles, goOffline, importFiles } from './helpers';

const QUESTION = 'Who tuned each xylophone bar by ear?';
const CITED = 'the instructor tuned each xylophone bar by ear before lunch';

let context: BrowserContext;
let page: Page;

/** Loads the app under its service worker, then cuts the network. */
async function openOffline(path = '/'): Promise<void> {
  await page.goto(path);
  await goOffline(page, context);
}

test.beforeEach(async ({ browser }) => {
  context = await browser.newContext();
  page = await context.newPage();
});
test.afterEach(async () => {
  await context.close();
});

test('an empty library says so and offers import; an empty question gets a message', async () => {
  await openOffline();
  await page.keyboard.press('Alt+4');
  await expect(page.getByTestId('answer-view')).toBeVisible();
  await expect(page.getByTestId('answer-empty-library')).toContainText('library is empty');
  await expect(page.getByTestId('answer-empty-library').getByTestId('file-input')).toBeAttached();
  await page.getByTestId('answer-ask').click();
  await expect(page.getByTestId('answer-problem')).toContainText('Type a question');
});

test('extractive answer offline: cited sentences, the cited passage highlighted, history, diagnostics', async () => {
  await openOffline();
  await importFiles(page, fixtureFiles());
  await page.getByTestId('tab-answer').click();
  await ask(page, QUESTION);
  const answer = page.getByTestId('answer');
  await expect(answer).toHaveAttribute('data-mode', 'extractive');
  const sentences = answer.getByTestId('answer-sentence');
  await expect(sentences.first()).toBeVisible();
  // Every extractive sentence carries a citation and is a sentence of the library.
  const count = await sentences.count();
  for (let i = 0; i < count; i++) {
    await expect(sentences.nth(i).getByTestId('citation').first()).toBeVisible();
    // The label says what was checked: an extractive sentence is a quote of its source.
    await expect(sentences.nth(i).getByTestId('answer-sentence-check')).toHaveText(' (quoted)');
  }
  // An AMBIGUOUS answer says so above the answer text.
  await expect(answer.getByTestId('answer-ambiguous')).toHaveCount(
    (await answer.getAttribute('data-decision')) === 'AMBIGUOUS' ? 1 : 0,
  );
  await expect(answer.getByTestId('answer-text')).toContainText(CITED);
  await expect(answer.getByTestId('reference').first()).toContainText('sample.txt');
  await expect(page.getByTestId('crag-decision')).toHaveText(/CORRECT|AMBIGUOUS|INCORRECT/);
  // The query score carries its band in words, and the band agrees with the decision.
  const band = page.getByTestId('crag-band');
  await expect(band).toHaveText(/^(high|medium|low) relevance$/);
  const decision = await page.getByTestId('crag-decision').textContent();
  const expected = { CORRECT: 'high', AMBIGUOUS: 'medium', INCORRECT: 'low' }[decision ?? ''];
  await expect(band).toHaveAttribute('data-band', expected ?? 'none');

  // Clicking [n] opens the document with exactly the cited strip highlighted.
  const cited = sentences.filter({ hasText: CITED }).getByTestId('citation').first();
  await cited.click();
  await expect(page.getByTestId('viewer-title')).toContainText('sample');
  await expect(page.getByTestId('viewer-cited')).toContainText(CITED);
  const highlighted = (await page.getByTestId('viewer-cited').textContent()) ?? '';
  const sentence = (await sentences.filter({ hasText: CITED }).first().textContent()) ?? '';
  expect(sentence).toContain(highlighted.trim());

  // Kept in the history; diagnostics count it.
  await expect(page.getByTestId('answer-history-item').first()).toContainText(QUESTION);
  await page.keyboard.press('Alt+5');
  await expect(page.getByTestId('diag-answers')).toHaveText('1');
});

test('a scripted generator that makes a sentence up: the sentence is flagged unsupported', async () => {
  await openOffline('/?llm=scripted');
  await importFiles(page, fixtureFiles());
  await page.getByTestId('tab-answer').click();
  await expect(page.getByTestId('answer-mode')).toContainText('scripted');
  await ask(page, QUESTION);
  const answer = page.getByTestId('answer');
  await expect(answer).toHaveAttribute('data-mode', 'generated');
  const madeUp = answer.getByTestId('answer-sentence').filter({ hasText: 'lunar astronauts' });
  await expect(madeUp).toHaveAttribute('data-label', 'unsupported');
  await expect(madeUp.getByTestId('answer-sentence-label')).toHaveText('unsupported');
  await expect(madeUp.getByTestId('answer-sentence-check')).toHaveText(/^ \(checked, 0\.\d\d\)$/);
  // The quoted sentence is not flagged.
  const quoted = answer.getByTestId('answer-sentence').first();
  await expect(quoted).not.toHaveAttribute('data-label', 'unsupported');
});

test('a 10 KB question is cut with a notice; a citation to a deleted document shows as missing', async () => {
  await openOffline();
  await importFiles(page, fixtureFiles());
  await page.getByTestId('tab-answer').click();
  const long = `${QUESTION} ${'xylophone marmalade '.repeat(520)}`.slice(0, 10_240);
  await page.getByTestId('answer-input').fill(long);
  await page.getByTestId('answer-ask').click();
  await expect(page.getByTestId('answer-problem')).toContainText('only the first');
  await expect(page.getByTestId('answer-notice').first()).toContainText(/cut|truncat/i, {
    timeout: 60_000,
  });
  await ask(page, QUESTION);
  // Delete the cited document, then show the kept answer again.
  await page.getByTestId('tab-library').click();
  const row = page.getByTestId('library-row').filter({ hasText: 'sample.txt' });
  page.once('dialog', (d) => void d.accept());
  await row.getByTestId('delete-document').click();
  await expect(row).toHaveCount(0);
  await page.getByTestId('tab-answer').click();
  await page
    .getByTestId('answer-history-item')
    .filter({ hasText: QUESTION })
    .first()
    .getByRole('button')
    .first()
    .click();
  await expect(page.getByTestId('reference-missing').first()).toBeVisible();
  await expect(page.getByTestId('citation').first()).toHaveAttribute('data-missing', 'true');
});
