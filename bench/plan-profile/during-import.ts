// Ad-hoc (issue 15): one hybrid query while the import backlog embeds, with and without the query
// worker, on the app's 2-core layout (one backlog embed thread; queries routed by
// workers/db/query-lane.ts). The backlog is kept busy with batches of 16 SciFact abstracts
// (passages), as the semantic index feeds it. `npx tsx bench/plan-profile/during-import.ts`
import { loadavg } from 'node:os';
import { createEmbedPool } from '../../workers/embed/pool';
import type { QueryLanePools } from '../../workers/db/query-lane';
import { spawnEmbedThread } from '../../lab/embed-cache';
import { laneSearch, med, profileLibrary } from './setup';

const N = Number(process.env.N ?? 30);
const { corpus, queries, core } = await profileLibrary('use-lite');
const passages = corpus.slice(1000, 3000).map((d) => `${d.title}. ${d.text}`.slice(0, 1500));
const texts = [...queries.values()].slice(0, N);
const out: Record<string, unknown> = {};
for (const withQueryWorker of [true, false]) {
  const spawn = () => spawnEmbedThread('use-lite');
  const lane: QueryLanePools = {
    backlog: createEmbedPool({ spawn, size: 1 }),
    query: withQueryWorker
      ? createEmbedPool({ spawn: () => spawnEmbedThread('use-lite', { queries: true }), size: 1 })
      : null,
  };
  await lane.backlog.workers();
  await lane.query?.workers();
  const { hybrid } = laneSearch(core, lane);
  let importing = true;
  let batches = 0;
  const backlog = (async () => {
    for (let i = 0; importing; i = (i + 16) % (passages.length - 16)) {
      await lane.backlog.embed(passages.slice(i, i + 16), { role: 'passage', batchSize: 16 });
      batches++;
    }
  })();
  const quiet: number[] = [];
  const during: number[] = [];
  await new Promise((r) => setTimeout(r, 300)); // the backlog's first batch is under way
  for (const q of texts) {
    const t = performance.now();
    await hybrid.retrieve({ query: q, limit: 10 }, {});
    during.push(performance.now() - t);
    await new Promise((r) => setTimeout(r, Math.random() * 50)); // queries land anywhere in a batch
  }
  importing = false;
  await backlog;
  for (const q of texts) {
    const t = performance.now();
    await hybrid.retrieve({ query: q, limit: 10 }, {});
    quiet.push(performance.now() - t);
  }
  out[withQueryWorker ? 'query worker (now)' : 'no query worker (before)'] = {
    'one hybrid query p50 ms, backlog embedding': med(during),
    'p95 ms, backlog embedding':
      Math.round([...during].sort((a, b) => a - b)[Math.ceil(0.95 * N) - 1]! * 100) / 100,
    'one hybrid query p50 ms, backlog idle': med(quiet),
    backlogBatchesOf16: batches,
  };
  await lane.backlog.close();
  await lane.query?.close();
}
console.log(JSON.stringify({ queries: N, ...out, load: loadavg() }, null, 1));
await core.close();
