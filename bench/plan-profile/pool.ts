// Ad-hoc: the embed pool's wall time for a plan's query embeddings (original + 4 variants) on
// T threads, alone and with the keyword rankings on this thread. `T=2 npx tsx bench/plan-profile/pool.ts`
import { createEmbedPool } from '../../workers/embed/pool';
import { spawnEmbedThread } from '../embed-cache';
import { loadCorpus, loadQueries } from '../eval/beir';
import { createHybridCore } from '../eval/hybrid-mode';
const med = (a: number[]) => {
  const s = [...a].sort((x, y) => x - y);
  return Math.round(s[Math.floor(s.length / 2)]! * 100) / 100;
};
const threads = Number(process.env.T ?? 2);
const pool = createEmbedPool({
  spawn: () => spawnEmbedThread('use-lite', { queries: true }),
  size: threads,
});
await pool.workers();
const ds = '/work/shared/datasets/scifact';
const [corpus, queries] = await Promise.all([loadCorpus(ds), loadQueries(ds)]);
const core = await createHybridCore({ model: 'use-lite' });
await core.index(corpus.slice(0, 700));
const { lexical } = core.parts();
const texts = [...queries.values()].slice(0, 40);
const t: Record<string, number[]> = {};
const add = (k: string, v: number) => (t[k] ??= []).push(v);
const bs = (n: number) => Math.ceil(n / pool.size());
for (const q of [...texts, ...texts]) {
  const vs = [
    'definition and background of',
    'evidence and studies about',
    'mechanisms behind',
    'recent findings on',
  ].map((p) => `${p} ${q.split(' ').slice(-3).join(' ')}`);
  let a = performance.now();
  await pool.embed([q], { role: 'query' });
  add('original alone', performance.now() - a);
  a = performance.now();
  await pool.embed(vs, { role: 'query', batchSize: bs(4) });
  add('4 variants alone', performance.now() - a);
  a = performance.now();
  await pool.embed([q, ...vs], { role: 'query', batchSize: bs(5) });
  add('5 in one call', performance.now() - a);
  a = performance.now();
  await Promise.all([
    pool.embed([q], { role: 'query' }),
    pool.embed(vs, { role: 'query', batchSize: bs(4) }),
  ]);
  add('original + variants concurrently', performance.now() - a);
  a = performance.now();
  await Promise.all([
    pool.embed([q], { role: 'query' }),
    pool.embed(vs, { role: 'query', batchSize: bs(4) }),
    (async () => {
      for (const x of [q, ...vs]) await lexical.rankChunks(x, { limit: 20 });
    })(),
  ]);
  add('... + 5 lexical ranks', performance.now() - a);
  a = performance.now();
  for (const x of [q, ...vs]) await lexical.rankChunks(x, { limit: 20 });
  add('5 lexical ranks alone', performance.now() - a);
}
for (const [k, v] of Object.entries(t)) console.log(k.padEnd(40), med(v));
await core.close();
await pool.close();
