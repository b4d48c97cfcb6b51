// The PWA update flow: once a new service worker is published, the running app tells the user
// a new version is ready, and reloading into it works. Serves a copy of the build from its own
// static server so the test can publish a "new version" (a changed sw.js).
import { test, expect } from '@playwright/test';
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.css': 'text/css',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};

let root = '';
let server: Server;
let origin = '';

test.beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'sift-dist-'));
  cpSync(join(process.cwd(), 'dist'), root, { recursive: true });
  server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname));
    let file = join(root, path === '/' ? 'index.html' : path);
    try {
      if (!statSync(file).isFile()) throw new Error('not a file');
    } catch {
      file = join(root, 'index.html'); // the SPA fallback, as vite preview does
    }
    res.writeHead(200, {
      'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
      'Cache-Control': 'no-cache',
    });
    res.end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(root, { recursive: true, force: true });
});

test('a new version is announced and applied on request', async ({ page }) => {
  await page.goto(`${origin}/`);
  await expect(page.getByTestId('storage-status')).toBeVisible();
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  // A returning visitor: the page is controlled by the installed version.
  await page.reload();
  await expect
    .poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null))
    .toBe(true);
  await expect(page.getByTestId('update-ready')).toHaveCount(0);

  // Publish a new version: any byte change in sw.js makes the browser install it.
  appendFileSync(join(root, 'sw.js'), '\n// a new release\n');
  await page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => r?.update()));
  const prompt = page.getByTestId('update-ready');
  await expect(prompt).toBeVisible({ timeout: 60_000 });
  await prompt.click();
  // The new worker takes over and the page reloads into it.
  await expect(page.getByTestId('storage-status')).toBeVisible();
  await expect(page.getByTestId('update-ready')).toHaveCount(0, { timeout: 30_000 });
});
