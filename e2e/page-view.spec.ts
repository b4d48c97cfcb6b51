// The page view of a PDF in Chromium: import a real PDF (GNU libtasn1's manual, 36 pages), go
// offline, open a search hit (it says its page and its outline section), show its page (pdf.js draws it onto a canvas, the passage's boxes over it), turn
// pages with the arrows, go back with Esc; a citation in an extractive answer opens straight on
// its page. Without a kept original (an import from before originals were kept) and for a
// document deleted in another tab, the text view stays with a note.
import { test, expect, type Page } from '@playwright/test';
import { join } from 'node:path';
import { ask, goOffline, importFiles, openApp, search } from './helpers';

const PDF = join(process.cwd(), 'eval/data/answers-dev/docs/libtasn1.pdf');

/** How many of the canvas's pixels are dark (text drawn), sampled on a grid. */
async function darkPixels(page: Page): Promise<number> {
  return page.getByTestId('page-canvas').evaluate((el) => {
    const canvas = el as HTMLCanvasElement;
    const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
    let dark = 0;
    for (let i = 0; i < data.length; i += 4 * 7) if (data[i]! < 100) dark++;
    return dark;
  });
}

async function expectPageDrawn(page: Page): Promise<void> {
  await expect(page.getByTestId('page-view')).toHaveAttribute('data-state', 'ready');
  await expect(page.getByTestId('page-canvas')).toHaveAttribute('data-drawn', 'true');
  expect(await darkPixels(page)).toBeGreaterThan(200);
}

test('a hit opens on its PDF page with the passage highlighted, offline; arrows turn pages, Esc returns', async ({
  page,
  context,
}) => {
  await openApp(page);
  await importFiles(page, PDF);
  // pdf.js and its worker come from the service worker's cache: the network is off from here.
  await goOffline(page, context);
  await page.getByTestId('tab-settings').click();
  await expect(page.getByTestId('storage-originals')).toHaveAttribute('data-files', '1');
  await page.getByTestId('tab-search').click();
  await search(page, 'ASN1_MAX_NAME_SIZE');
  // The hit says its page (pdftotext -f 7 -l 7 libtasn1.pdf holds the passage).
  await expect(page.getByTestId('result').first().getByTestId('result-page')).toHaveText(
    /^, pp?\. (\d+-)?7(-\d+)?$/,
  );
  // And its section, from the PDF's outline (the heading above the passage on page 7).
  await expect(page.getByTestId('result').first().getByTestId('result-section')).toHaveText(
    ' · 2 ASN.1 structure handling › Library Notes',
  );
  await page.getByTestId('result').first().click();
  await expect(page.getByTestId('viewer-chunk')).toContainText('ASN1_MAX_');
  await page.getByTestId('viewer-show-page').click();
  await expectPageDrawn(page);
  await expect(page.getByTestId('page-highlight').first()).toBeVisible();
  await expect(page.getByTestId('page-quote-status')).toHaveAttribute('data-found', 'true');
  const first = (await page.getByTestId('page-number').textContent()) ?? '';
  const n = Number(/Page (\d+) of 36/.exec(first)?.[1]);
  expect(n).toBeGreaterThan(1);

  await page.getByTestId('page-view').press('ArrowRight');
  await expect(page.getByTestId('page-number')).toHaveText(`Page ${n + 1} of 36`);
  await expectPageDrawn(page);
  await page.getByTestId('page-view').press('ArrowLeft');
  await expect(page.getByTestId('page-number')).toHaveText(`Page ${n} of 36`);
  await expect(page.getByTestId('page-highlight').first()).toBeVisible();

  // Esc goes back to the text view, with the document still open; a second Esc closes it.
  await page.getByTestId('page-view').press('Escape');
  await expect(page.getByTestId('page-view')).toHaveCount(0);
  await expect(page.getByTestId('viewer-chunk')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('viewer')).toHaveCount(0);
});

test('a citation of a PDF opens on its page; without the original the text view says why', async ({
  page,
  context,
}) => {
  await openApp(page);
  await importFiles(page, PDF);
  await page.getByTestId('tab-answer').click();
  await ask(page, 'What is ASN1_MAX_NAME_SIZE?');
  // The reference says the page of the cited text.
  await expect(page.getByTestId('reference-page').first()).toHaveText(/^, pp?\. \d+(-\d+)?$/);
  await page.getByTestId('answer').getByTestId('citation').first().click();
  await expectPageDrawn(page);
  await expect(page.getByTestId('page-highlight').first()).toBeVisible();
  await page.getByTestId('page-view-close').click();
  await expect(page.getByTestId('viewer-cited')).toBeVisible();

  // As for a PDF imported before originals were kept: the folder is gone.
  await page.evaluate(async () => {
    const root = await navigator.storage.getDirectory();
    await root.removeEntry('originals', { recursive: true });
  });
  await page.getByTestId('viewer-show-page').click();
  await expect(page.getByTestId('viewer-page-note')).toContainText(
    'The original PDF is not kept for documents imported before',
  );
  await expect(page.getByTestId('viewer-page-note')).toContainText('re-import it to see pages');
  await expect(page.getByTestId('viewer-cited')).toBeVisible();
  // Re-importing the same file (unchanged) keeps its original again.
  await importFiles(page, PDF);
  await page.getByTestId('viewer-show-page').click();
  await expectPageDrawn(page);
  await page.getByTestId('page-view-close').click();

  // Deleted in another tab while open here.
  const other = await context.newPage();
  await openApp(other);
  await other.getByTestId('tab-library').click();
  other.once('dialog', (d) => void d.accept());
  await other.getByTestId('delete-document').first().click();
  await expect(other.getByTestId('library-row')).toHaveCount(0);
  await page.getByTestId('viewer-show-page').click();
  await expect(page.getByTestId('viewer-page-note')).toContainText('has been deleted');
});
