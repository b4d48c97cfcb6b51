// Durability: two tabs writing at once, a tab closed in the middle of an import, and a browser
// restart. Each test uses its own browser context (its own OPFS) so they do not interfere.
import { test, expect, chromium } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHROMIUM_ARGS } from '../playwright.config';
import { FIXTURES, openApp, search, waitForImport } from './helpers';

/** `count` distinct text files of about `size` characters, each with a unique marker word. */
function generatedFiles(prefix: string, count: number, size = 4000) {
  return Array.from({ length: count }, (_, i) => {
    const marker = `${prefix}marker${i}`;
    const para = `Paragraph about ${marker} and the lighthouse keeper's logbook entry number ${i}. `;
    const body = `${marker}\n\n${para.repeat(Math.ceil(size / para.length))}`;
    return {
      name: `${prefix}-${String(i).padStart(4, '0')}.txt`,
      mimeType: 'text/plain',
      buffer: Buffer.from(body),
    };
  });
}

test('two tabs importing at the same time both land, without corruption', async ({ browser }) => {
  const context = await browser.newContext();
  const a = await context.newPage();
  const b = await context.newPage();
  await openApp(a);
  await openApp(b);
  await Promise.all([
    a.getByTestId('file-input').setInputFiles(generatedFiles('alpha', 15)),
    b.getByTestId('file-input').setInputFiles(generatedFiles('beta', 15)),
  ]);
  await Promise.all([waitForImport(a), waitForImport(b)]);
  await expect(a.getByTestId('import-counts')).toContainText('15/15 files · ');
  await expect(a.getByTestId('import-counts')).toContainText(' 0 errors');
  await expect(b.getByTestId('import-counts')).toContainText(' 0 errors');
  // Each tab sees the other's writes (keyword mode: these files differ only in their markers).
  await a.getByTestId('mode').selectOption('lexical');
  await b.getByTestId('mode').selectOption('lexical');
  await search(a, 'betamarker7');
  await expect(a.getByTestId('result').first()).toContainText('beta-0007.txt');
  await search(b, 'alphamarker3');
  await expect(b.getByTestId('result').first()).toContainText('alpha-0003.txt');
  await a.getByTestId('tab-library').click();
  await expect(a.getByTestId('library-count')).toContainText('30 documents');
  await context.close();
});

test('a tab closed in the middle of an import leaves no half document', async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await openApp(page);
  const files = generatedFiles('crash', 120, 20_000);
  await page.getByTestId('file-input').setInputFiles(files);
  await expect(page.getByTestId('import-counts')).toContainText(/^(?:[3-9]|\d\d)\/120 files/, {
    timeout: 60_000,
  });
  await page.close({ runBeforeUnload: false }); // the worker dies with the tab, mid-transaction

  const again = await context.newPage();
  await openApp(again);
  await again.getByTestId('tab-library').click();
  const rows = again.getByTestId('library-row');
  const count = await rows.count();
  expect(count).toBeGreaterThan(0);
  expect(count).toBeLessThan(120);
  // Every stored document has all of its chunks: 20,000 characters make well over 30 chunks.
  const chunkCounts = await rows.locator('td:nth-child(4)').allTextContents();
  for (const c of chunkCounts) expect(Number(c)).toBeGreaterThan(30);
  // Importing the same files again completes the library; stored ones are recognised as unchanged.
  await again.getByTestId('file-input').setInputFiles(files);
  await waitForImport(again);
  await expect(again.getByTestId('import-counts')).toContainText('120/120 files');
  await expect(again.getByTestId('library-count')).toContainText('120 documents');
  await context.close();
});

test('the library survives closing and reopening the browser', async ({ baseURL }) => {
  const profile = mkdtempSync(join(tmpdir(), 'sift-profile-'));
  try {
    const launch = () =>
      chromium.launchPersistentContext(profile, {
        executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
        args: CHROMIUM_ARGS,
        headless: true,
        ...(baseURL ? { baseURL } : {}),
      });
    let context = await launch();
    let page = context.pages()[0] ?? (await context.newPage());
    await openApp(page);
    await page.getByTestId('file-input').setInputFiles(join(FIXTURES, 'notes.md'));
    await waitForImport(page);
    await context.close();

    context = await launch();
    page = context.pages()[0] ?? (await context.newPage());
    await openApp(page);
    await search(page, 'heliotrope');
    await expect(page.getByTestId('result').first()).toContainText('notes.md');
    await context.close();
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
});
