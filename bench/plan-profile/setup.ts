// The ad-hoc plan profiles' common setup (issue 15, RAGF-006): the median they print, an embed
// pool of query-embedding threads, and the plan bench's library (the first 700 SciFact documents,
// indexed by the eval's hybrid core). Profiles report; they never gate.
import { join } from 'node:path';
import { createEmbedPool, type EmbedPool } from '../../workers/embed/pool';
import { REPO_ROOT } from '../../workers/embed/node-kernel';
import { spawnEmbedThread } from '../embed-cache';
import { loadCorpus, loadQueries } from '../eval/beir';
import { createHybridCore } from '../eval/hybrid-mode';

/** The median, rounded to 0.01 (ms). */
export const med = (a: number[]): number => {
  const s = [...a].sort((x, y) => x - y);
  return Math.round(s[Math.floor(s.length / 2)]! * 100) / 100;
};

/** `threads` embed threads for queries, started and loaded. */
export async function profilePool(model: string, threads: number): Promise<EmbedPool> {
  const pool = createEmbedPool({
    spawn: () => spawnEmbedThread(model, { queries: true }),
    size: threads,
  });
  await pool.workers();
  return pool;
}

/** The plan bench's library: SciFact's first `docs` documents indexed, and its queries. */
export async function profileLibrary(model: string, docs = 700) {
  const ds = join(REPO_ROOT, '../shared/datasets/scifact');
  const [corpus, queries] = await Promise.all([loadCorpus(ds), loadQueries(ds)]);
  const core = await createHybridCore({ model });
  await core.index(corpus.slice(0, docs));
  return { corpus, queries, core };
}
