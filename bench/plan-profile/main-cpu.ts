// Ad-hoc (issue 15, RAGF-006): the library thread's CPU in a RAG-Fusion plan against one hybrid
// query, the embeddings on the app's lane (one backlog thread + the query worker). Run under the
// V8 profiler to see where the plan's extra CPU goes:
// `node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx bench/plan-profile/main-cpu.ts`
import {
  appLane,
  FUSION_ONLY,
  laneSearch,
  med,
  partTimer,
  profileLibrary,
  scriptedPlanner,
} from './setup';

const lane = await appLane();
const { queries, core } = await profileLibrary('use-lite');
const { hybrid, lookup } = laneSearch(core, lane);
const { planner, paths } = scriptedPlanner(core, { hybrid, lookup });
const fusion = FUSION_ONLY;
const texts = [...queries.values()].slice(0, 80);
const { cpu, part: mainCpu } = partTimer();
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
