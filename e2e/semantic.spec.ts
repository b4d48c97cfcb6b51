// Semantic and hybrid search in the browser: the shipped USE-lite model embeds the library
// offline on the canonical WASM path, semantic mode finds meaning without shared words, hybrid
// shows which list found each hit, results are identical after a reload, and the determinism
// self-test reproduces the golden vector hashes computed in Node byte for byte.
import { test, expect, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixtureFiles, openApp, search, waitForImport } from './helpers';

test.describe.configure({ mode: 'serial' });

async function waitForSemantic(page: Page): Promise<void> {
  await expect(page.getByTestId('semantic-pill')).toHaveAttribute('data-phase', 'ready', {
    timeout: 90_000,
  });
}

async function setMode(page: Page, mode: 'hybrid' | 'lexical' | 'semantic'): Promise<void> {
  await page.getByTestId('mode').selectOption(mode);
}

async function resultList(page: Page) {
  return page
    .getByTestId('result')
    .evaluateAll((items) =>
      items.map((li) => [
        li.querySelector('[data-testid="result-title"]')?.textContent,
        li.querySelector('.path')?.textContent,
        li.getAttribute('data-score'),
        li.getAttribute('data-passages'),
        li.querySelector('[data-testid="relevance"]')?.getAttribute('data-band'),
      ]),
    );
}

let page: Page;

test.beforeAll(async ({ browser }) => {
  const context = await browser.newContext();
  page = await context.newPage();
  await openApp(page);
  await page.getByTestId('file-input').setInputFiles(fixtureFiles());
  await waitForImport(page);
  await waitForSemantic(page);
});

test('semantic mode finds meaning where keywords find nothing', async () => {
  await setMode(page, 'lexical');
  await search(page, 'seabirds');
  await expect(page.getByTestId('no-results')).toBeVisible();
  await setMode(page, 'semantic');
  await search(page, 'whales in the arctic');
  const first = page.getByTestId('result').first();
  await expect(first).toContainText('page.html');
  await expect(first).toContainText('semantic #1');
});

test('hybrid fuses both lists and says which found each hit', async () => {
  await setMode(page, 'hybrid');
  await search(page, 'pelican nests on the cliffs');
  const first = page.getByTestId('result').first();
  await expect(first).toContainText('report.pdf');
  await expect(first).toContainText('lexical #1');
  await expect(first).toContainText(/semantic #\d/);
});

test('hybrid results are identical after a reload', async () => {
  await setMode(page, 'hybrid');
  await search(page, 'coastal birds and jam jars');
  const before = await resultList(page);
  expect(before.length).toBeGreaterThan(2);
  await page.reload();
  await waitForSemantic(page);
  await setMode(page, 'hybrid');
  await search(page, 'coastal birds and jam jars');
  expect(await resultList(page)).toEqual(before);
});

test('the browser computes the same int16 vectors as Node (golden hashes)', async () => {
  await page.getByTestId('tab-settings').click();
  await page.getByTestId('self-test').click();
  const result = page.getByTestId('self-test-result');
  await expect(result).toHaveAttribute('data-ok', 'true', { timeout: 90_000 });
  // Compare the hashes the browser computed with the golden file written in Node.
  const golden = JSON.parse(
    readFileSync(join(process.cwd(), 'wasm/golden/use-lite-int16-sha256.json'), 'utf8'),
  ) as { entries: Array<{ sha256: string }> };
  const browserHashes = (await result.getAttribute('data-hashes'))?.split(',') ?? [];
  expect(browserHashes).toEqual(golden.entries.map((e) => e.sha256));
  expect(browserHashes.length).toBeGreaterThanOrEqual(50);
});
