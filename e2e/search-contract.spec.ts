// Every search path honours the user's filters (issue 15): filtered to one folder, the optimised
// search shows only that folder; "find related" on a paragraph selected in the viewer shows other
// documents, never the open one. A folder with two sub-folders on the same topics is imported.
import { test, expect, type Page } from '@playwright/test';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openApp, waitForImport } from './helpers';

const TOPICS: Record<string, string> = {
  'pelicans.txt':
    'The coastal pelican colony nests on the cliffs every spring and feeds on fish in the bay.\n\nGulls share the cliffs with the pelicans.',
  'seabirds.md':
    'Seabirds such as gulls and pelicans breed on rocky sea cliffs and dive for fish.\n\nTheir colonies are loud in spring.',
  'aspirin.txt':
    'Aspirin lowers the risk of heart attack by inhibiting platelet aggregation in the blood.',
};

/** research/notes/* and research/archive/*: the same topics in both sub-folders. */
function libraryFolder(): string {
  const root = join(mkdtempSync(join(tmpdir(), 'sift-contract-')), 'research');
  for (const sub of ['notes', 'archive']) {
    mkdirSync(join(root, sub), { recursive: true });
    for (const [name, text] of Object.entries(TOPICS))
      writeFileSync(join(root, sub, name), `${text}\n\n(${sub} copy)\n`);
  }
  return root;
}

async function importFolder(page: Page): Promise<void> {
  await openApp(page);
  await page.getByTestId('dir-input').setInputFiles(libraryFolder());
  await waitForImport(page);
  await expect(page.getByTestId('semantic-pill')).toHaveAttribute('data-phase', 'ready', {
    timeout: 90_000,
  });
}

test('filtered to one folder, the optimised search shows only that folder', async ({ page }) => {
  await importFolder(page);
  await page.getByTestId('filters-toggle').click();
  await page.getByTestId('filter-path').fill('**/notes/**');
  await page.getByTestId('optimise-toggle').check();
  // Every technique on: the plan fans out into several retrievals, each must keep the filter.
  for (const t of ['rewrite', 'hyde', 'fusion', 'keyphrases'])
    await page.getByTestId(`plan-switch-${t}`).check();
  const query = 'Where do pelicans and other seabirds nest on the cliffs?';
  await page.getByTestId('search-input').fill(query);
  await page.getByTestId('search-input').press('Enter');
  await expect(page.getByTestId('result-meta')).toHaveAttribute('data-query', query, {
    timeout: 60_000,
  });
  const paths = await page
    .getByTestId('result')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-path') ?? ''));
  expect(paths.length).toBeGreaterThan(0);
  for (const p of paths) expect(p).toMatch(/\/notes\//);
  // The panel says why the techniques are off by default.
  await expect(page.getByTestId('plan-why-fusion')).toContainText('measured −0.098 nDCG@10');
});

test('select a paragraph in the viewer, find related, see other documents', async ({ page }) => {
  await importFolder(page);
  await page.getByTestId('search-input').fill('pelican colony');
  await expect(page.getByTestId('result').first()).toBeVisible();
  await page.getByTestId('result').first().click();
  const body = page.getByTestId('viewer-body');
  await expect(body).toBeVisible();
  const openPath = (await page.getByTestId('result').first().getAttribute('data-path')) ?? '';
  // Select the first paragraph (as a user would drag over it) and ask for related passages.
  await body.evaluate((el) => {
    const text = el.firstChild ?? el;
    const range = document.createRange();
    const node =
      text.nodeType === Node.TEXT_NODE ? text : (el.querySelector('mark')?.firstChild ?? el);
    const content = node.textContent ?? '';
    range.setStart(node, 0);
    range.setEnd(
      node,
      Math.max(1, content.indexOf('\n') > 0 ? content.indexOf('\n') : content.length),
    );
    const sel = window.getSelection()!;
    sel.removeAllRanges();
    sel.addRange(range);
  });
  await body.dispatchEvent('mouseup');
  await expect(page.getByTestId('related-selection')).toHaveText('Find related to the selection');
  await page.getByTestId('related-selection').click();
  await expect(page.getByTestId('related-head')).toContainText('Related to the selection in');
  const paths = await page
    .getByTestId('result')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-path') ?? ''));
  expect(paths.length).toBeGreaterThan(0);
  expect(paths).not.toContain(openPath);
  expect(paths[0]).toMatch(/pelicans\.txt|seabirds\.md/);
  // More like this on a hit works the same way and never returns the hit's own document.
  const first = page.getByTestId('result').first();
  const firstPath = (await first.getAttribute('data-path')) ?? '';
  await first.getByTestId('more-like-this').click();
  await expect(page.getByTestId('related-head')).toContainText('Related to a passage of');
  const again = await page
    .getByTestId('result')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-path') ?? ''));
  expect(again).not.toContain(firstPath);
});
