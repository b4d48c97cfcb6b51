// Ad-hoc profile of the plan bench's parts (issue 15, RAGF-006): where a RAG-Fusion plan's time goes.
// `T=1 npx tsx bench/plan-profile/prof.ts` (T = embed threads, 0 = main thread); emb.ts: query
// embedding cost by length; post.ts: the parts after the embedding. Reports; never gates.
import { hybridSettings } from '../../eval/hybrid-mode';
import { FUSION_ONLY, med, profileLibrary, profilePool, scriptedPlanner } from './setup';
const threads = Number(process.env.T ?? 1);
const pool = threads > 0 ? await profilePool('use-lite', threads) : null;
const { queries, core } = await profileLibrary('use-lite');
const { embedFresh, embedFreshBatch, lexical, semantic } = core.parts();
const { hybrid, lookup } = core.appSearch({
  fusion: hybridSettings({ model: 'use-lite' }).method,
  semantic: {
    embedQuery: async (t) =>
      pool ? (await pool.embed([t], { role: 'query' }))[0]! : embedFresh(t),
    embedQueries: async (ts) =>
      pool
        ? pool.embed(ts, {
            role: 'query',
            batchSize: Math.ceil(ts.length / Math.max(1, pool.idle())),
          })
        : embedFreshBatch(ts),
  },
});
const { planner, paths } = scriptedPlanner(core, { hybrid, lookup });
const fusion = FUSION_ONLY;
const texts = [...queries.values()].slice(0, 40);
const t: Record<string, number[]> = {};
const add = (k: string, v: number) => (t[k] ??= []).push(v);
for (const [i, q] of texts.entries()) {
  let a = performance.now();
  await hybrid.retrieve({ query: q, limit: 10 }, {});
  add('single total', performance.now() - a);
  a = performance.now();
  embedFresh(q);
  add('single embed inline', performance.now() - a);
  a = performance.now();
  await lexical.rankChunks(q, { limit: 20 });
  add('single lexical rank', performance.now() - a);
  const v = embedFresh(q);
  a = performance.now();
  const rk = await hybrid.rank({ query: q, limit: 10 }, { vector: v });
  add('single rank given vector', performance.now() - a);
  a = performance.now();
  await paths.present(
    q,
    rk.map((x) => ({ ...x, id: String(x.chunkId) })),
  );
  add('single present 10', performance.now() - a);
  a = performance.now();
  semantic.search(v, 21);
  add('hnsw 21', performance.now() - a);
  a = performance.now();
  const out = await planner.plan(q, fusion);
  const mid = performance.now();
  await paths.present(q, out.hits);
  const e = performance.now();
  add('fusion plan', mid - a);
  add('fusion present', e - mid);
  add('fusion total', e - a);
  for (const s of out.plan.steps) add(`step ${s.kind}:${s.id}`, s.durationMs);
  if (i === 0) console.log(out.plan.steps.filter((s) => s.kind === 'retrieve').map((s) => s.texts));
  const vt = out.plan.steps.filter((s) => s.kind === 'retrieve').map((s) => s.texts[0]!);
  a = performance.now();
  embedFreshBatch(vt);
  add('embed 5 variants batch inline', performance.now() - a);
  a = performance.now();
  for (const x of vt) await lexical.rankChunks(x, { limit: 20 });
  add('5 lexical ranks', performance.now() - a);
}
for (const [k, v] of Object.entries(t)) console.log(k.padEnd(40), med(v));
await core.close();
await pool?.close();
