// Ad-hoc (issue 15, RAGF-006): CPU time per thread of one hybrid query and of a RAG-Fusion plan
// (hits built), on the app's lane (one backlog embed thread + the query worker), from Linux's
// per-thread schedstat (ns on the CPU, ns waiting for one): the library (main) thread apart from
// the embed threads, and how long the threads waited for a core. Linux only.
// `npx tsx bench/plan-profile/threads.ts`
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { appLane, FUSION_ONLY, laneSearch, med, profileLibrary, scriptedPlanner } from './setup';

const lane = await appLane();
const { queries, core } = await profileLibrary('use-lite');
const { hybrid, lookup } = laneSearch(core, lane);
const { planner, paths } = scriptedPlanner(core, { hybrid, lookup });

/** [on-CPU ns, run-queue wait ns] per thread id of this process. */
function schedstat(): Map<number, [number, number]> {
  const out = new Map<number, [number, number]>();
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const [run, wait] = readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').split(' ');
      out.set(Number(tid), [Number(run), Number(wait)]);
    } catch {
      // the thread ended meanwhile
    }
  }
  return out;
}
const main = process.pid;
const rows: Record<string, Record<string, number[]>> = {};
async function measure(k: string, f: () => Promise<unknown>) {
  const a = schedstat();
  const t0 = performance.now();
  await f();
  const wall = performance.now() - t0;
  const b = schedstat();
  let [mainCpu, mainWait, otherCpu, otherWait] = [0, 0, 0, 0];
  for (const [tid, [run, wait]] of b) {
    const [r0, w0] = a.get(tid) ?? [0, 0];
    if (tid === main) [mainCpu, mainWait] = [(run - r0) / 1e6, (wait - w0) / 1e6];
    else [otherCpu, otherWait] = [otherCpu + (run - r0) / 1e6, otherWait + (wait - w0) / 1e6];
  }
  const r = (rows[k] ??= {});
  for (const [name, v] of Object.entries({ wall, mainCpu, mainWait, otherCpu, otherWait }))
    (r[name] ??= []).push(v);
}
const texts = [...queries.values()].slice(0, 80);
const runs: Record<string, (q: string) => Promise<unknown>> = {
  single: (q) => hybrid.retrieve({ query: q, limit: 10 }, {}),
  fusion: async (q) => {
    const out = await planner.plan(q, FUSION_ONLY);
    await paths.present(q, out.hits);
  },
};
for (const q of texts.slice(0, 5)) for (const f of Object.values(runs)) await f(q);
for (const [i, q] of texts.entries()) {
  const names = i % 2 ? ['single', 'fusion'] : ['fusion', 'single'];
  for (const n of names) await measure(n, () => runs[n]!(q));
}
for (const [k, r] of Object.entries(rows))
  console.log(
    k.padEnd(8),
    Object.entries(r)
      .map(([n, v]) => `${n} ${med(v)}`)
      .join('  '),
  );
console.log(
  'load',
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' '),
);
await core.close();
await lane.backlog.close();
await lane.query!.close();
