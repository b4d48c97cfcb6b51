// Shared helpers for the end-to-end specs: fixture paths and common waits.
import { expect, type BrowserContext, type Page } from '@playwright/test';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
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

/** The claim fixtures: a cohort that supports a smoking claim, a trial against a green tea one. */
export const CLAIM_FIXTURES = ['smoking-cohort.txt', 'green-tea-trial.txt'].map((f) =>
  join(FIXTURES, 'claims', f),
);

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

/** Picks `files` in the import input and waits for the import to end. */
export async function importFiles(page: Page, files: string | string[]): Promise<void> {
  await page.getByTestId('file-input').setInputFiles(files);
  await waitForImport(page);
}

/** One streamed chunk of an OpenAI-compatible chat completion (server-sent event). */
export function sseDelta(content: string): string {
  return `data: ${JSON.stringify({ choices: [{ delta: { content }, finish_reason: null }] })}\n\n`;
}

/**
 * An OpenAI-compatible endpoint on 127.0.0.1 for the LLM specs: CORS preflights answered, each
 * other request's body read, then `reply(body, res)` with the event-stream headers already sent
 * (GET /v1/models answers `models` when given).
 * `base` is the endpoint's /v1 address.
 */
export async function mockLlmEndpoint(
  reply: (body: string, res: ServerResponse, request: string) => void,
  /** When set, GET /v1/models lists these ids (an OpenAI model list) without calling `reply`. */
  models?: string[],
): Promise<{ base: string; close: () => Promise<void> }> {
  const cors = {
    'access-control-allow-origin': '*',
    'access-control-allow-headers': 'authorization, content-type',
    'access-control-allow-methods': 'POST, GET, OPTIONS',
  };
  const server = createServer((req, res) => {
    if (req.method === 'OPTIONS') return res.writeHead(204, cors).end();
    if (models && req.method === 'GET' && req.url === '/v1/models') {
      const list = { object: 'list', data: models.map((id) => ({ id, object: 'model' })) };
      return res
        .writeHead(200, { ...cors, 'content-type': 'application/json' })
        .end(JSON.stringify(list));
    }
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      res.writeHead(200, { ...cors, 'content-type': 'text/event-stream' });
      reply(body, res, `${req.method} ${req.url}`);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/**
 * The OpenAI-compatible endpoint specs' start: the app open with the smoking cohort imported and
 * the endpoint at `base` saved in Settings (model "mock-model", `key` when given).
 */
export async function withHttpEndpoint(page: Page, base: string, key?: string): Promise<void> {
  await openApp(page);
  await importFiles(page, join(FIXTURES, 'claims', 'smoking-cohort.txt'));
  await page.keyboard.press('Alt+3');
  await page.getByTestId('llm-http-base').fill(base);
  await page.getByTestId('llm-http-model').fill('mock-model');
  if (key) await page.getByTestId('llm-http-key').fill(key);
  await page.getByTestId('llm-http-save').click();
}

/** Asks `question` for a generated answer in the Answer view (it does not wait for the answer). */
export async function askGenerated(page: Page, question: string): Promise<void> {
  await page.keyboard.press('Alt+4');
  await page.getByTestId('answer-mode').selectOption('generated');
  await page.getByTestId('answer-input').fill(question);
  await page.getByTestId('answer-ask').click();
}

/** Asks `question` in the Answer view and waits for its answer. */
export async function ask(page: Page, question: string): Promise<void> {
  await page.getByTestId('answer-input').fill(question);
  await page.getByTestId('answer-ask').click();
  await expect(page.getByTestId('answer')).toHaveAttribute('data-question', question, {
    timeout: 60_000,
  });
}

/**
 * Puts the page under its service worker (the first load may not be controlled yet: a reload
 * is), then cuts the network and reloads: the app must come up from the cache and say Offline.
 */
export async function goOffline(page: Page, context: BrowserContext): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  await expect
    .poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null))
    .toBe(true);
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByTestId('network-status')).toContainText('Offline');
}

/** True if any hostile fixture managed to run script in the page. */
export async function pwned(page: Page): Promise<boolean> {
  return page.evaluate(
    () =>
      (window as unknown as { __pwned?: boolean }).__pwned === true || document.title !== 'Sift',
  );
}
