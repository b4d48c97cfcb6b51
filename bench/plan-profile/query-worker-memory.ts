// Ad-hoc (issue 15, RAGF-006): what one more embed worker costs, the query worker of the plan's
// layout: a lab/embed-thread.ts thread with the model loaded, after embedding a few queries,
// its own heap + external (the kernel's WASM memory holding the weights) after a collection, and
// the process RSS it added. `node --expose-gc` via `NODE_OPTIONS=--expose-gc npx tsx bench/plan-profile/query-worker-memory.ts`.
import type { Worker } from 'node:worker_threads';
import { embedThread } from '../../lab/embed-cache';

const mb = (b: number) => Math.round((b / 2 ** 20) * 10) / 10;
const next = <T>(w: Worker, msg: unknown) =>
  new Promise<T>((resolve) => {
    w.once('message', (m: T) => resolve(m));
    w.postMessage(msg);
  });
for (const model of ['use-lite', 'all-MiniLM-L6-v2']) {
  (globalThis as { gc?: () => void }).gc?.();
  const before = process.memoryUsage().rss;
  const w = embedThread(model, { queries: true });
  await new Promise((r) => w.once('message', r)); // 'ready'
  let peak = process.memoryUsage().rss;
  for (let i = 0; i < 5; i++) {
    await next(w, [
      'what causes the loss of bone density in older adults',
      'statins and muscle pain',
    ]);
    peak = Math.max(peak, process.memoryUsage().rss);
  }
  const live = await next<{ heapUsed: number; external: number }>(w, 'memory-gc');
  console.log(
    JSON.stringify({
      model,
      liveHeapMb: mb(live.heapUsed),
      liveExternalMb: mb(live.external),
      rssAddedPeakMb: mb(peak - before),
      rssAddedAfterMb: mb(process.memoryUsage().rss - before),
    }),
  );
  await w.terminate();
}
