// Research projects end to end (issue 17): create a project, import two fixtures (one supports a
// claim, the other contradicts another), enter the two claims, check them and see LIKELY /
// CONTESTED with the supporting / contradicting sentence (opening the document at it), audit a
// draft with a wrong citation (not PASS) and replace it, export the report, index_metadata.json and
// retrieval_audit.md and validate their shape, with a fake API key saved in Settings that no
// export may contain; the printed page hides the controls; 500 pasted claims show progress and
// cancel while the UI stays usable.
import { readFile } from 'node:fs/promises';
import { test, expect, type Page } from '@playwright/test';
import { RETRIEVAL_AUDIT_HEADINGS } from '../workers/projects/export-spec.testkit';
import { ask, CLAIM_FIXTURES, importFiles, openApp } from './helpers';

const SUPPORTED = 'Smoking increases the risk of lung cancer.';
const CONTRADICTED = 'Green tea consumption increases bone density.';
const FAKE_KEY = 'sk-e2e-FAKE-key-0123456789abcdef';

test.describe.configure({ mode: 'serial' });

async function setUp(page: Page): Promise<void> {
  await openApp(page);
  await importFiles(page, CLAIM_FIXTURES);
  await expect(page.getByTestId('semantic-pill')).toHaveAttribute('data-phase', 'ready', {
    timeout: 90_000,
  });
  await page.keyboard.press('Alt+6');
  await expect(page.getByRole('navigation', { name: 'Projects' })).toBeVisible();
  await page.getByTestId('project-name').fill('Lungs and bones');
  await page.getByTestId('project-question').fill('What do my sources say?');
  await page.getByTestId('project-create').click();
  await expect(page.getByTestId('project-title')).toHaveText('Lungs and bones');
  await page.getByTestId('project-add').locator('summary').click();
  await page.getByTestId('project-add-all').click();
  await expect(page.getByTestId('project-doc-count')).toContainText('2 documents');
}

async function download(page: Page, testid: string): Promise<{ name: string; text: string }> {
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId(testid).click(),
  ]);
  return { name: file.suggestedFilename(), text: await readFile(await file.path(), 'utf8') };
}

/** Each of `lines` stands as a whole line of `text` (a heading, not words inside a paragraph). */
function expectLines(text: string, lines: readonly string[]): void {
  for (const line of lines) expect(text.split('\n')).toContain(line);
}

