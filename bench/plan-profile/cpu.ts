// Ad-hoc (issue 15, RAGF-006): the CPU time of each part of one hybrid query and of a RAG-Fusion
// plan, each part run alone (one thread busy at a time, so the process's CPU time is that part's),
// and the latency floors they imply on 1 and 2 embed threads with free cores. CPU time barely
// moves with the machine's load, unlike wall time. `[MODEL=all-MiniLM-L6-v2] npx tsx bench/plan-profile/cpu.ts`
import { loadavg } from 'node:os';
import { planSearchDeps } from '../../workers/db/search-paths';
import { scriptedVariants } from '../../workers/llm/scripted';
import { hybridSettings } from '../../eval/hybrid-mode';
import { med, partTimer, profileLibrary, profilePool } from './setup';

const MODEL = process.env.MODEL ?? 'use-lite';
const pool = await profilePool(MODEL, 1);
const { queries, core } = await profileLibrary(MODEL);
const { lexical } = core.parts();
const { hybrid, lookup } = core.appSearch({
  fusion: hybridSettings({ model: MODEL }).method,
  semantic: {
    embedQuery: async (t) => (await pool.embed([t], { role: 'query' }))[0]!,
    embedQueries: async (ts) => pool.embed(ts, { role: 'query' }),
  },
});
const paths = planSearchDeps({ hybrid, lookup, store: core.parts().store, lexical });
const { cpu, wall, part } = partTimer();
const texts = [...queries.values()].slice(0, 60);
for (const [i, q] of texts.entries()) {
  const vs = scriptedVariants(q, 4);
  const [v] = await part('E_o: embed the query (worker)', () => pool.embed([q], { role: 'query' }));
  const vv = await part('E_v: embed 4 variants, one call (worker)', () =>
    pool.embed(vs, { role: 'query' }),
  );
  await part('E_v2: embed 2 variants, one call (worker)', () =>
    pool.embed(vs.slice(0, 2), { role: 'query' }),
  );
  await part('L: lexical rank of the query (main)', () => lexical.rankChunks(q, { limit: 20 }));
  // At once, as a plan's retrievals call them: one batch (lexical-search.ts rankBatch).
  await part('L5: lexical ranks of query + 4 variants (main)', () =>
    Promise.all([q, ...vs].map((x) => lexical.rankChunks(x, { limit: 20 }))),
  );
  const rk = await part('R: rank given its vector (main, incl. L)', () =>
    hybrid.rank({ query: q, limit: 10 }, { vector: v! }),
  );
  await part('R5: 5 ranks given vectors + RRF (main, incl. L5)', async () => {
    const lists = await Promise.all(
      [q, ...vs].map((x, j) =>
        paths.search({ text: x, vector: j === 0 ? v! : vv[j - 1]!, limit: 10 }),
      ),
    );
    return lists;
  });
  await part('P: hits for 10 results (main)', () =>
    paths.present(
      q,
      rk.map((x) => ({ ...x, id: String(x.chunkId) })),
    ),
  );
  if (i === 4) {
    for (const k of Object.keys(cpu)) {
      cpu[k]!.length = 0;
      wall[k]!.length = 0;
    }
  }
}
const c = (k: string) => med(cpu[k]!);
for (const k of Object.keys(cpu))
  console.log(k.padEnd(52), 'cpu', c(k).toFixed(2), ' wall', med(wall[k]!).toFixed(2));
const [Eo, Ev, Ev2, L, L5, R, R5, P] = Object.keys(cpu).map(c) as [
  number,
  number,
  number,
  number,
  number,
  number,
  number,
  number,
];
const post1 = R - L + P; // the single query after its vector: HNSW side, fusion, hits
const post5 = R5 - L5 + P; // the plan after its vectors: 5 HNSW sides, RRF, hits once
const single = Math.max(Eo, L) + post1;
const fusion1 = Math.max(Eo + Ev, L5) + post5;
// Two embed threads on 2 free cores: the original on one, the variants on the other, the keyword
// ranks on the main thread: three busy threads on 2 cores, hence the CPU bound. Before: the
// variants in 2 + 2 (two passes, both queued on the idle worker); now one pass of 4.
const fusion2Split = Math.max(Eo, 2 * Ev2, (Eo + 2 * Ev2 + L5) / 2) + post5;
const fusion2 = Math.max(Eo, Ev, (Eo + Ev + L5) / 2) + post5;
const r = (x: number) => Math.round(x * 100) / 100;

