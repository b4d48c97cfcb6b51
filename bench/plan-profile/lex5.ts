// Ad-hoc (issue 15, RAGF-006): CPU of the plan's five keyword rankings (the query and the
// scripted generator's 4 variants) against one, on the library thread.
// `npx tsx bench/plan-profile/lex5.ts`
import { scriptedVariants } from '../../workers/llm/scripted';
import { med, partTimer, profileLibrary } from './setup';

const { queries, core } = await profileLibrary('use-lite');
const { lexical } = core.parts();
const { cpu, part } = partTimer();
const texts = [...queries.values()].slice(0, 80);
for (const round of [0, 1, 2]) {
  for (const q of texts) {
    const vs = [q, ...scriptedVariants(q, 4)];
    await part('L: one ranking', () => lexical.rank(q, { limit: 20 }));
    await part('L5: five concurrent rankings', () =>
      Promise.all(vs.map((x) => lexical.rank(x, { limit: 20 }))),
    );
  }
  if (round === 0) for (const k of Object.keys(cpu)) cpu[k]!.length = 0;
}
for (const [k, v] of Object.entries(cpu)) console.log(k.padEnd(32), 'cpu', med(v));
await core.close();
