// The results list (issue 15 item 6): one entry per document with its best passage, its next
// best passages collapsed beneath ("N more passages", expandable with the keyboard), and a
// relevance band that says what it means. Bad input: a pasted 10 KB query is answered (the page
// says the model read only its start), a query past the readable length says what was not read, filters that match nothing show an empty
// state, not an error. A folder is imported where many chunks of one document match.
import { test, expect, type BrowserContext, type Page } from '@playwright/test';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openApp, search, waitForImport } from './helpers';

/** One chapter whose every section speaks of lifetime elision, and short notes that mention it. */
function libraryFolder(): string {
  const root = join(mkdtempSync(join(tmpdir(), 'sift-results-')), 'book');
  mkdirSync(join(root, 'chapters'), { recursive: true });
  const sections = Array.from(
    { length: 12 },
    (_, i) =>
      `## Section ${i + 1}\n\nThe lifetime elision rules let the compiler infer each lifetime ` +
      `in a function signature. Rule ${i + 1} of lifetime elision covers references in ` +
      `parameters, and the elision rules mean most lifetime annotations can be left out. ` +
      `When the elision rules do not apply, write the lifetime parameters by hand.`,
  );
  writeFileSync(
    join(root, 'chapters', 'lifetimes.md'),
    `# Lifetimes\n\n${sections.join('\n\n')}\n`,
  );
  const notes: Record<string, string> = {
    'traits.md': 'Trait objects use dynamic dispatch; a lifetime bound may appear on them.',
    'closures.md': 'Closures capture their environment; the lifetime of a capture matters.',
    'errors.md': 'The question mark operator propagates errors; no lifetime is involved here.',
  };
  for (const [name, text] of Object.entries(notes))
    writeFileSync(join(root, 'chapters', name), `# ${name}\n\n${text}\n`);
  return root;
}

let page: Page;
let context: BrowserContext;

test.beforeAll(async ({ browser }) => {
  context = await browser.newContext();
  page = await context.newPage();
  await openApp(page);
  await page.getByTestId('dir-input').setInputFiles(libraryFolder());
  await waitForImport(page);
  await expect(page.getByTestId('semantic-pill')).toHaveAttribute('data-phase', 'ready', {
    timeout: 90_000,
  });
});

test('one entry per document, its other passages behind "N more passages" (keyboard)', async () => {
  for (const mode of ['lexical', 'semantic', 'hybrid'] as const) {
    await page.getByTestId('mode').selectOption(mode);
    await search(page, `lifetime elision rules ${mode}`);
    const chapter = page.locator('[data-testid="result"][data-path$="lifetimes.md"]');
    await expect(chapter, mode).toHaveCount(1);
    const passages = Number(await chapter.getAttribute('data-passages'));
    expect(passages, mode).toBeGreaterThan(1);
    const more = chapter.getByTestId('more-passages');
    await expect(more, mode).toHaveText(`${passages - 1} more passage${passages > 2 ? 's' : ''}`);
    await expect(more).toHaveAttribute('aria-expanded', 'false');
    await expect(chapter.getByTestId('passage')).toHaveCount(0);
    // Every path lists each document once.
    const paths = await page
      .getByTestId('result')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-path') ?? ''));
    expect(new Set(paths).size, mode).toBe(paths.length);
  }

  // Expand with the keyboard: focus the button, Enter opens, Space closes, Enter again.
  const chapter = page.locator('[data-testid="result"][data-path$="lifetimes.md"]');
  const more = chapter.getByTestId('more-passages');
  const passages = Number(await chapter.getAttribute('data-passages'));
  await more.focus();
  await page.keyboard.press('Enter');
  await expect(more).toHaveAttribute('aria-expanded', 'true');
  await expect(chapter.getByTestId('passage')).toHaveCount(passages - 1);
  await page.keyboard.press('Space');
  await expect(more).toHaveAttribute('aria-expanded', 'false');
  await expect(chapter.getByTestId('passage')).toHaveCount(0);
  await page.keyboard.press('Enter');
  await expect(chapter.getByTestId('passage')).toHaveCount(passages - 1);
  // The meta line counts documents, and their passages.
  await expect(page.getByTestId('result-meta')).toContainText(/\d+ documents? \(\d+ passages\)/);

  // Tab to the first of the further passages; Enter opens the document at that passage.
  const second = chapter.getByTestId('passage').first();
  const seq = await second.getAttribute('data-seq');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(second.locator('button')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('viewer-body')).toBeVisible();
  await expect(page.getByTestId('viewer')).toContainText(`chunk ${Number(seq) + 1} of`);
  await expect(page.getByTestId('viewer-chunk')).toContainText('elision');
});