/**
 * Wall time of threads sharing `cores` fairly (each runnable thread runs at min(1, cores /
 * (runnable + background)), as a fair scheduler shares them) with `background` other busy threads.
 * Each thread runs its tasks in order; a task waits for the tasks named in `after`.
 */
type Task = { id: string; cpu: number; after?: string[] };
function shared(threads: Task[][], cores: number, background: number): number {
  const done = new Map<string, number>();
  const left = threads.map((ts) => ts.map((t) => t.cpu));
  const at = threads.map(() => 0);
  const dt = 0.005;
  let t = 0;
  while (at.some((i, k) => i < threads[k]!.length)) {
    const ready = threads.map(
      (ts, k) => at[k]! < ts.length && (ts[at[k]!]!.after ?? []).every((a) => done.has(a)),
    );
    const n = ready.filter(Boolean).length;
    const rate = Math.min(1, cores / Math.max(1, n + background));
    t += dt;
    ready.forEach((go, k) => {
      if (!go) return;
      left[k]![at[k]!]! -= rate * dt;
      if (left[k]![at[k]!]! <= 0) done.set(threads[k]![at[k]!++]!.id, t);
    });
  }
  return t;
}
const singleDag = [
  [
    { id: 'L', cpu: L },
    { id: 'post', cpu: post1, after: ['Eo'] },
  ],
  [{ id: 'Eo', cpu: Eo }],
];
// The app's layout since the query worker: the original on the query worker, the variants on the
// idle backlog worker, the five keyword rankings on the library thread.
const laneDag = [
  [
    { id: 'L5', cpu: L5 },
    { id: 'post', cpu: post5, after: ['Eo', 'Ev'] },
  ],
  [{ id: 'Eo', cpu: Eo }],
  [{ id: 'Ev', cpu: Ev }],
];
// A layout tried in s10a and reverted (measured no faster, bench/README.md): the keyword rankings
// wait for a free core, starting when the original's vector returns, beside the variants' batch.
const waitDag = [
  [
    { id: 'L5', cpu: L5, after: ['Eo'] },
    { id: 'post', cpu: post5, after: ['Ev'] },
  ],
  [{ id: 'Eo', cpu: Eo }],
  [{ id: 'Ev', cpu: Ev }],
];
// Before it, on a 2-core device: the original and the variants on the one embed worker.
const oneDag = [
  [
    { id: 'L5', cpu: L5 },
    { id: 'post', cpu: post5, after: ['Ev'] },
  ],
  [
    { id: 'Eo', cpu: Eo },
    { id: 'Ev', cpu: Ev },
  ],
];
const fairShare = Object.fromEntries(
  [0, 0.5, 1, 2].map((b) => [
    `2 cores, ${b} other busy threads`,
    {
      'query worker, keyword rankings after a core frees (tried)': r(
        shared(waitDag, 2, b) / shared(singleDag, 2, b),
      ),
      'query worker, keyword rankings at once (now)': r(
        shared(laneDag, 2, b) / shared(singleDag, 2, b),
      ),
      'one embed worker (before)': r(shared(oneDag, 2, b) / shared(singleDag, 2, b)),
    },
  ]),
);
console.log(
  JSON.stringify({
    singleFloorMs: r(single),
    fusionFloorOneThreadMs: r(fusion1),
    fusionFloorTwoThreadsMs: r(fusion2),
    'ratio floor, 1 embed thread': r(fusion1 / single),
    'ratio floor, 2 embed threads, 2 free cores, variants 2 + 2 (before)': r(fusion2Split / single),
    'ratio floor, 2 embed threads, 2 free cores, variants in one pass (now)': r(fusion2 / single),
    'ratio, fair share of 2 cores (simulated from the CPU times)': fairShare,
    load: loadavg().map(r),
  }),
);
await core.close();
await pool.close();
