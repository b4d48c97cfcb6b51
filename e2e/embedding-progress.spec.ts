// Embedding a library big enough to take a while (USE-lite, the shipped model): Pause stops the
// count (and stays paused after a reload) while search keeps working and says meaning search covers
// only the embedded part; Resume (from the keyboard) continues with chunks/s and time left; a
// reload mid-run resumes where it stopped, and the run completes; Cancel says the run stopped and
// stays stopped over a reload until "Embed the rest". On a (simulated) 4-core device
// the backlog runs on three embed workers, and the Settings choice of fewer is applied and kept.
import { test, expect, type Page } from '@playwright/test';
import { openApp, search, waitForImport } from './helpers';

const FILES = 12;
const PARAGRAPHS_PER_FILE = 80; // ~480 characters each: about 900 chunks

function library() {
  const words = ['harbour', 'lantern', 'glacier', 'orchard', 'meadow', 'quarry', 'estuary'];
  return Array.from({ length: FILES }, (_, f) => {
    const paragraphs = Array.from({ length: PARAGRAPHS_PER_FILE }, (_, p) => {
      const w = words[(f * 7 + p) % words.length];
      return `Survey ${f}-${p} of the ${w} notes marker m${f}x${p} and its ${w} records. `.repeat(
        6,
      );
    });
    return {
      name: `progress-${String(f).padStart(2, '0')}.txt`,
      mimeType: 'text/plain',
      buffer: Buffer.from(paragraphs.join('\n\n')),
    };
  });
}

const status = (page: Page) => page.getByTestId('semantic-status');

async function counts(page: Page): Promise<{ embedded: number; total: number }> {
  const el = page.getByTestId('semantic-counts');
  return {
    embedded: Number(await el.getAttribute('data-embedded')),
    total: Number(await el.getAttribute('data-total')),
  };
}

test('embedding pauses, resumes and survives a reload mid-run', async ({ page }) => {
  // The backlog runs at whatever speed this machine has: the waits are generous, never gates.
  test.setTimeout(600_000);
  await openApp(page);
  await page.getByTestId('file-input').setInputFiles(library());

  // Pause as soon as embedding starts (by the button's accessible name), import still running.
  await expect(status(page)).toHaveAttribute('data-phase', 'embedding', { timeout: 120_000 });
  await page.getByRole('button', { name: 'Pause embedding' }).click();
  await expect(status(page)).toHaveAttribute('data-phase', 'paused');
  await waitForImport(page, 180_000);
  const chunks = Number(
    (await page.getByTestId('import-counts').textContent())?.match(/(\d+) chunks/)?.[1] ?? 0,
  );
  expect(chunks).toBeGreaterThan(800);
  // Writes during a pause are counted in the backlog but not embedded.
  await expect.poll(async () => (await counts(page)).total).toBe(chunks);
  const paused = (await counts(page)).embedded;
  expect(paused).toBeLessThan(chunks);
  await page.waitForTimeout(2_000);
  expect((await counts(page)).embedded).toBe(paused);

  // Search keeps working: a chunk that is not embedded yet is found by its keywords, and the
  // page says meaning search covers only the embedded part.
  await expect(page.getByTestId('semantic-partial')).toContainText('keywords only');
  await search(page, 'marker m11x42');
  await expect(
    page.getByTestId('result').filter({ hasText: 'progress-11.txt' }).first(),
  ).toContainText('lexical #1');
  await expect(page.getByTestId('result-meta')).toContainText(
    `meaning search covers ${paused.toLocaleString('en')} of ${chunks.toLocaleString('en')} chunks`,
  );

  // A pause is kept over a reload.
  await page.reload();
  await expect(status(page)).toHaveAttribute('data-phase', 'paused', { timeout: 60_000 });
  expect(await counts(page)).toEqual({ embedded: paused, total: chunks });

  // Resume from the keyboard: the count advances, with its rate, time left and workers.
  const resume = page.getByRole('button', { name: 'Resume embedding' });
  await resume.focus();
  await page.keyboard.press('Enter');
  await expect(status(page)).toHaveAttribute('data-phase', 'embedding');
  await expect(page.getByTestId('semantic-rate')).toContainText(
    /[\d.]+ chunks\/s · .+ left · \d+ workers?/,
    { timeout: 60_000 },
  );
  console.log(`embedding: ${await page.getByTestId('semantic-rate').textContent()}`);
  await expect.poll(async () => (await counts(page)).embedded).toBeGreaterThan(paused);

  // A reload mid-run: what was embedded stays, and the run carries on by itself.
  const beforeReload = (await counts(page)).embedded;
  expect(beforeReload).toBeLessThan(chunks);
  await page.reload();
  await expect.poll(async () => (await counts(page)).total, { timeout: 60_000 }).toBe(chunks);
  expect((await counts(page)).embedded).toBeGreaterThanOrEqual(beforeReload);
  await expect(page.getByTestId('semantic-pill')).toHaveAttribute('data-phase', 'ready', {
    timeout: 480_000,
  });
  await expect(status(page)).toHaveCount(0); // the bar goes once everything is embedded
});

