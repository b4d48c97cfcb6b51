// The pair verifier's delivery in Chromium on the built app: the service worker does not precache
// its bundle; an embed worker fetches it on first use, checks it and keeps it in Cache Storage;
// a later worker judges with the origin unreachable (the kept copy), and with neither the copy nor
// the origin the call fails with AppError VERIFIER_MISSING. Needs a bundle in
// public/models/sift-verifier-v1/ at build time.
import { test, expect, type Page } from '@playwright/test';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { openApp } from './helpers';

const workerAsset = () => {
  const name = readdirSync(join(process.cwd(), 'dist/assets')).find((f) =>
    /^embed\.worker-.*\.js$/.test(f),
  );
  if (!name) throw new Error('dist/assets has no embed worker: run npm run build first');
  return `/assets/${name}`;
};

/**
 * Starts an embed worker from the built asset and calls judgePairs on it with Comlink's wire
 * format (one APPLY message), so the page needs no app code; ends the worker afterwards.
 */
async function judgeInWorker(page: Page, pairs: Array<{ a: string; b: string }>) {
  return page.evaluate(
    async ({ url, pairs }) => {
      const w = new Worker(url, { type: 'module' });
      try {
        return await new Promise<{ ok: boolean; value: unknown }>((resolve) => {
          w.addEventListener('message', (e: MessageEvent) => {
            const d = e.data as { id?: string; type: string; value: unknown; name?: string };
            if (d.id !== 'judge') return;
            resolve({ ok: d.type === 'RAW', value: d.value });
          });
          w.postMessage({
            id: 'judge',
            type: 'APPLY',
            path: ['judgePairs'],
            argumentList: [{ type: 'RAW', value: pairs }],
          });
        });
      } finally {
        w.terminate();
      }
    },
    { url: workerAsset(), pairs },
  );
}

const PAIRS = [
  { a: 'Smoking causes lung cancer.', b: 'Smokers had far more lung cancer in cohort studies.' },
  { a: 'Is the sea rising?', b: '' },
];

test('the verifier is fetched on first use, kept, used offline, and says when it is missing', async ({
  page,
  context,
}) => {
  await openApp(page);
  const first = await judgeInWorker(page, PAIRS);
  expect(first.ok).toBe(true);
  const judgements = first.value as Array<{
    stance: { support: number; contradict: number; nei: number };
    relevance: number;
    truncated: boolean;
  }>;
  expect(judgements).toHaveLength(2);
  for (const j of judgements) {
    expect(j.stance.support + j.stance.contradict + j.stance.nei).toBeCloseTo(1, 5);
    expect(j.relevance).toBeGreaterThanOrEqual(0);
  }
  // Kept in its own cache, and never in the service worker's precache.
  const caches = await page.evaluate(async () => {
    const names = await self.caches.keys();
    const precached: string[] = [];
    for (const n of names.filter((x) => x.includes('precache'))) {
      for (const r of await (await self.caches.open(n)).keys()) precached.push(r.url);
    }
    const kept = (await (await self.caches.open('sift-verifier-v1')).keys()).map((r) => r.url);
    return { names, precached, kept };
  });
  expect(caches.names).toContain('sift-verifier-v1');
  expect(caches.kept.some((u) => u.endsWith('/model.safetensors'))).toBe(true);
  expect(caches.precached.some((u) => u.includes('sift-verifier'))).toBe(false);

  // The origin can no longer serve the bundle: a new worker judges from the kept copy, same values.
  await context.route('**/models/sift-verifier-v1/**', (route) => route.abort());
  const again = await judgeInWorker(page, PAIRS);
  expect(again.ok).toBe(true);
  expect(again.value).toEqual(first.value);

  // Neither copy nor origin: a clear error, not a crash.
  await page.evaluate(() => self.caches.delete('sift-verifier-v1'));
  const missing = await judgeInWorker(page, PAIRS);
  expect(missing.ok).toBe(false);
  expect(JSON.stringify(missing.value)).toContain('VERIFIER_MISSING');
});
