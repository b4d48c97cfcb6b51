// Query optimisation in the browser: without a model every technique falls back and still
// searches; with the CPU backend (wllama, llama.cpp in WebAssembly) loading the tiny
// stories260K GGUF from disk, HyDE, rewrite and RAG-Fusion run through it. Streaming, stop and
// cancel through the real llm.worker.ts are driven by the browser smoke script. The model tests
// the plumbing, not answer quality.
import { test, expect, type Page } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { fixtureFiles, openApp, waitForImport } from './helpers';

const GGUF = resolve(process.cwd(), '../shared/models/stories260K/stories260K.gguf');
const QUESTION = 'How do pelican colonies nest on cliffs compared with narwhal pods in the fjord?';

async function importFixtures(page: Page): Promise<void> {
  await openApp(page);
  await page.getByTestId('file-input').setInputFiles(fixtureFiles());
  await waitForImport(page);
  await expect(page.getByTestId('semantic-pill')).toHaveAttribute('data-phase', 'ready', {
    timeout: 90_000,
  });
}

async function runOptimised(page: Page, query: string, techniques: string[] = []): Promise<void> {
  await page.getByTestId('tab-search').click();
  await page.getByTestId('optimise-toggle').check();
  // The LLM techniques are off by default (measured no gain: technique-evidence.ts).
  for (const t of techniques) await page.getByTestId(`plan-switch-${t}`).check();
  await page.getByTestId('search-input').fill(query);
  await page.getByTestId('search-input').press('Enter');
  await expect(page.getByTestId('result-meta')).toHaveAttribute('data-query', query, {
    timeout: 60_000,
  });
}

test('without a model, the plan routes, falls back and still finds results', async ({ page }) => {
  await importFixtures(page);
  await runOptimised(page, QUESTION, ['hyde', 'fusion', 'rewrite']);
  await expect(page.getByTestId('plan-route')).toContainText('complex');
  const hyde = page.locator('[data-testid^="plan-step-"]').filter({ hasText: 'HyDE hypothetical' });
  await expect(hyde.getByTestId('plan-step-status')).toHaveText('fallback');
  await expect(page.getByTestId('result').first()).toBeVisible();
  await expect(page.getByTestId('plan-results')).toContainText('page.html');
});

test('the CPU backend loads a GGUF from disk and HyDE runs through it', async ({ page }) => {
  await importFixtures(page);
  await page.getByTestId('tab-settings').click();
  await page.getByTestId('llm-gguf-file').setInputFiles(GGUF);
  await expect(page.getByTestId('llm-active')).toContainText('wllama', { timeout: 60_000 });
  await expect(page.getByTestId('llm-reason')).toContainText('no WebGPU');
  await runOptimised(page, QUESTION, ['hyde']);
  await expect(page.getByTestId('plan-route')).toContainText('wllama');
  const hyde = page.locator('[data-testid^="plan-step-"]').filter({ hasText: 'HyDE hypothetical' });
  await expect(hyde.getByTestId('plan-step-status')).toHaveText('ok');
  const generated = (await hyde.getByTestId('plan-step-texts').textContent()) ?? '';
  expect(generated.trim().length).toBeGreaterThan(10);
  const hydeSearch = page.locator('[data-testid^="plan-step-"]').filter({ hasText: 'HyDE vector' });
  await expect(hydeSearch.getByTestId('plan-step-status')).toHaveText('ok');
  await expect(page.getByTestId('result').first()).toBeVisible();
});

test('streaming, stop and cancel through the real LLM worker', () => {
  // Bundles llm.worker.ts, serves it with the GGUF on 127.0.0.1, drives it in headless Chromium.
  const run = spawnSync(
    'npx',
    ['tsx', join('workers/query-plan/browser-smoke/run.ts'), '--worker'],
    {
      encoding: 'utf8',
      timeout: 110_000,
    },
  );
  expect(run.status, run.stderr).toBe(0);
  const report = JSON.parse(run.stdout) as {
    worker: {
      loaded: { kind: string };
      generate: { text: string; tokens: number; piecesStreamedToPage: number };
      cancel: { isAppError: boolean; code: string };
    };
    externalRequests: string[];
  };
  expect(report.worker.loaded.kind).toBe('wllama');
  expect(report.worker.generate.tokens).toBeGreaterThan(0);
  expect(report.worker.generate.piecesStreamedToPage).toBeGreaterThan(1);
  expect(report.worker.cancel).toMatchObject({ isAppError: true, code: 'ABORTED' });
  expect(report.externalRequests).toEqual([]);
});