test('the backlog runs on every core but one, and Settings can lower it for good', async ({
  page,
}) => {
  test.setTimeout(600_000);
  // A 4-core device: three embed workers (the UI keeps a core).
  await page.addInitScript(() =>
    Object.defineProperty(navigator, 'hardwareConcurrency', { get: () => 4 }),
  );
  await openApp(page);
  await page.getByTestId('file-input').setInputFiles(library().slice(0, 6));
  await expect(page.getByTestId('semantic-rate')).toContainText('3 workers', { timeout: 120_000 });

  await page.getByTestId('tab-settings').click();
  const select = page.getByRole('combobox', { name: 'Embed workers' });
  await expect(select).toHaveValue('3');
  await select.selectOption('1');
  await expect(page.getByTestId('semantic-rate')).toContainText('1 worker', { timeout: 60_000 });

  // The choice is kept after a reload.
  await page.reload();
  await page.getByTestId('tab-settings').click();
  await expect(page.getByRole('combobox', { name: 'Embed workers' })).toHaveValue('1');
  await expect(page.getByTestId('semantic-pill')).toHaveAttribute('data-phase', 'ready', {
    timeout: 480_000,
  });
});

test('Cancel is not Pause: it says the run stopped, and it stays stopped after a reload', async ({
  page,
}) => {
  test.setTimeout(300_000);
  await openApp(page);
  await page.getByTestId('file-input').setInputFiles(library());
  await expect(status(page)).toHaveAttribute('data-phase', 'embedding', { timeout: 120_000 });
  await page.getByRole('button', { name: 'Cancel embedding' }).click();
  await expect(status(page)).toHaveAttribute('data-phase', 'paused');
  await expect(status(page)).toHaveAttribute('data-cancelled', 'true');
  await expect(status(page)).toContainText('Embedding cancelled');
  await expect(page.getByRole('button', { name: 'Embed the rest of the library' })).toBeVisible();
  await waitForImport(page, 180_000);
  const stopped = (await counts(page)).embedded;

  await page.reload();
  await expect(status(page)).toHaveAttribute('data-phase', 'paused', { timeout: 60_000 });
  await expect(status(page)).toHaveAttribute('data-cancelled', 'true');
  await page.waitForTimeout(3_000);
  expect((await counts(page)).embedded).toBe(stopped);

  // Pause after "Embed the rest" is a pause again, not a cancel.
  await page.getByRole('button', { name: 'Embed the rest of the library' }).click();
  await expect(status(page)).toHaveAttribute('data-phase', 'embedding', { timeout: 60_000 });
  await page.getByRole('button', { name: 'Pause embedding' }).click();
  await expect(status(page)).toContainText('Embedding paused');
  await expect(status(page)).not.toHaveAttribute('data-cancelled', 'true');
});
