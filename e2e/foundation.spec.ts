// The foundation journey: import the fixtures (with per-file errors), search with highlights,
// open a result, reload, go offline, delete, and export/import the library. One browser
// context for the whole journey so OPFS and the service worker carry over between steps.
import { test, expect, type BrowserContext, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import {
  fixtureFiles,
  goOffline,
  importFiles,
  openApp,
  pwned,
  search,
  waitForImport,
} from './helpers';

test.describe.configure({ mode: 'serial' });

let context: BrowserContext;
let page: Page;

test.beforeAll(async ({ browser }) => {
  context = await browser.newContext();
  page = await context.newPage();
  page.on('dialog', (d) => void d.accept());
  await openApp(page);
});

test.afterAll(async () => {
  await context.close();
});

test('stores the library in OPFS and starts empty', async () => {
  await expect(page.getByTestId('storage-status')).toContainText('OPFS');
  await expect(page.getByTestId('empty-library')).toBeVisible();
});

test('imports the fixtures, reporting each bad file with its reason', async () => {
  await importFiles(page, fixtureFiles());
  await expect(page.getByTestId('import-counts')).toContainText('14/14 files');
  await expect(page.getByTestId('import-notes')).toContainText(
    'cafe-1252.txt" is not UTF-8: it was read as Windows-1252',
  );
  await page.getByRole('button', { name: /could not be imported/ }).click();
  const failures = page.getByTestId('import-failures').locator('li');
  await expect(failures).toHaveCount(7);
  const codes = await failures.evaluateAll((items) =>
    Object.fromEntries(
      items.map(
        (li) =>
          [li.querySelector('code')?.textContent ?? '', li.getAttribute('data-code')] as const,
      ),
    ),
  );
  expect(codes).toEqual({
    'binary.txt': 'INVALID_UTF8',
    'corrupt.docx': 'PARSE_FAILED',
    'corrupt.pdf': 'PARSE_FAILED',
    'empty.txt': 'EMPTY_FILE',
    'locked.pdf': 'PARSE_FAILED',
    'scan.pdf': 'NO_TEXT_LAYER',
    'unsupported.xyz': 'UNSUPPORTED_TYPE',
  });
  expect(await pwned(page)).toBe(false);
});

test('the page itself may connect only to its own origin (CSP connect-src)', async () => {
  const blocked = await page.evaluate(async () => {
    const violation = new Promise<string>((resolve) =>
      document.addEventListener('securitypolicyviolation', (e) => resolve(e.effectiveDirective), {
        once: true,
      }),
    );
    await fetch('https://example.org/').catch(() => undefined);
    return violation;
  });
  expect(blocked).toBe('connect-src');
});

test('asked the browser to keep the library on the first import; Settings shows the answer and usage', async () => {
  await page.getByTestId('tab-settings').click();
  // Headless Chromium answers persist() by its own heuristics: either answer is shown, never "not asked".
  const persist = page.getByTestId('storage-persist');
  await expect(persist).toHaveAttribute('data-state', /^(granted|refused)$/);
  const state = await persist.getAttribute('data-state');
  await expect(persist).toContainText(
    state === 'granted' ? 'The browser keeps your library' : 'refused persistent storage',
  );
  await expect(page.getByTestId('storage-usage')).toContainText(/Using .* of the .* \(\d+ %\)/);
  await expect(page.getByTestId('storage-quota-warning')).toHaveCount(0);
  await page.getByTestId('tab-search').click();
});

test('refuses a 100 MB text file without stopping the rest of the import', async () => {
  await page.getByTestId('import-progress').getByRole('button', { name: /Close/ }).click();
  // Built inside the page: handing 100 MB through the test driver would measure the driver.
  await page.getByTestId('file-input').evaluate((input: HTMLInputElement) => {
    const dt = new DataTransfer();
    dt.items.add(
      new File([new Uint8Array(100 * 1024 * 1024).fill(97)], 'huge.txt', { type: 'text/plain' }),
    );
    dt.items.add(
      new File(['The capybara file after the huge one still arrives.'], 'after-huge.txt'),
    );
    input.files = dt.files;
    input.dispatchEvent(new Event('change', { bubbles: true }));
  });
  await waitForImport(page);
  await expect(page.getByTestId('import-counts')).toContainText('2/2 files');
  await page.getByRole('button', { name: /could not be imported/ }).click();
  await expect(page.getByTestId('import-failures').locator('li')).toHaveAttribute(
    'data-code',
    'FILE_TOO_LARGE',
  );
  await search(page, 'capybara');
  await expect(page.getByTestId('result').first()).toContainText('after-huge.txt');
});

test('finds words from every format with highlighted snippets', async () => {
  const expectations: Array<[string, RegExp]> = [
    ['xylophone', /sample\.txt/],
    ['quokka', /notes\.md/],
    ['narwhal', /page\.html/],
    ['pelican', /report\.pdf/],
    ['wombat', /letter\.docx/],
    ['gooseberry', /hostile\.html/],
    ['cassoulet', /cafe-1252\.txt/],
  ];
  for (const [word, path] of expectations) {
    await search(page, word);
    const first = page.getByTestId('result').first();
    await expect(first).toContainText(path);
    await expect(first.locator('mark').first()).toHaveText(new RegExp(word, 'i'));
  }
  expect(await pwned(page)).toBe(false);
});

test('ranks and orders deterministically, and survives FTS syntax in the query', async () => {
  for (const hostile of [
    'NEAR(pelican',
    '"unbalanced quote',
    'pelican*^:',
    'AND OR NOT',
    'title:pelican',
  ]) {
    await search(page, hostile);
  }
  await expect(page.getByTestId('notice').filter({ hasText: /error/i })).toHaveCount(0);
  await search(page, 'pelican colony nests');
  // Entries in score order (best passage of each document); the page shows a relevance band,
  // never the normalised score itself.
  const results = page.getByTestId('result');
  const numbers = (await results.evaluateAll((els) => els.map((e) => e.dataset.score))).map(Number);
  expect(numbers.length).toBeGreaterThan(0);
  expect([...numbers].sort((a, b) => b - a)).toEqual(numbers);
  expect(numbers[0]).toBeLessThanOrEqual(1);
  await expect(results.locator('.score')).toHaveCount(0);
  await expect(results.first().getByTestId('relevance')).toHaveText(/^(High|Medium|Low)/);
});

test('opens a result with the matching chunk highlighted, by keyboard', async () => {
  await search(page, 'obsidian');
  await page.getByTestId('search-input').press('Enter');
  const viewer = page.getByTestId('viewer');
  await expect(viewer).toBeVisible();
  await expect(page.getByTestId('viewer-chunk')).toContainText('obsidian');
  await page.keyboard.press('Escape');
  await expect(viewer).toBeHidden();
});

test('keeps everything after a reload', async () => {
  await page.reload();
  await expect(page.getByTestId('storage-status')).toContainText('OPFS');
  await search(page, 'saffron');
  await expect(page.getByTestId('result').first()).toContainText('letter.docx');
});

test('loads and searches with the network off (service worker)', async () => {
  try {
    await goOffline(page, context);
    await search(page, 'narwhal');
    await expect(page.getByTestId('result').first()).toContainText('page.html');
  } finally {
    await context.setOffline(false);
  }
});

test('exports the library and imports it back', async () => {
  await page.getByTestId('tab-library').click();
  await expect(page.getByTestId('library-row')).toHaveCount(8);
  const downloadPromise = page.waitForEvent('download');
  await page.getByTestId('export-library').click();
  const download = await downloadPromise;
  const file = await download.path();
  const bytes = readFileSync(file);
  expect(bytes.subarray(0, 15).toString('latin1')).toBe('SQLite format 3');

  // A file that is not a library is refused and nothing is lost.
  await page.getByTestId('library-file-input').setInputFiles({
    name: 'not-a-library.sqlite',
    mimeType: 'application/octet-stream',
    buffer: Buffer.from('definitely not sqlite'),
  });
  await expect(page.getByTestId('notice').filter({ hasText: /not a Sift library/ })).toBeVisible();
  await expect(page.getByTestId('library-row')).toHaveCount(8);

  await page.getByTestId('library-file-input').setInputFiles(file);
  await expect(
    page.getByTestId('notice').filter({ hasText: /Library imported: 8 documents/ }),
  ).toBeVisible();
  await expect(page.getByTestId('library-row')).toHaveCount(8);
});

test('deletes a document with its chunks', async () => {
  const row = page.locator('[data-testid="library-row"][data-path="sample.txt"]');
  await row.getByTestId('delete-document').click();
  await expect(page.getByTestId('library-row')).toHaveCount(7);
  await page.getByTestId('tab-search').click();
  await search(page, 'xylophone');
  // Semantic search always returns the nearest chunks, so check the document itself is gone.
  await expect(page.getByTestId('result').filter({ hasText: 'sample.txt' })).toHaveCount(0);
  await page.getByTestId('mode').selectOption('lexical');
  await search(page, 'xylophone');
  await expect(page.getByTestId('no-results')).toBeVisible();
  expect(await pwned(page)).toBe(false);
});