test('claims triangulated with evidence, a citation audit, exports in the spec shapes, print', async ({
  page,
}) => {
  // A web provider key saved on this device: no export may contain it.
  await openApp(page);
  await page.keyboard.press('Alt+3');
  await page.getByTestId('web-provider-key-brave').fill(FAKE_KEY);
  await page.getByTestId('web-provider-key-brave').press('Enter');
  await expect(page.getByTestId('web-provider-key-brave')).toHaveAttribute(
    'placeholder',
    'saved on this device',
  );

  await setUp(page);
  await page.getByTestId('claims-text').fill(`${SUPPORTED}\n${CONTRADICTED}\n`);
  await page.getByTestId('claims-save').click();
  await expect(page.getByTestId('claim-row')).toHaveCount(2);
  await page.getByTestId('claims-check').click();
  const rows = page.getByTestId('claim-row');
  await expect(rows.nth(0).getByTestId('claim-status')).toHaveText('LIKELY', { timeout: 60_000 });
  await expect(rows.nth(1).getByTestId('claim-status')).toHaveText('CONTESTED', {
    timeout: 60_000,
  });
  await expect(page.getByTestId('claims-summary')).toHaveText('LIKELY 1 · CONTESTED 1');
  const support = rows.nth(0).locator('[data-testid="evidence"][data-role="supporting"]');
  await expect(support).toHaveCount(1);
  await expect(support).toContainText('smoking-cohort');
  await expect(support).toContainText(/grade [A-E] · tier own/);
  const against = rows.nth(1).locator('[data-testid="evidence"][data-role="contradicting"]');
  await expect(against).toHaveCount(1);
  await expect(against).toContainText('green-tea-trial');
  // The evidence sentence opens the document with that sentence highlighted.
  await against.getByTestId('evidence-sentence').first().click();
  await expect(page.getByTestId('viewer-cited')).toHaveText(
    'Green tea consumption decreased bone density in postmenopausal women.',
  );
  await page.getByTestId('viewer-close').click();

  // Citation audit: [1] right, [2] wrong (cites the smoking study for green tea), [3] not indexed.
  await page
    .getByTestId('audit-draft')
    .fill(
      [
        `${SUPPORTED} [1]`,
        `${CONTRADICTED} [2]`,
        'Bridges last a century [3].',
        '',
        'References',
        '[1] smoking-cohort.txt',
        '[2] smoking-cohort.txt',
        '[3] notes/never-imported.txt',
      ].join('\n'),
    );
  await page.getByTestId('audit-run').click();
  const audit = page.getByTestId('audit-row');
  await expect(audit).toHaveCount(3);
  await expect(audit.nth(0)).toHaveAttribute('data-status', 'PASS');
  await expect(audit.nth(1)).not.toHaveAttribute('data-status', 'PASS');
  await expect(audit.nth(2)).toHaveAttribute('data-status', 'SOURCE_NOT_INDEXED');
  // Replace the wrong citation: the draft cites the green tea trial as [4] and the row is re-audited.
  const replace = audit.nth(1).getByTestId('audit-replace');
  const greenTea = await replace.locator('option', { hasText: /green/i }).getAttribute('value');
  await replace.selectOption(greenTea);
  await expect(page.getByTestId('audit-draft')).toHaveValue(/\[4\] green-tea-trial\.txt/);
  await expect(audit).toHaveCount(3);
  await expect(audit.nth(1)).toContainText('[4] green-tea-trial.txt');
  await expect(audit.nth(1)).toContainText('(source contradicts)');
  await expect(audit.nth(0)).toHaveAttribute('data-status', 'PASS');

  // Exports: shapes as the spec gives them, and no API key anywhere.
  const report = await download(page, 'export-report');
  expect(report.name).toBe('lungs-and-bones-report.md');
  expectLines(report.text, [
    '# Lungs and bones',
    '## Question',
    '## Claims',
    '## Citation audit',
    '## References',
  ]);
  expect(report.text).toContain(`| ${SUPPORTED} | LIKELY |`);
  expect(report.text).toContain(`| ${CONTRADICTED} | CONTESTED |`);
  const meta = await download(page, 'export-index-metadata');
  expect(meta.name).toBe('index_metadata.json');
  const json = JSON.parse(meta.text) as Record<string, unknown>;
  expect(Object.keys(json).sort()).toEqual([
    'document_count',
    'index_built',
    'indexed_hashes',
    'retrieval_stats',
    'sources',
  ]);
  expect(json).toMatchObject({ index_built: true, document_count: 2 });
  expect(json.indexed_hashes).toHaveLength(2);
  for (const h of json.indexed_hashes as string[]) {
    expect(h).toMatch(/^[0-9a-f]{12}$/);
    expect(Object.keys((json.sources as Record<string, object>)[h]!).sort()).toEqual([
      'fetch_date',
      'passage_count',
      'quality',
      'title',
      'url',
    ]);
  }
  expect(Object.keys(json.retrieval_stats as object).sort()).toEqual([
    'avg_results_per_query',
    'cache_hit_rate',
    'total_queries',
  ]);
  const retrieval = await download(page, 'export-retrieval-audit');
  expect(retrieval.name).toBe('retrieval_audit.md');
  expectLines(retrieval.text, RETRIEVAL_AUDIT_HEADINGS);
  expect(retrieval.text).toContain('| SOURCE_NOT_INDEXED |');
  for (const file of [report, meta, retrieval]) {
    expect(file.text).not.toContain(FAKE_KEY);
    expect(file.text).not.toContain('0123456789abcdef');
  }

  // The printed page: the project without the controls.
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByTestId('claim-row').first()).toBeVisible();
  await expect(page.getByTestId('audit-table')).toBeVisible();
  await expect(page.getByRole('tablist', { name: 'Views' })).toBeHidden();
  await expect(page.getByTestId('claims-text')).toBeHidden();
  await expect(page.getByTestId('export-report')).toBeHidden();
  await page.emulateMedia({ media: 'screen' });
  await expect(page.getByTestId('export-report')).toBeVisible();
});

/** Pastes 500 claims into a new project and starts checking them; the check's progress line. */
async function checkManyClaims(page: Page) {
  await setUp(page);
  const many = Array.from(
    { length: 500 },
    (_, i) => `Smoking habit number ${i} raises lung cancer risk.`,
  );
  await page.getByTestId('claims-text').fill(many.join('\n'));
  await page.getByTestId('claims-save').click();
  await expect(page.getByTestId('claim-row')).toHaveCount(500);
  await page.getByTestId('claims-check').click();
  const progress = page.getByTestId('claims-progress');
  await expect(progress).toContainText(/[1-9]\d* of 500 claims checked/);
  return progress;
}

test('500 pasted claims: progress, the UI stays usable, cancel stops the run', async ({ page }) => {
  const progress = await checkManyClaims(page);
  // The page answers while claims are checked: type in the draft box, switch view and back.
  await page.getByTestId('audit-draft').fill('Typing while claims are checked.');
  await expect(page.getByTestId('audit-draft')).toHaveValue('Typing while claims are checked.');
  await page.getByTestId('claims-cancel').click();
  await expect(progress).toBeHidden();
  await expect(page.getByTestId('notice').last()).toContainText(
    /Claim check cancelled: \d+ of 500 claims checked/,
  );
  const checked = await page
    .getByTestId('claim-status')
    .evaluateAll((els) => els.filter((e) => e.textContent !== 'NOT CHECKED').length);
  expect(checked).toBeGreaterThan(0);
  expect(checked).toBeLessThan(500);
});

