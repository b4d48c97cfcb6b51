// The Models page in Chromium against a fake model hub on 127.0.0.1 (node:http, CORS open): the
// download size is shown first, the download streams with progress into OPFS, the model is listed
// with its exact size and survives a reload, its self-test (embedded twice in the browser) gives
// the same SHA-256 hashes as Node on the same files, cancel and 404 leave nothing behind, import
// from a folder stores the same files, and delete removes a model. Files: the real all-MiniLM-L6-v2
// tokenizer and config family with seeded random weights of a reduced encoder (2 layers, hidden
// 64; real vocabulary and positions): the real shapes (90 MB) would only slow the test down.
import { test, expect, type Locator, type Page } from '@playwright/test';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { createEmbedder } from '../workers/embed/embedder';
import { createMemoryStorage, createModelStore } from '../workers/embed/model-store';
import { createNodeKernel, MINILM_DIR, readUseLiteFile } from '../workers/embed/node-kernel';
import { FETCH_MINILM, haveRealWeights } from '../workers/embed/real-weights.testkit';
import type { GoldenFile } from '../workers/embed/self-test';
import {
  bertFolder,
  MINILM_TOKENIZER_DIR,
  type BertFolder,
} from '../workers/embed/bert-weights.testkit';
import { FIXTURES, openApp, waitForImport } from './helpers';

test.describe.configure({ mode: 'serial' });

const folder = bertFolder(20261122);
const FILE_NAMES = ['config.json', 'tokenizer.json', 'model.safetensors'] as const;
const TOTAL = FILE_NAMES.reduce((a, n) => a + folder[n].length, 0);
const golden = JSON.parse(
  readFileSync(join(process.cwd(), 'wasm/golden/use-lite-int16-sha256.json'), 'utf8'),
) as GoldenFile;

let server: Server;
let hubUrl: string;
let page: Page;
let dir: string;
/** Requests seen by the hub, for asserting what was fetched. */
const requests: string[] = [];

/** What the hub serves (the last test swaps in the real all-MiniLM-L6-v2 files). */
let served: BertFolder = folder;

/** Serves /<repo>/resolve/main/<file> for MiniLM (fast) and e5 (slow, to be cancelled). */
function startHub(): Promise<string> {
  server = createServer((req, res) => {
    const url = req.url ?? '';
    requests.push(url);
    res.setHeader('Access-Control-Allow-Origin', '*');
    const m =
      /^\/(sentence-transformers\/all-MiniLM-L6-v2|intfloat\/e5-small-v2)\/resolve\/main\/(.+)$/.exec(
        url,
      );
    const body = m ? served[m[2] as keyof BertFolder] : undefined;
    if (!m || !body) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('Entry not found');
      return;
    }
    res.writeHead(200, {
      'content-type': 'application/octet-stream',
      'content-length': String(body.length),
    });
    const slow = m[1]!.startsWith('intfloat');
    const chunk = 64 * 1024;
    let o = 0;
    const next = () => {
      if (o >= body.length || res.destroyed) return res.end();
      res.write(body.subarray(o, o + chunk));
      o += chunk;
      // e5 trickles (about 3 s for the weights) so the test can cancel it mid-file.
      setTimeout(next, slow ? 25 : 1);
    };
    next();
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const addr = server.address();
      resolve(`http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`);
    }),
  );
}

/** The hashes Node computes for the same files (the browser must reproduce them byte for byte). */
async function nodeSelfTestHashes(profileId: string, files = folder): Promise<string[]> {
  const models = createModelStore({ storage: createMemoryStorage() });
  await models.importFiles(
    profileId,
    FILE_NAMES.map((n) => ({ name: n, data: new Blob([files[n] as BlobPart]) })),
  );
  const embedder = createEmbedder({
    loadKernel: createNodeKernel,
    fetchModelFile: readUseLiteFile,
    loadGolden: async () => golden,
    models,
  });
  const r = await embedder.selfTest(profileId);
  expect(r.ok).toBe(true);
  return r.hashes;
}

async function openModels(p: Page): Promise<void> {
  await p.getByTestId('tab-settings').click();
  await expect(p.getByTestId('models-card')).toBeVisible();
  await expect(p.getByTestId('model-row-use-lite')).toBeVisible({ timeout: 60_000 });
}

