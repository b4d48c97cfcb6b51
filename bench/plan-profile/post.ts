import { hybridSettings } from '../../eval/hybrid-mode';
import { planSearchDeps } from '../../workers/db/search-paths';
import { med, profileLibrary } from './setup';
const { queries, core } = await profileLibrary('use-lite');
const { embedFresh, semantic, lexical, store } = core.parts();
const { hybrid, lookup } = core.appSearch({ fusion: hybridSettings({ model: 'use-lite' }).method });
const paths = planSearchDeps({ hybrid, lookup, store, lexical });
const qs = [...queries.values()].slice(0, 30);
const t: Record<string, number[]> = {};
const time = async (k: string, f: () => unknown) => {
  const a = performance.now();
  await f();
  (t[k] ??= []).push(performance.now() - a);
};
for (const q of qs) {
  const v = embedFresh(q);
  const hits = semantic.search(v, 21);
  await time('hnsw', () => semantic.search(v, 21));
  await time('chunkKeys 21', () => lookup.chunkKeys(hits.map((h) => h.id)));
  await time('lexical rank 20', () => lexical.rank(q, { limit: 20 }));
  await time('hybrid.rank given vector', () => hybrid.rank({ query: q, limit: 10 }, { vector: v }));
  await time('hybrid.rank semantic only', () =>
    hybrid.rank({ query: q, limit: 10, mode: 'semantic' }, { vector: v }),
  );
  const r = await hybrid.rank({ query: q, limit: 10 }, { vector: v });
  await time('present 10', () =>
    paths.present(
      q,
      r.map((x) => ({ ...x, id: String(x.chunkId) })),
    ),
  );
  await time('buildHits 10', () => lexical.buildHits(q, r));
}
for (const [k, v] of Object.entries(t)) console.log(k.padEnd(30), med(v));
await core.close();
