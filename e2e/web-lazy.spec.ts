// The web worker starts only when an answer may use it: once Sift has seen that no web provider is
// on, an ask (or one with web help switched off) starts no web worker; turning a provider on in
// Settings brings it back for the next ask.
import { test, expect, type Page } from '@playwright/test';
import { ask, fixtureFiles, importFiles, openApp } from './helpers';

/** Counts the web workers the page starts from now on. */
function countWebWorkers(page: Page): { readonly n: number } {
  const seen = { n: 0 };
  page.on('worker', (w) => {
    if (/web\.worker/.test(w.url())) seen.n++;
  });
  return seen;
}

test('no web worker for an ask while no web provider is on', async ({ page }) => {
  test.setTimeout(120_000);
  await openApp(page);
  await importFiles(page, fixtureFiles());
  // A first ask on a new device starts the web worker, which lists its providers: all off.
  await page.keyboard.press('Alt+4');
  await ask(page, 'Who tuned each xylophone bar by ear?');
  await expect.poll(() => page.evaluate(() => localStorage.getItem('sift.web.enabled'))).toBe('0');

  await page.reload();
  const started = countWebWorkers(page);
  await page.keyboard.press('Alt+4');
  await ask(page, 'Who tuned each xylophone bar by ear?');
  await expect(page.getByTestId('answer').first().getByTestId('answer-text')).toContainText(
    'xylophone bar by ear',
  );
  expect(started.n).toBe(0);

  // Settings lists the providers (starting the worker) and keeps the hint current.
  await page.getByTestId('tab-settings').click();
  await expect(page.getByTestId('web-settings')).toBeVisible();
  await expect.poll(() => started.n).toBe(1);
  await expect.poll(() => page.evaluate(() => localStorage.getItem('sift.web.enabled'))).toBe('0');
});