test('each entry shows a relevance band that says what it means, never a rank', async () => {
  await page.getByTestId('mode').selectOption('lexical');
  await search(page, 'lifetime elision rules');
  const first = page.getByTestId('result').first();
  const band = first.getByTestId('relevance');
  await expect(band).toHaveText(/^(High|Medium|Low)/);
  await expect(band).toHaveAttribute('title', /of passages scoring like this were relevant/);
  await expect(band).toHaveAttribute('title', /not where it ranks/);
  // A query most of whose words no document holds: its first hit is not High.
  await search(page, 'lifetime quasar marmalade tectonics violin glacier');
  await expect(page.getByTestId('result').first().getByTestId('relevance')).toHaveAttribute(
    'data-band',
    'low',
  );
  await expect(page.locator('.result .score')).toHaveCount(0);
});

test('bad input: a pasted 10 KB query, an over-long one, and filters that match nothing', async () => {
  await page.getByTestId('mode').selectOption('hybrid');
  const paragraph =
    'The lifetime elision rules let the compiler infer lifetimes in function signatures. ';
  const tenKb = paragraph.repeat(Math.ceil(10_240 / paragraph.length));
  await search(page, tenKb);
  await expect(page.getByTestId('result').first()).toHaveAttribute('data-path', /lifetimes\.md/);
  // Keyword matching read every word; the model reads only the start, and the page says so.
  await expect(page.getByTestId('query-notice')).toContainText(
    'Meaning search read only the start',
  );
  await expect(page.getByTestId('query-notice')).not.toContainText('not read');
  await page.getByTestId('mode').selectOption('lexical');
  await search(page, `${tenKb} `);
  await expect(page.getByTestId('query-notice')).toHaveCount(0);
  await page.getByTestId('mode').selectOption('hybrid');
  // Past the readable length (20,000 characters) the page says what was left out.
  const tooLong = paragraph.repeat(Math.ceil(25_000 / paragraph.length));
  await search(page, tooLong);
  await expect(page.getByTestId('query-notice')).toContainText(
    /characters of the query were not read/,
  );
  await expect(page.getByTestId('result').first()).toBeVisible();

  await page.getByTestId('filters-toggle').click();
  await page.getByTestId('filter-path').fill('nowhere/**');
  await search(page, 'lifetime elision');
  await expect(page.getByTestId('no-results')).toContainText('Clear the filters');
  await expect(page.getByTestId('notice').filter({ hasText: /error/i })).toHaveCount(0);
  await page.getByTestId('filter-path').fill('');
});

test('find related on a document deleted in another tab says so, plainly', async () => {
  await page.getByTestId('mode').selectOption('lexical');
  await search(page, 'question mark operator');
  const entry = page.locator('[data-testid="result"][data-path$="errors.md"]');
  await entry.click();
  await expect(page.getByTestId('viewer-title')).toBeVisible();
  // Another tab deletes the open document.
  const other = await context.newPage();
  other.on('dialog', (d) => void d.accept()); // "Delete … from the library?"
  await openApp(other);
  await other.getByTestId('tab-library').click();
  await other
    .locator('[data-testid="library-row"][data-path$="errors.md"]')
    .getByTestId('delete-document')
    .click();
  await expect(other.locator('[data-testid="library-row"][data-path$="errors.md"]')).toHaveCount(0);
  await other.close();
  // This tab still shows it; asking for related documents gets a clear message, not a crash.
  await page.getByTestId('related-selection').click();
  await expect(
    page.getByTestId('notice').filter({ hasText: 'The document was deleted from the library' }),
  ).toBeVisible();
  await expect(page.getByTestId('notice').filter({ hasText: 'Search again' })).toBeVisible();
});
