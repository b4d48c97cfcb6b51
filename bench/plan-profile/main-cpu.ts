// Ad-hoc (issue 15, RAGF-006): the library thread's CPU in a RAG-Fusion plan against one hybrid
// query, the embeddings on the app's lane (one backlog thread + the query worker). Run under the
// V8 profiler to see where the plan's extra CPU goes:
// `node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx bench/plan-profile/main-cpu.ts`
import { createEmbedPool } from '../../workers/embed/pool';
import { embedQueriesOnLane, type QueryLanePools } from '../../workers/library/query-lane';
import { spawnEmbedThread } from '../embed-cache';
import { hybridSettings } from '../eval/hybrid-mode';
import { FUSION_ONLY, med, profileLibrary, scriptedPlanner } from './setup';

const spawn = () => spawnEmbedThread('use-lite', { queries: true });
const lane: QueryLanePools = {
  backlog: createEmbedPool({ spawn, size: 1 }),
  query: createEmbedPool({ spawn, size: 1 }),
};
await lane.backlog.workers();
await lane.query!.workers();
const { queries, core } = await profileLibrary('use-lite');
const { hybrid, lookup } = core.appSearch({
  fusion: hybridSettings({ model: 'use-lite' }).method,
  semantic: {
    embedQuery: async (t) => (await embedQueriesOnLane(lane, [t]))[0]!,
    embedQueries: (ts) => embedQueriesOnLane(lane, ts),
  },
});
const { planner, paths } = scriptedPlanner(core, { hybrid, lookup });
const fusion = FUSION_ONLY;
const texts = [...queries.values()].slice(0, 80);
const cpu: Record<string, number[]> = {};
const mainCpu = async (k: string, f: () => Promise<unknown>) => {
  const c = process.cpuUsage();
  await f();
  const d = process.cpuUsage(c);
  (cpu[k] ??= []).push((d.user + d.system) / 1000);
};
const mode = process.env.ONLY ?? 'both';
for (const q of [...texts, ...texts]) {
  if (mode !== 'fusion')
    await mainCpu('single (all threads)', () => hybrid.retrieve({ query: q, limit: 10 }, {}));
  if (mode !== 'single')
    await mainCpu('fusion (all threads)', async () => {
      const out = await planner.plan(q, fusion);
      await paths.present(q, out.hits);
    });
}
for (const [k, v] of Object.entries(cpu)) console.log(k.padEnd(30), med(v));
await core.close();
await lane.backlog.close();
await lane.query!.close();
