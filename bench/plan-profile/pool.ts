// Ad-hoc: the embed pool's wall time for a plan's query embeddings (original + 4 variants) on
// T threads, alone and with the keyword rankings on this thread. `T=2 npx tsx bench/plan-profile/pool.ts`
import { scriptedVariants } from '../../workers/llm/scripted';
import { med, profileLibrary, profilePool } from './setup';
const threads = Number(process.env.T ?? 2);
const pool = await profilePool('use-lite', threads);
const { queries, core } = await profileLibrary('use-lite');
const { lexical } = core.parts();
const texts = [...queries.values()].slice(0, 40);
const t: Record<string, number[]> = {};
const add = (k: string, v: number) => (t[k] ??= []).push(v);
const bs = (n: number) => Math.ceil(n / pool.size());
for (const q of [...texts, ...texts]) {
  const vs = scriptedVariants(q, 4);
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