async function setHub(p: Page, url: string): Promise<void> {
  const input = p.getByTestId('model-hub-url');
  if (!(await input.isVisible())) await p.getByText('Advanced').click();
  await input.fill(url);
}

test.beforeAll(async ({ browser }) => {
  hubUrl = await startHub();
  dir = mkdtempSync(join(tmpdir(), 'sift-model-'));
  mkdirSync(join(dir, 'my-model'));
  for (const n of FILE_NAMES) writeFileSync(join(dir, 'my-model', n), folder[n]);
  const context = await browser.newContext();
  page = await context.newPage();
  page.on('dialog', (d) => void d.accept());
  await openApp(page);
  // A small library, so switching models has something to re-embed.
  await page
    .getByTestId('file-input')
    .setInputFiles([join(FIXTURES, 'sample.txt'), join(FIXTURES, 'notes.md')]);
  await waitForImport(page);
  await openModels(page);
});

test.afterAll(async () => {
  server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('shows the built-in model active and the download sizes before downloading', async () => {
  await expect(page.getByTestId('model-row-use-lite')).toHaveAttribute('data-active', 'true');
  await expect(page.getByTestId('model-delete-use-lite')).toHaveCount(0);
  const minilm = page.getByTestId('catalogue-all-MiniLM-L6-v2');
  await expect(minilm.getByTestId('catalogue-size')).toHaveText('about 87.1 MB');
  await expect(page.getByTestId('model-download-all-MiniLM-L6-v2')).toContainText('87.1 MB');
  await expect(page.getByTestId('catalogue-e5-small-v2')).toContainText('intfloat/e5-small-v2');
  await expect(page.getByTestId('models-recommendation')).toContainText('0.645');
});

test('downloads a model from the hub with progress, lists it with its size', async () => {
  await setHub(page, hubUrl);
  requests.length = 0;
  await page.getByTestId('model-download-all-MiniLM-L6-v2').click();
  await expect(page.getByTestId('models-message')).toContainText('downloaded', {
    timeout: 60_000,
  });
  expect(requests).toEqual(
    FILE_NAMES.map((n) => `/sentence-transformers/all-MiniLM-L6-v2/resolve/main/${n}`),
  );
  const row = page.getByTestId('model-row-all-MiniLM-L6-v2');
  await expect(row).toHaveAttribute('data-size', String(TOTAL));
  await expect(row).toHaveAttribute('data-active', 'false');
  await expect(page.getByTestId('catalogue-all-MiniLM-L6-v2')).toContainText('Installed');
  // Like every request to another host, the download is listed in the network ledger.
  await expect(page.getByTestId('network-ledger')).toContainText(
    'model download (all-MiniLM-L6-v2)',
    {
      timeout: 10_000,
    },
  );
});

test('the downloaded model passes its self-test with the same hashes as Node', async () => {
  // Everything the comparison loads (transformers.js, onnxruntime's WASM, the model files) comes
  // from the app's origin or memory: nothing goes to the hub or a CDN.
  const fetched: string[] = [];
  const record = (r: { url(): string }) => fetched.push(r.url());
  page.context().on('request', record);
  await page.getByTestId('model-self-test-all-MiniLM-L6-v2').click();
  const result = page.getByTestId('model-self-test-result');
  await expect(result).toHaveAttribute('data-model', 'all-MiniLM-L6-v2', { timeout: 60_000 });
  await expect(result).toHaveAttribute('data-ok', 'true');
  await expect(result).toHaveAttribute('data-check', 'repeat');
  const browserHashes = (await result.getAttribute('data-hashes'))?.split(',') ?? [];
  expect(browserHashes).toEqual(await nodeSelfTestHashes('all-MiniLM-L6-v2'));
  await expectReferenceAgreement(result);
  page.context().off('request', record);
  const origin = new URL(page.url()).origin;
  expect(fetched.filter((u) => !u.startsWith(origin) && !u.startsWith('blob:'))).toEqual([]);
  expect(fetched.some((u) => /\/assets\/ort-wasm-simd-threaded[^/]*\.wasm$/.test(u))).toBe(true);
});

/**
 * The self-test's comparison with transformers.js (onnxruntime-web WASM in this browser, on an
 * ONNX export of the stored weights): every sentence reaches cosine 0.9999 with the same token
 * ids, and the cosine is shown to the user.
 */
async function expectReferenceAgreement(p: Locator): Promise<number> {
  const check = p.getByTestId('reference-check');
  await expect(check).toHaveAttribute('data-ok', 'true');
  await expect(check).toContainText(/Compared with transformers\.js [\d.]+ · onnxruntime-web/);
  await expect(check).toContainText(/lowest cosine 0\.9999\d*|lowest cosine 1\.0+/);
  const min = Number(await check.getAttribute('data-min-cosine'));
  expect(min).toBeGreaterThanOrEqual(0.9999);
  const rows = p.getByTestId('reference-rows').locator('tbody tr');
  await expect(rows).toHaveCount(6);
  for (const row of await rows.all()) {
    expect(Number(await row.getAttribute('data-cosine'))).toBeGreaterThanOrEqual(0.9999);
    await expect(row.locator('td').nth(2)).toHaveText('yes');
  }
  await expect(p.getByTestId('reference-error')).toHaveCount(0);
  return min;
}

test('the model stays installed (OPFS) after a reload', async () => {
  await page.reload();
  await openModels(page);
  await expect(page.getByTestId('model-row-all-MiniLM-L6-v2')).toHaveAttribute(
    'data-size',
    String(TOTAL),
  );
});

test('the transformers.js comparison also runs offline once its runtime was fetched', async () => {
  // The page is controlled by the service worker since the reload: this run fills its cache.
  await page.evaluate(() => navigator.serviceWorker.ready);
  const result = page.getByTestId('model-self-test-result');
  await page.getByTestId('model-self-test-all-MiniLM-L6-v2').click();
  await expect(result.getByTestId('reference-check')).toHaveAttribute('data-ok', 'true', {
    timeout: 60_000,
  });
  await page.context().setOffline(true);
  try {
    await page.reload();
    await openModels(page);
    await page.getByTestId('model-self-test-all-MiniLM-L6-v2').click();
    await expect(result).toHaveAttribute('data-model', 'all-MiniLM-L6-v2', { timeout: 60_000 });
    await expectReferenceAgreement(result);
  } finally {
    await page.context().setOffline(false);
  }
});

test('the library switches to the model the user picks (Use this model)', async () => {
  const use = page.getByTestId('model-use-all-MiniLM-L6-v2');
  // Settings passes onActivate (the db worker's activateModel) to ModelsCard: switching is on.
  await expect(use).toBeEnabled();
  await use.click();
  await expect(page.getByTestId('model-row-all-MiniLM-L6-v2')).toHaveAttribute(
    'data-active',
    'true',
    { timeout: 60_000 },
  );
  // The library's index now belongs to the new model and re-embeds every chunk with it.
  const embedded = page.getByTestId('models-embedded');
  await expect(embedded).toHaveAttribute('data-model', 'all-MiniLM-L6-v2', { timeout: 60_000 });
  await expect(embedded).toHaveText(/^([1-9]\d*)\/\1 chunks embedded$/, { timeout: 60_000 });
  // The choice is remembered: after a reload the workers start with it.
  await page.reload();
  await openModels(page);
  await expect(page.getByTestId('model-row-all-MiniLM-L6-v2')).toHaveAttribute(
    'data-active',
    'true',
  );
  await expect(page.getByTestId('models-embedded')).toHaveAttribute(
    'data-model',
    'all-MiniLM-L6-v2',
    { timeout: 60_000 },
  );
  await page.getByTestId('self-test').click();
  await expect(page.getByTestId('self-test-result')).toHaveAttribute('data-check', 'repeat', {
    timeout: 60_000,
  });
  // Back to the built-in model so deletion below is allowed.
  await page.getByTestId('model-use-use-lite').click();
  await expect(page.getByTestId('model-row-use-lite')).toHaveAttribute('data-active', 'true', {
    timeout: 60_000,
  });
  await expect(page.getByTestId('models-embedded')).toHaveAttribute('data-model', 'use-lite', {
    timeout: 60_000,
  });
});

test('a cancelled download shows progress, stops, and leaves nothing installed', async () => {
  await setHub(page, hubUrl);
  await page.getByTestId('model-download-e5-small-v2').click();
  const bytes = page.getByTestId('model-download-bytes');
  await expect(bytes).toContainText(/model\.safetensors [\d.]+ (B|KB|MB) of [\d.]+ MB/, {
    timeout: 30_000,
  });
  await page.getByTestId('model-download-cancel').click();
  await expect(page.getByTestId('models-message')).toHaveText('Download cancelled.');
  await expect(page.getByTestId('model-row-e5-small-v2')).toHaveCount(0);
  await expect(page.getByTestId('model-download-e5-small-v2')).toBeEnabled();
});

test('a missing file on the hub is reported by name', async () => {
  await setHub(page, hubUrl);
  await page.getByTestId('model-download-gte-small').click();
  await expect(page.getByTestId('notice').last()).toContainText('config.json was not found at', {
    timeout: 30_000,
  });
  await expect(page.getByTestId('model-row-gte-small')).toHaveCount(0);
});

test('deletes a downloaded model', async () => {
  await page.getByTestId('model-delete-all-MiniLM-L6-v2').click();
  await expect(page.getByTestId('model-row-all-MiniLM-L6-v2')).toHaveCount(0);
  await expect(page.getByTestId('model-download-all-MiniLM-L6-v2')).toBeVisible();
});

test('imports the same files from a folder', async () => {
  await page.getByTestId('model-import-profile').selectOption('gte-small');
  await page.getByTestId('model-import-input').setInputFiles(join(dir, 'my-model'));
  await expect(page.getByTestId('models-message')).toContainText('imported', { timeout: 60_000 });
  await expect(page.getByTestId('model-row-gte-small')).toHaveAttribute('data-size', String(TOTAL));
  await page.getByTestId('model-self-test-gte-small').click();
  const result = page.getByTestId('model-self-test-result');
  await expect(result).toHaveAttribute('data-model', 'gte-small', { timeout: 60_000 });
  await expect(result).toHaveAttribute('data-ok', 'true');
  await page.getByTestId('model-delete-gte-small').click();
  await expect(page.getByTestId('model-row-gte-small')).toHaveCount(0);
});

const REAL_WEIGHTS = join(MINILM_DIR, 'model.safetensors');

test('real all-MiniLM-L6-v2 weights (90 MB): download, self-test hashes equal Node', async () => {
  test.skip(!haveRealWeights(REAL_WEIGHTS), `run ${FETCH_MINILM} first`);
  test.setTimeout(300_000);
  served = {
    'config.json': readFileSync(join(MINILM_DIR, 'config.json')),
    'tokenizer.json': readFileSync(join(MINILM_TOKENIZER_DIR, 'tokenizer.json')),
    'model.safetensors': readFileSync(REAL_WEIGHTS),
  };
  const total = FILE_NAMES.reduce((a, n) => a + served[n].length, 0);
  await setHub(page, hubUrl);
  await page.getByTestId('model-download-all-MiniLM-L6-v2').click();
  await expect(page.getByTestId('models-message')).toContainText('downloaded', {
    timeout: 120_000,
  });
  await expect(page.getByTestId('model-row-all-MiniLM-L6-v2')).toHaveAttribute(
    'data-size',
    String(total),
  );
  await page.getByTestId('model-self-test-all-MiniLM-L6-v2').click();
  const result = page.getByTestId('model-self-test-result');
  await expect(result).toHaveAttribute('data-model', 'all-MiniLM-L6-v2', { timeout: 120_000 });
  await expect(result).toHaveAttribute('data-ok', 'true');
  const browserHashes = (await result.getAttribute('data-hashes'))?.split(',') ?? [];
  expect(browserHashes).toEqual(await nodeSelfTestHashes('all-MiniLM-L6-v2', served));
  const min = await expectReferenceAgreement(result);
  console.log(`real all-MiniLM-L6-v2 vs transformers.js in Chromium: lowest cosine ${min}`);
  await page.getByTestId('model-delete-all-MiniLM-L6-v2').click();
  await expect(page.getByTestId('model-row-all-MiniLM-L6-v2')).toHaveCount(0);
});
