// Runs the wllama smoke test in headless Chromium: bundles entry.ts with esbuild, serves it with
// wllama.wasm and a GGUF from 127.0.0.1 (nothing is copied into the repo), prints JSON results.
// Usage: npx tsx workers/query-plan/browser-smoke/run.ts [path/to.gguf] [--research "query"] [--worker]
// --worker: drives the real workers/llm.worker.ts through Comlink instead of the adapter directly.
// Default model: ../shared/models/stories260K/stories260K.gguf (env SIFT_SHARED overrides ../shared).
import { build, type Plugin } from 'esbuild';
import { createReadStream, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS } from '../../../playwright.config';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../../..');
const shared = process.env.SIFT_SHARED ?? resolve(root, '../shared');
const args = process.argv.slice(2);
const researchAt = args.indexOf('--research');
const query =
  researchAt >= 0 ? (args[researchAt + 1] ?? 'How does aspirin reduce heart attack risk?') : '';
const gguf = resolve(
  args.find((a, i) => !a.startsWith('--') && (researchAt < 0 || i !== researchAt + 1)) ??
    join(shared, 'models/stories260K/stories260K.gguf'),
);
const require = createRequire(import.meta.url);
const wasm = join(dirname(require.resolve('@wllama/wllama/package.json')), 'esm/wasm/wllama.wasm');

const dir = mkdtempSync(join(tmpdir(), 'sift-wllama-'));
const workerMode = args.includes('--worker');
// `?url` is Vite's; here the wasm is served at /wllama.wasm.
const viteUrl: Plugin = {
  name: 'vite-url',
  setup(b) {
    b.onResolve({ filter: /\?url$/ }, (a) => ({ path: a.path, namespace: 'vite-url' }));
    b.onLoad({ filter: /.*/, namespace: 'vite-url' }, () => ({
      contents: "export default '/wllama.wasm';",
      loader: 'js',
    }));
  },
};
if (workerMode) {
  await build({
    entryPoints: [join(root, 'workers/llm.worker.ts')],
    bundle: true,
    format: 'esm',
    outfile: join(dir, 'llm.worker.js'),
    target: 'es2022',
    logLevel: 'error',
    plugins: [viteUrl],
  });
}
await build({
  entryPoints: [join(here, workerMode ? 'worker-entry.ts' : 'entry.ts')],
  bundle: true,
  format: 'esm',
  outfile: join(dir, 'entry.js'),
  target: 'es2022',
  logLevel: 'error',
});
writeFileSync(
  join(dir, 'index.html'),
  '<!doctype html><meta charset="utf-8"><script type="module" src="/entry.js"></script>',
);

const files: Record<string, [string, string]> = {
  '/index.html': [join(dir, 'index.html'), 'text/html'],
  '/entry.js': [join(dir, 'entry.js'), 'text/javascript'],
  '/wllama.wasm': [wasm, 'application/wasm'],
  '/llm.worker.js': [join(dir, 'llm.worker.js'), 'text/javascript'],
  '/model.gguf': [gguf, 'application/octet-stream'],
};
const requests: string[] = [];
const server = createServer((req, res) => {
  const path = new URL(req.url ?? '/', 'http://x').pathname;
  requests.push(path);
  const f = files[path];
  if (!f) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { 'content-type': f[1], 'content-length': statSync(f[0]).size });
  createReadStream(f[0]).pipe(res);
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: CHROMIUM_ARGS,
});
try {
  const page = await browser.newPage();
  const external: string[] = [];
  page.on(
    'request',
    (r) =>
      !r.url().startsWith(origin) &&
      !r.url().startsWith('blob:') &&
      !r.url().startsWith('data:') &&
      external.push(r.url()),
  );
  page.on('console', (m) => m.type() === 'error' && console.error('[page]', m.text()));
  await page.goto(`${origin}/index.html`);
  let result: Record<string, unknown>;
  if (workerMode) {
    await page.waitForFunction(() => typeof window.runWorkerSmoke === 'function');
    result = {
      worker: await page.evaluate((u) => window.runWorkerSmoke(u), `${origin}/model.gguf`),
    };
  } else {
    await page.waitForFunction(() => typeof window.runSmoke === 'function');
    result = (await page.evaluate((o) => window.runSmoke(o.url, o.opts), {
      url: `${origin}/model.gguf`,
      opts: { research: researchAt >= 0, query },
    })) as Record<string, unknown>;
  }
  const report = {
    gguf,
    ...result,
    servedPaths: [...new Set(requests)],
    externalRequests: external,
  };
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
} finally {
  await browser.close();
  server.close();
}
