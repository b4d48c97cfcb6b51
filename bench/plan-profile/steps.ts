// Ad-hoc: each step's start and duration in a RAG-Fusion plan (T embed threads).
import { createScriptedGenerator } from '../../workers/llm/scripted';
import { planSearchDeps } from '../../workers/library/search-paths';
import { createQueryPlanner } from '../../workers/research/planner';
import { createEmbedPool } from '../../workers/embed/pool';
import { spawnEmbedThread } from '../embed-cache';
import { loadCorpus, loadQueries } from '../eval/beir';
import { createHybridCore, hybridSettings } from '../eval/hybrid-mode';
const threads = Number(process.env.T ?? 1);
const pool = createEmbedPool({
  spawn: () => spawnEmbedThread('use-lite', { queries: true }),
  size: threads,
});
await pool.workers();
const ds = '/work/shared/datasets/scifact';
const [corpus, queries] = await Promise.all([loadCorpus(ds), loadQueries(ds)]);
const core = await createHybridCore({ model: 'use-lite' });
await core.index(corpus.slice(0, 700));
const { embedFresh, lexical } = core.parts();
const { hybrid, lookup } = core.appSearch({
  fusion: hybridSettings({ model: 'use-lite' }).method,
  semantic: {
    embedQuery: async (t) => (await pool.embed([t], { role: 'query' }))[0]!,
    embedQueries: async (ts) =>
      pool.embed(ts, { role: 'query', batchSize: Math.ceil(ts.length / Math.max(1, pool.idle())) }),
  },
});
const paths = planSearchDeps({ hybrid, lookup, store: core.parts().store, lexical });
const g = createScriptedGenerator({ yieldBetweenPieces: false });
const planner = createQueryPlanner({
  ...paths,
  embed: async (ts) => ts.map(embedFresh),
  llm: { kind: 'scripted', generate: (r, o) => g.generate(r, o) },
  clock: { now: () => performance.now() },
});
const fusion = {
  complexity: 'complex' as const,
  techniques: { rewrite: false, hyde: false, fusion: true, keyphrases: false },
};
const texts = [...queries.values()].slice(0, 30);
const acc: Record<string, number[][]> = {};
for (const q of texts) {
  const out = await planner.plan(q, fusion);
  for (const s of out.plan.steps) (acc[s.id] ??= []).push([s.startMs, s.durationMs]);
}
const med = (a: number[]) => a.sort((x, y) => x - y)[a.length >> 1]!.toFixed(2);
for (const [k, v] of Object.entries(acc))
  console.log(k.padEnd(28), 'start', med(v.map((x) => x[0]!)), 'dur', med(v.map((x) => x[1]!)));
await core.close();
await pool.close();