test('the project deleted while its claims are checked: the run stops, nothing breaks', async ({
  page,
}) => {
  const progress = await checkManyClaims(page);
  page.once('dialog', (d) => void d.accept());
  await page.getByTestId('project-delete').click();
  await expect(page.getByTestId('project-item')).toHaveCount(0);
  await expect(progress).toBeHidden();
  await expect(page.getByTestId('notice').last()).toContainText(
    /Claim check cancelled: \d+ of 500 claims checked/,
  );
  await expect(page.getByTestId('claim-row')).toHaveCount(0);
  // The view still works: a new project can be made and shows no claims of the old one.
  await page.getByTestId('project-name').fill('Second');
  await page.getByTestId('project-create').click();
  await expect(page.getByTestId('project-title')).toHaveText('Second');
  await expect(page.getByTestId('claim-row')).toHaveCount(0);
  await expect(page.getByTestId('project-item')).toHaveCount(1);
});

test('a kept answer: its cited documents join the project and its citations are audited', async ({
  page,
}) => {
  await openApp(page);
  await importFiles(page, CLAIM_FIXTURES);
  await page.keyboard.press('Alt+4');
  const question = 'Does smoking increase the risk of lung cancer?';
  await ask(page, question);
  await page.keyboard.press('Alt+6');
  await page.getByTestId('project-name').fill('From an answer');
  await page.getByTestId('project-create').click();
  await expect(page.getByTestId('project-title')).toHaveText('From an answer');
  await page.getByTestId('project-add-answer').selectOption({ label: question });
  await expect(page.getByTestId('project-members')).toContainText('smoking-cohort');
  await page.getByTestId('audit-answer').selectOption({ label: question });
  await expect(page.getByTestId('audit-draft')).toHaveValue(/\[1\]/);
  await page.getByTestId('audit-run').click();
  const rows = page.getByTestId('audit-row');
  await expect(rows.first()).toBeVisible();
  await expect(rows.first()).toContainText('smoking-cohort');
  await expect(rows.first()).not.toHaveAttribute('data-status', 'SOURCE_NOT_INDEXED');
});

test('claims from a draft: split by default, restated by the language model on request', async ({
  page,
}) => {
  await page.goto('/?llm=scripted');
  await expect(page.getByTestId('storage-status')).toBeVisible();
  await page.keyboard.press('Alt+4');
  await expect(page.getByTestId('answer-mode')).toContainText('scripted');
  await page.keyboard.press('Alt+6');
  await page.getByTestId('project-name').fill('Drafts');
  await page.getByTestId('project-create').click();
  await expect(page.getByTestId('project-title')).toHaveText('Drafts');
  await page
    .getByTestId('audit-draft')
    .fill(
      'Smoking raises lung cancer risk, and it shortens life expectancy [1].\nIs tea good?\n\n[1] a.txt',
    );
  await page.getByTestId('claims-extract').click();
  await expect(page.getByTestId('claims-text')).toHaveValue(
    'Smoking raises lung cancer risk, and it shortens life expectancy.',
  );
  // The scripted generator splits ", and ": the list now comes from the model.
  await page.getByTestId('claims-extract-llm').click();
  await expect(page.getByTestId('claims-text')).toHaveValue(
    'Smoking raises lung cancer risk.\nit shortens life expectancy.',
  );
  await expect(page.getByTestId('claims-extract-llm')).toBeEnabled();
});

test('provenance on hits: imported files are own documents (grade C) until the user grades them; filter and order by grade', async ({
  page,
}) => {
  await openApp(page);
  await importFiles(page, CLAIM_FIXTURES);
  await page.getByTestId('tab-search').click();
  await page.getByTestId('search-input').fill('green tea bone density smoking');
  const results = page.getByTestId('result');
  await expect(results).toHaveCount(2);
  const provenance = page.getByTestId('result-provenance');
  await expect(provenance.nth(0)).toContainText('own document · grade C · imported');
  await expect(provenance.nth(1)).toContainText('own document · grade C');

  // Grade the smoking cohort A in the viewer: its hit says so, and it comes first by grade.
  await results.filter({ hasText: 'smoking-cohort' }).click();
  await expect(page.getByTestId('viewer-provenance')).toContainText('own document');
  await page.getByTestId('viewer-grade').selectOption('A');
  await page.getByTestId('viewer-close').click();
  await page.getByTestId('result-order').selectOption('grade');
  await expect(results.first()).toHaveAttribute('data-path', /smoking-cohort/);
  await expect(provenance.first()).toHaveAttribute('data-grade', 'A');

  // B or better: only the graded document is searched.
  await page.getByTestId('filters-toggle').click();
  await page.getByTestId('filter-grade').selectOption('B');
  await expect(results).toHaveCount(1);
  await expect(results.first()).toHaveAttribute('data-path', /smoking-cohort/);
  await page.getByTestId('filter-grade').selectOption('C');
  await expect(results).toHaveCount(2);
});
