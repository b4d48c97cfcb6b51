// Ad-hoc: each step's start and duration in a RAG-Fusion plan (T embed threads).
import { hybridSettings } from '../../eval/hybrid-mode';
import { FUSION_ONLY, med, profileLibrary, profilePool, scriptedPlanner } from './setup';
const threads = Number(process.env.T ?? 1);
const pool = await profilePool('use-lite', threads);
const { queries, core } = await profileLibrary('use-lite');
const { hybrid, lookup } = core.appSearch({
  fusion: hybridSettings({ model: 'use-lite' }).method,
  semantic: {
    embedQuery: async (t) => (await pool.embed([t], { role: 'query' }))[0]!,
    embedQueries: async (ts) =>
      pool.embed(ts, { role: 'query', batchSize: Math.ceil(ts.length / Math.max(1, pool.idle())) }),
  },
});
const { planner } = scriptedPlanner(core, { hybrid, lookup });
const fusion = FUSION_ONLY;
const texts = [...queries.values()].slice(0, 30);
const acc: Record<string, number[][]> = {};
for (const q of texts) {
  const out = await planner.plan(q, fusion);
  for (const s of out.plan.steps) (acc[s.id] ??= []).push([s.startMs, s.durationMs]);
}
for (const [k, v] of Object.entries(acc))
  console.log(k.padEnd(28), 'start', med(v.map((x) => x[0]!)), 'dur', med(v.map((x) => x[1]!)));
await core.close();
await pool.close();
