// The ad-hoc plan profiles' common setup (issue 15, RAGF-006): the median they print, an embed
// pool of query-embedding threads, the app's query lane and search over it, and the plan bench's library (the first 700 SciFact documents,
// indexed by the eval's hybrid core). Profiles report; they never gate.
import { join } from 'node:path';
import { createEmbedPool, type EmbedPool } from '../../workers/embed/pool';
import { REPO_ROOT } from '../../workers/embed/node-kernel';
import { embedQueriesOnLane, type QueryLanePools } from '../../workers/db/query-lane';
import { planSearchDeps } from '../../workers/db/search-paths';
import { createScriptedGenerator } from '../../workers/llm/scripted';
import { createQueryPlanner } from '../../workers/query-plan/planner';
import type { HybridSearch } from '../../workers/search/hybrid';
import type { ChunkLookup } from '../../workers/store/chunk-lookup';
import { spawnEmbedThread } from '../../lab/embed-cache';
import { loadCorpus, loadQueries } from '../../eval/beir';
import { createHybridCore, hybridSettings, type HybridCore } from '../../eval/hybrid-mode';

/** The median, rounded to 0.01 (ms). */
export const med = (a: number[]): number => {
  const s = [...a].sort((x, y) => x - y);
  return Math.round(s[Math.floor(s.length / 2)]! * 100) / 100;
};

/**
 * Per-label samples of this process's CPU time (all threads, ms) and wall time of `part(label, f)`,
 * which returns what `f` returns.
 */
export function partTimer() {
  const cpu: Record<string, number[]> = {};
  const wall: Record<string, number[]> = {};
  async function part<T>(k: string, f: () => Promise<T>): Promise<T> {
    const c = process.cpuUsage();
    const w = performance.now();
    const out = await f();
    const d = process.cpuUsage(c);
    (wall[k] ??= []).push(performance.now() - w);
    (cpu[k] ??= []).push((d.user + d.system) / 1000);
    return out;
  }
  return { cpu, wall, part };
}

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

/** The techniques of a RAG-Fusion plan alone (the scripted generator's 4 variants + the query). */
export const FUSION_ONLY = {
  complexity: 'complex' as const,
  techniques: { rewrite: false, hyde: false, fusion: true, keyphrases: false },
};

/**
 * The planner over the app's search paths (returned too: `present` builds hits) with the instant
 * scripted generator, as the plan bench wires it.
 */
export function scriptedPlanner(
  core: HybridCore,
  search: { hybrid: HybridSearch; lookup: ChunkLookup },
) {
  const { store, lexical, embedFresh } = core.parts();
  const paths = planSearchDeps({ ...search, store, lexical });
  const g = createScriptedGenerator({ yieldBetweenPieces: false });
  const planner = createQueryPlanner({
    ...paths,
    embed: async (ts) => ts.map(embedFresh),
    llm: { kind: 'scripted', generate: (r, o) => g.generate(r, o) },
    clock: { now: () => performance.now() },
  });
  return { planner, paths };
}

/** The app's 2-core query lane: one backlog embed thread and the query worker, both loaded. */
export async function appLane(model = 'use-lite'): Promise<QueryLanePools> {
  const spawn = () => spawnEmbedThread(model, { queries: true });
  const lane = {
    backlog: createEmbedPool({ spawn, size: 1 }),
    query: createEmbedPool({ spawn, size: 1 }),
  };
  await Promise.all([lane.backlog.workers(), lane.query.workers()]);
  return lane;
}

/** The app's hybrid search over `core`, its query vectors embedded on `lane` as the app routes them. */
export function laneSearch(core: HybridCore, lane: QueryLanePools, model = 'use-lite') {
  return core.appSearch({
    fusion: hybridSettings({ model }).method,
    semantic: {
      embedQuery: async (t) => (await embedQueriesOnLane(lane, [t]))[0]!,
      embedQueries: (ts) => embedQueriesOnLane(lane, ts),
    },
  });
}
