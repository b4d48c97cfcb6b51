// Cross-engine determinism check: bundles the embedder (esbuild), serves it with the runtime and
// the USE-lite files from 127.0.0.1, runs its self-test in headless Chromium (playwright-core,
// /usr/bin/chromium) and compares the SHA-256 hashes with the golden file that Node reproduces;
// with all-MiniLM-L6-v2's files present (`node tools/copy-model.mjs --fetch-minilm`) it does the
// same for the canonical BERT path (wasm/golden/minilm-int16-sha256.json, int16 and float32 bytes).
// Usage: npx tsx wasm/browser-check.ts   (prints JSON; exit code 1 on any mismatch)
import { build } from 'esbuild';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { MINILM_DIR, readKernelBytes, REPO_ROOT, USE_LITE_DIR } from '../workers/embed/node-kernel';

const bundle = await build({
  entryPoints: [join(REPO_ROOT, 'wasm/browser-selftest-entry.ts')],
  bundle: true,
  format: 'esm',
  write: false,
  platform: 'browser',
});
const js = bundle.outputFiles[0]!.contents;
const wasm = Buffer.from(readKernelBytes());
const server = createServer((req, res) => {
  const url = req.url ?? '/';
  if (url === '/') {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><script type="module" src="/entry.js"></script>');
  } else if (url === '/entry.js') {
    res.writeHead(200, { 'content-type': 'text/javascript' });
    res.end(js);
  } else if (url === '/sift-kernels.wasm') {
    res.writeHead(200, { 'content-type': 'application/wasm' });
    res.end(wasm);
  } else if (url.startsWith('/models/use-lite/') && /^[\w.-]+$/.test(url.slice(17))) {
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    res.end(readFileSync(join(USE_LITE_DIR, url.slice(17))));
  } else if (
    /^\/models\/minilm\/(config\.json|tokenizer\.json|model\.safetensors)$/.test(url) &&
    existsSync(join(MINILM_DIR, url.slice(15)))
  ) {
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    res.end(readFileSync(join(MINILM_DIR, url.slice(15))));
  } else {
    res.writeHead(404);
    res.end();
  }
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const port = (server.address() as AddressInfo).port;
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
});
try {
  const page = await browser.newPage();
  await page.goto(`http://127.0.0.1:${port}/`);
  await page.waitForFunction(() => 'selfTest' in window, null, { timeout: 60_000 });
  const result = (await page.evaluate(
    () => (window as unknown as { selfTest: Promise<unknown> }).selfTest,
  )) as { ok: boolean; total: number; mismatches: unknown[] };
  // null when the MiniLM files are not on this machine (skipped, said in the output).
  const minilm = (await page.evaluate(
    () => (window as unknown as { minilmCheck: Promise<unknown> }).minilmCheck,
  )) as { ok: boolean; total: number; version: string; mismatches: unknown[] } | null;
  const version = browser.version();
  const summary = {
    chromium: version,
    ok: result.ok,
    total: result.total,
    mismatches: result.mismatches,
    minilm: minilm ?? 'skipped: no .cache/models/all-MiniLM-L6-v2',
  };
  process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
  process.exitCode = result.ok && (minilm?.ok ?? true) ? 0 : 1;
} finally {
  await browser.close();
  server.close();
}
