// Shared helpers for the end-to-end specs: fixture paths and common waits.
import { expect, type Page } from '@playwright/test';
import { readdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

export const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), 'fixtures');

/** Every fixture document (not the generator script, the README or a sub-folder such as claims/). */
export function fixtureFiles(): string[] {
  return readdirSync(FIXTURES, { withFileTypes: true })
    .filter((f) => f.isFile() && !f.name.endsWith('.ts') && f.name !== 'README.md')
    .map((f) => f.name)
    .sort()
    .map((f) => join(FIXTURES, f));
}

export async function openApp(page: Page): Promise<void> {
  await page.goto('/');
  await expect(page.getByTestId('storage-status')).toBeVisible();
}

export async function search(page: Page, query: string): Promise<void> {
  const input = page.getByTestId('search-input');
  await input.fill(query);
  await expect(page.getByTestId('result-meta')).toHaveAttribute('data-query', query);
}

export async function waitForImport(page: Page, timeout = 60_000): Promise<void> {
  await expect(page.getByTestId('import-progress')).toContainText(/Import (finished|cancelled)/, {
    timeout,
  });
}

/** True if any hostile fixture managed to run script in the page. */
export async function pwned(page: Page): Promise<boolean> {
  return page.evaluate(
    () =>
      (window as unknown as { __pwned?: boolean }).__pwned === true || document.title !== 'Sift',
  );
}
