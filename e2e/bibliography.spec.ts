// Bibliographic data end to end (issue 28 item 4): a Zotero data folder (a synthetic
// zotero.sqlite with Zotero's tables, PDFs under storage/) is imported: its PDFs become
// documents that carry their Zotero record and its collections become projects; the viewer shows
// the author-year citation and saves an edit; a BibTeX file links to a document by file name; a
// project's references download as BibTeX and CSL-JSON; answers and the report cite author-year.
import { test, expect, type Page } from '@playwright/test';
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makePdf } from './fixtures/make-fixtures';
import { ask, openApp, search } from './helpers';
import { openNodeDatabase } from '../workers/store/open-database-node';
import { ZOTERO_FIXTURE_FILES, zoteroFixtureBytes } from '../workers/store/zotero-fixture.testkit';

let dir = '';

test.beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sift-zotero-'));
  const root = join(dir, 'Zotero');
  mkdirSync(root);
  const db = await openNodeDatabase();
  writeFileSync(join(root, 'zotero.sqlite'), await zoteroFixtureBytes(db));
  await db.close();
  for (const [path, text] of Object.entries(ZOTERO_FIXTURE_FILES)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), makePdf([[text]], 'untitled'));
  }
  writeFileSync(
    join(dir, 'refs.bib'),
    '@techreport{chen2020, title = {Green tea and blood pressure: a trial}, author = {Chen, Mei and Wong, Li}, year = 2020, file = {:green-tea.pdf:PDF}}\n',
  );
});
test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function openDocument(page: Page, query: string): Promise<void> {
  await page.keyboard.press('Alt+1');
  await search(page, query);
  await page.getByTestId('result').first().click();
  await expect(page.getByTestId('viewer')).toBeVisible();
}

async function download(page: Page, testid: string): Promise<string> {
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId(testid).click(),
  ]);
  return readFileSync(await file.path(), 'utf8');
}

test('a Zotero folder, an edit, a BibTeX file and a project’s references', async ({ page }) => {
  await openApp(page);
  await page.keyboard.press('Alt+2'); // the reference imports sit in the Library view
  await page.getByTestId('zotero-input').setInputFiles(join(dir, 'Zotero'));
  await expect(page.getByTestId('notice').last()).toContainText(
    'Zotero: 2 items, 2 files imported, 2 with their Zotero data; projects: Smoking, Smoking / Trials.',
    { timeout: 60_000 },
  );

  await openDocument(page, 'mortality doctors smoking');
  await expect(page.getByTestId('biblio-cite')).toHaveText('Doll & Hill 1954');
  await expect(page.getByTestId('biblio-doi')).toContainText('10.1136/bmj.1.4877.1451');
  await page.getByTestId('biblio-edit').click();
  await page.getByTestId('biblio-year').fill('1955');
  await page.getByTestId('biblio-save').click();
  await expect(page.getByTestId('biblio-cite')).toHaveText('Doll & Hill 1955');

  await page.keyboard.press('Alt+2');
  await page.getByTestId('references-input').setInputFiles(join(dir, 'refs.bib'));
  await expect(page.getByTestId('notice').last()).toContainText(
    'References from refs.bib: 1 entries, 1 linked to documents.',
  );
  await openDocument(page, 'green tea blood pressure');
  await expect(page.getByTestId('biblio-cite')).toHaveText('Chen & Wong 2020');

  // The edit survives a reload and an import does not overwrite it.
  await page.reload();
  await expect(page.getByTestId('storage-status')).toBeVisible();
  await openDocument(page, 'mortality doctors smoking');
  await expect(page.getByTestId('biblio-cite')).toHaveText('Doll & Hill 1955');

  // The answer's reference list cites author-year.
  await page.keyboard.press('Alt+4');
  await ask(page, 'What happened to the mortality of doctors who smoked?');
  await expect(
    page
      .getByTestId('answer')
      .getByTestId('reference-cite')
      .filter({ hasText: 'Doll & Hill 1955' }),
  ).toHaveCount(1);

  await page.keyboard.press('Alt+6');
  await page
    .getByTestId('project-item')
    .filter({ hasText: /^Smoking$/ })
    .click();
  const bib = await download(page, 'export-bibtex');
  expect(bib).toContain('@article{doll1955,');
  expect(bib).toContain('doi = {10.1136/bmj.1.4877.1451}');
  expect(bib).toContain('author = {Doll, Richard and Hill, A. Bradford}');
  const report = await download(page, 'export-report');
  // The report's Markdown escapes the ampersand (safe-markdown); it renders as "&".
  expect(report).toMatch(/## References\n1\. Doll \\& Hill 1955\. /);
  const csl = JSON.parse(await download(page, 'export-csl-json')) as Array<{ id: string }>;
  expect(csl.map((c) => c.id)).toEqual(['doll1955']);
});
