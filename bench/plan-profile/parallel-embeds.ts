// Ad-hoc (issue 15, RAGF-006): do two embed threads slow each other down on this machine? The
// query alone and the 4 variants alone on their own threads, then both at once (as a plan runs
// them on a 2-core device), wall ms medians. `npx tsx bench/plan-profile/parallel-embeds.ts`
import { loadavg } from 'node:os';
import { scriptedVariants } from '../../workers/llm/scripted';
import { med, profileLibrary, profilePool } from './setup';

const a = await profilePool('use-lite', 1);
const b = await profilePool('use-lite', 1);
const { queries, core } = await profileLibrary('use-lite');
const t: Record<string, number[]> = {};
const time = async (k: string, f: () => Promise<unknown>) => {
  const s = performance.now();
  await f();
  (t[k] ??= []).push(performance.now() - s);
};
for (const q of [...queries.values()].slice(0, 60)) {
  const vs = scriptedVariants(q, 4);
  await time('E_o alone', () => a.embed([q], { role: 'query' }));
  await time('E_v alone', () => b.embed(vs, { role: 'query' }));
  const s = performance.now();
  await Promise.all([
    a
      .embed([q], { role: 'query' })
      .then(() => (t['E_o beside E_v'] ??= []).push(performance.now() - s)),
    b
      .embed(vs, { role: 'query' })
      .then(() => (t['E_v beside E_o'] ??= []).push(performance.now() - s)),
  ]);
}
for (const [k, v] of Object.entries(t)) console.log(k.padEnd(20), med(v));
console.log(
  'load',
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' '),
);
await core.close();
await a.close();
await b.close();
