// `npm run bench -- hnsw` (or `npx tsx bench/hnsw.bench.ts [--sizes 10000,100000] ...`):
// HNSW build throughput, query latency p50/p95 and recall@10 against the exact scan, side by
// side with the exact scan and (when it can be loaded) hnswlib-node on the same vectors and
// parameters. Reports only; nothing here gates CI.
// Flags: --sizes 10000,100000  --dim 512  --queries 200  --M 16  --efc 200  --ef 50,100
//        --data clustered|uniform  --seed 1  --kernel wasm|js
//        --hnswlib <module path> (or HNSWLIB_NODE=...; hnswlib-node is native and not a project
//        dependency: `npm install hnswlib-node` in a scratch folder and point at it)
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { createNodeKernel } from '../workers/embed/node-kernel';
import {
  createExactIndex,
  createHnswIndex,
  createWasmDotKernel,
  deserializeVectorIndex,
  jsDotKernel,
} from '../workers/vector/index';
import type { DotKernel, VectorIndex } from '../workers/vector/index';
import { dequantize } from '../workers/shared/quant';
import { clusteredUnits, createRandom, randomUnit } from '../workers/vector/vectors.testkit';
import { parseArgs } from '../lab/args';

interface NativeIndex {
  initIndex(maxElements: number, m?: number, efConstruction?: number, randomSeed?: number): void;
  addPoint(point: number[], label: number): void;
  setEf(ef: number): void;
  searchKnn(q: number[], k: number): { neighbors: number[]; distances: number[] };
}
type NativeCtor = new (space: string, dim: number) => NativeIndex;

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function timeQueries(
  queries: Int16Array[],
  run: (q: Int16Array) => number[],
): { p50: number; p95: number; results: number[][] } {
  const times: number[] = [];
  const results: number[][] = [];
  // Warm-up (JIT, caches) so p95 measures steady state, not the first compilations.
  for (const q of queries.slice(0, 20)) run(q);
  for (const q of queries) {
    const t = performance.now();
    results.push(run(q));
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return { p50: pct(times, 50), p95: pct(times, 95), results };
}

function recall(results: number[][], truth: number[][]): number {
  let hit = 0;
  let all = 0;
  results.forEach((r, i) => {
    const t = new Set(truth[i]);
    hit += r.filter((id) => t.has(id)).length;
    all += t.size;
  });
  return hit / all;
}

function loadNative(path: string | undefined): NativeCtor | null {
  try {
    const require = createRequire(import.meta.url);
    const mod = require(path ?? 'hnswlib-node') as { HierarchicalNSW: NativeCtor };
    return mod.HierarchicalNSW;
  } catch {
    return null;
  }
}

const f = (x: number, d = 2): string => x.toFixed(d);
const mb = (b: number): string => `${f(b / 1048576, 1)} MB`;

export async function main(argv: string[] = process.argv.slice(2)): Promise<void> {
  const args = parseArgs(argv);
  const sizes = (args.sizes ?? '10000,100000').split(',').map(Number);
  const dim = Number(args.dim ?? 512);
  const nq = Number(args.queries ?? 200);
  const M = Number(args.M ?? 16);
  const efc = Number(args.efc ?? 200);
  const efs = (args.ef ?? '50,100').split(',').map(Number);
  const kind = args.data ?? 'clustered';
  const seed = Number(args.seed ?? 1);
  const Native = loadNative(args.hnswlib ?? process.env.HNSWLIB_NODE);
  const kernelName = args.kernel ?? 'wasm';
  // Exact scan and HNSW use the same kernel, so the exact/hnsw ratio is about the algorithm.
  const kernel: DotKernel =
    kernelName === 'js' ? jsDotKernel : createWasmDotKernel(await createNodeKernel());
  console.log(
    `hnsw bench: dim=${dim} M=${M} efConstruction=${efc} ef=${efs.join(',')} data=${kind} queries=${nq} seed=${seed} kernel=${kernelName} ` +
      `node=${process.version} hnswlib-node=${Native ? 'loaded' : 'not installed (pass --hnswlib <path>)'}`,
  );
  for (const n of sizes) benchSize(n, { dim, nq, M, efc, efs, kind, seed }, kernel, Native);
}

interface SizeOptions {
  dim: number;
  nq: number;
  M: number;
  efc: number;
  efs: number[];
  kind: string;
  seed: number;
}

/** One library size: build, persist, exact scan, then each ef against exact (and hnswlib-node). */
function benchSize(n: number, o: SizeOptions, kernel: DotKernel, Native: NativeCtor | null): void {
  const { dim, nq, M, efc } = o;
  const random = createRandom(o.seed * 7919 + n);
  const all =
    o.kind === 'uniform'
      ? Array.from({ length: n + nq }, () => randomUnit(random, dim))
      : clusteredUnits(random, dim, n + nq, Math.max(150, Math.round(n / 100)));
  const data = all.slice(0, n);
  const queries = all.slice(n);
  const heap0 = process.memoryUsage();

  let t = performance.now();
  const hnsw: VectorIndex = createHnswIndex({ dim, M, efConstruction: efc }, { kernel });
  data.forEach((v, i) => hnsw.add(i, v));
  const buildMs = performance.now() - t;
  const heap1 = process.memoryUsage();

  const exact = createExactIndex({ dim, initialCapacity: n }, { kernel });
  data.forEach((v, i) => exact.add(i, v));
  const ex = timeQueries(queries, (q) => exact.search(q, 10).map((h) => h.id));

  t = performance.now();
  const bytes = hnsw.serialize();
  const serMs = performance.now() - t;
  t = performance.now();
  deserializeVectorIndex(bytes, { kernel });
  const deMs = performance.now() - t;

  const st = hnsw.stats();
  console.log(
    `\nn=${n}: build ${f(buildMs / 1000, 1)} s (${Math.round(n / (buildMs / 1000))} vectors/s), ` +
      `index ${mb(st.bytes)} typed arrays (vectors ${mb(n * dim * 2)}), heap+arrayBuffers delta ${mb(
        heap1.heapUsed + heap1.arrayBuffers - heap0.heapUsed - heap0.arrayBuffers,
      )}, levels 0..${st.maxLevel}`,
  );
  console.log(
    `  persist: ${mb(bytes.length)}, serialize ${f(serMs, 0)} ms, deserialize+verify ${f(deMs, 0)} ms`,
  );
  console.log(`  exact scan:        p50 ${f(ex.p50)} ms  p95 ${f(ex.p95)} ms  recall@10 1.000`);
  const native = Native ? buildNative(Native, data, o, buildMs) : null;
  for (const ef of o.efs) {
    const ours = timeQueries(queries, (q) => hnsw.search(q, 10, { ef }).map((h) => h.id));
    const r = recall(ours.results, ex.results);
    let line =
      `  hnsw ef=${String(ef).padEnd(4)}      p50 ${f(ours.p50)} ms  p95 ${f(ours.p95)} ms  recall@10 ${f(r, 3)}  ` +
      `exact/hnsw p50 ${f(ex.p50 / ours.p50, 1)}x`;
    if (native) {
      native.setEf(ef);
      const nat = timeQueries(
        queries,
        (q) => native.searchKnn(Array.from(dequantize(q)), 10).neighbors,
      );
      line +=
        `\n  hnswlib-node ef=${String(ef).padEnd(4)} p50 ${f(nat.p50)} ms  p95 ${f(nat.p95)} ms  recall@10 ${f(recall(nat.results, ex.results), 3)}  ` +
        `ours/native p50 ${f(ours.p50 / nat.p50)}x p95 ${f(ours.p95 / nat.p95)}x`;
    }
    console.log(line);
  }
}

/** hnswlib-node on the same vectors and parameters; prints its build time against ours. */
function buildNative(
  Native: NativeCtor,
  data: Int16Array[],
  o: SizeOptions,
  buildMs: number,
): NativeIndex {
  const n = data.length;
  const t = performance.now();
  const native = new Native('ip', o.dim);
  native.initIndex(n, o.M, o.efc, 100);
  data.forEach((v, i) => native.addPoint(Array.from(dequantize(v)), i));
  const nativeBuildMs = performance.now() - t;
  console.log(
    `  hnswlib-node build ${f(nativeBuildMs / 1000, 1)} s (${Math.round(n / (nativeBuildMs / 1000))} vectors/s); ` +
      `ours/native build time ${f(buildMs / nativeBuildMs)}x`,
  );
  return native;
}

export default { name: 'hnsw', run: main };

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
