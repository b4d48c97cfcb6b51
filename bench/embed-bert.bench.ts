// `npm run bench -- embed-bert [--model all-MiniLM-L6-v2|<folder>] [--texts N] [--threads N]
//   [--rounds-of N] [--queries N] [--worker-memory N] [--profile] [--dataset <BEIR folder>]
//   [--out FILE]`
// Sift's canonical BERT runtime against onnxruntime-web's WASM backend (SIMD, one thread) on the
// ONNX export of the same safetensors weights (workers/embed/bert-onnx.ts), the same token ids
// (our WordPiece, identical to the hub tokenizer) and the same SciFact chunks (the app's chunker,
// model input `title\nchunk` as the eval). One text per call on both sides, interleaved in rounds
// in one process and thread so machine load hits both alike. `--profile` times every runtime
// call of the canonical forward pass by op (a wrapped Kernel) instead, on the chunks and on
// `--queries` single claims. `--queries N` (default 300,
// 0 skips) times single short queries (SciFact test claims, tokenizer included) on both sides;
// `--worker-memory N` (default 200, 0 skips) embeds N chunks in an embedding worker thread (the
// eval pool's lab/embed-thread.ts) first and reports its memory. Never gates.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as ort from 'onnxruntime-web';
import type { BertConfig, BertModel } from '../workers/embed/bert';
import { bertToOnnx } from '../workers/embed/bert-onnx';
import type { Kernel } from '../workers/embed/kernel';
import { createNodeKernel, loadBertFolder } from '../workers/embed/node-kernel';
import { parseSafetensors } from '../workers/embed/safetensors';
import { ortEmbedIds } from '../workers/embed/ort-reference.testkit';
import type { Worker } from 'node:worker_threads';
import { parseArgs } from '../lab/args';
import { embedThread } from '../lab/embed-cache';
import { modelFolder } from '../lab/embed-models';
import { loadQrels, loadQueries } from '../eval/beir';
import { scifactChunks } from '../eval/chunk-sample';
import { percentile } from './library-gen';

const HERE = dirname(fileURLToPath(import.meta.url));
const DEFAULT_DATASET = join(HERE, '..', '..', 'shared', 'datasets', 'scifact');

/** A Kernel whose every call adds its wall time to `times[op]` (the profile mode). */
function timedKernel(kernel: Kernel, times: Map<string, number>): Kernel {
  const wrapped = { ...kernel } as Record<string, unknown>;
  for (const [name, fn] of Object.entries(kernel)) {
    if (typeof fn !== 'function' || name === 'mark' || name === 'release') continue;
    wrapped[name] = (...args: unknown[]) => {
      const t0 = process.cpuUsage();
      const r = (fn as (...a: unknown[]) => unknown)(...args);
      times.set(name, (times.get(name) ?? 0) + cpuMs(t0));
      return r;
    };
  }
  return wrapped as unknown as Kernel;
}

interface OrtSide {
  embed(ids: number[]): Promise<Float32Array>;
  version: string;
}

async function ortSide(onnx: Uint8Array, threads: number): Promise<OrtSide> {
  ort.env.wasm.numThreads = threads;
  ort.env.wasm.simd = true;
  const session = await ort.InferenceSession.create(onnx);
  return {
    version: ort.env.versions.web ?? 'unknown',
    // The pooling of the reference check (mean for MiniLM), so both benches compare alike.
    embed: (ids) => ortEmbedIds(session, ids, 'mean'),
  };
}

function readFolder(dir: string): {
  config: BertConfig;
  model: (kernel: Kernel) => BertModel;
  onnx: () => Uint8Array;
} {
  if (!existsSync(join(dir, 'model.safetensors'))) {
    throw new Error(
      `${dir} has no model.safetensors: run \`node tools/copy-model.mjs --fetch-minilm\``,
    );
  }
  const config = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as BertConfig;
  return {
    config,
    model: (kernel) => loadBertFolder(kernel, dir),
    onnx() {
      const bytes = readFileSync(join(dir, 'model.safetensors'));
      const tensors = parseSafetensors(bytes);
      return bertToOnnx(config, tensors);
    },
  };
}

async function profile(
  dir: string,
  texts: string[],
  model: BertModel,
): Promise<Record<string, unknown>> {
  const times = new Map<string, number>();
  const kernel = timedKernel(await createNodeKernel(), times);
  const timed = loadBertFolder(kernel, dir);
  times.clear();
  const ids = texts.map((t) => model.tokenize(t));
  const t0 = process.cpuUsage();
  for (const list of ids) timed.embedIds(list);
  const total = cpuMs(t0);
  const ops = [...times.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([op, ms]) => ({ op, ms: Math.round(ms), share: round3(ms / total) }));
  return {
    texts: texts.length,
    cpuMs: Math.round(total),
    msPerText: round3(total / texts.length),
    ops,
  };
}

/** The SciFact test claims (queries with test qrels), first `count`, in qrels order. */
async function testQueries(dataset: string, count: number): Promise<string[]> {
  const [queries, qrels] = await Promise.all([loadQueries(dataset), loadQrels(dataset, 'test')]);
  return Object.keys(qrels)
    .filter((q) => queries.has(q))
    .slice(0, count)
    .map((q) => queries.get(q)!);
}

function spread(samples: number[]) {
  const s = [...samples].sort((a, b) => a - b);
  return {
    p50_ms: round3(percentile(s, 50)),
    p95_ms: round3(percentile(s, 95)),
    mean_ms: round3(s.reduce((a, b) => a + b, 0) / (s.length || 1)),
  };
}

/**
 * One query at a time as the app embeds a search (tokenize + forward pass, int16 on our side),
 * each query on both runtimes back to back in alternating order; wall and CPU time per query.
 */
async function queryLatency(
  model: BertModel,
  ortRun: OrtSide,
  queries: string[],
): Promise<Record<string, unknown>> {
  const inputs = queries.map((q) => model.queryPrefix + q);
  for (const q of inputs.slice(0, 5)) {
    model.embedInt16(q);
    await ortRun.embed(model.tokenize(q));
  }
  const wall = { canon: [] as number[], ort: [] as number[] };
  const cpu = { canon: [] as number[], ort: [] as number[] };
  const time = async (side: 'canon' | 'ort', q: string) => {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    if (side === 'canon') model.embedInt16(q);
    else await ortRun.embed(model.tokenize(q));
    wall[side].push(performance.now() - t0);
    cpu[side].push(cpuMs(c0));
  };
  for (const [i, q] of inputs.entries()) {
    const order: Array<'canon' | 'ort'> = i % 2 === 0 ? ['canon', 'ort'] : ['ort', 'canon'];
    for (const side of order) await time(side, q);
  }
  const tokens = inputs.map((q) => model.tokenize(q).length);
  const c = spread(wall.canon);
  return {
    queries: inputs.length,
    source: 'SciFact test claims (BEIR queries with test qrels), one per call, tokenizer included',
    mean_tokens: round3(tokens.reduce((a, b) => a + b, 0) / tokens.length),
    max_tokens: Math.max(...tokens),
    load_average_1m: round3(loadavg()[0]!),
    canonical_wall: c,
    canonical_cpu: spread(cpu.canon),
    ort_wall: spread(wall.ort),
    ort_cpu: spread(cpu.ort),
    goal_p50_under_10_ms: c.p50_ms < 10,
  };
}

function gc(): void {
  (globalThis as { gc?: () => void }).gc?.(); // with NODE_OPTIONS=--expose-gc
}

/** The worker's next message (after posting `message`, if any); rejects on its error. */
function next<T>(worker: Worker, message?: unknown): Promise<T> {
  return new Promise((resolve, reject) => {
    const done = (fn: () => void) => {
      worker.off('message', onMessage);
      worker.off('error', onError);
      fn();
    };
    const onMessage = (m: T) => done(() => resolve(m));
    const onError = (e: Error) => done(() => reject(e));
    worker.on('message', onMessage);
    worker.on('error', onError);
    if (message !== undefined) worker.postMessage(message);
  });
}

interface ThreadMemory {
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
  rss: number;
  mallocedMemory: number;
}

/**
 * Memory of one embedding worker thread (lab/embed-thread.ts, as the eval's pool) embedding
 * `texts` in batches of 16: its own isolate's heap + external (the kernel's WASM memory and the
 * buffers) sampled after each batch, and the process RSS it adds (peak sampled every 10 ms
 * minus the RSS before it started).
 */
async function workerMemory(spec: string, texts: string[]): Promise<Record<string, unknown>> {
  gc();
  const rssBefore = process.memoryUsage().rss;
  let peakRss = rssBefore;
  const timer = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }, 10);
  const worker = embedThread(spec);
  try {
    await next(worker); // 'ready'
    const loaded = await next<ThreadMemory>(worker, 'memory');
    let peak = loaded;
    const own = (m: ThreadMemory) => m.heapUsed + m.external;
    const t0 = performance.now();
    for (let s = 0; s < texts.length; s += 16) {
      await next<Int16Array[]>(worker, texts.slice(s, s + 16));
      const m = await next<ThreadMemory>(worker, 'memory');
      if (own(m) > own(peak)) peak = m;
    }
    const ms = performance.now() - t0;
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
    const live = await next<ThreadMemory>(worker, 'memory-gc');
    const addedMb = round3((peakRss - rssBefore) / 2 ** 20);
    const mbOf = (b: number) => round3(b / 2 ** 20);
    return {
      texts: texts.length,
      batch: 16,
      wall_ms: Math.round(ms),
      after_load: { heap_used_mb: mbOf(loaded.heapUsed), external_mb: mbOf(loaded.external) },
      peak_own: {
        heap_used_mb: mbOf(peak.heapUsed),
        heap_total_mb: mbOf(peak.heapTotal),
        external_mb: mbOf(peak.external),
        array_buffers_mb: mbOf(peak.arrayBuffers),
        heap_plus_external_mb: mbOf(own(peak)),
      },
      live_after_gc: {
        heap_used_mb: mbOf(live.heapUsed),
        external_mb: mbOf(live.external),
        array_buffers_mb: mbOf(live.arrayBuffers),
      },
      process_rss_before_mb: mbOf(rssBefore),
      process_rss_peak_mb: mbOf(peakRss),
      rss_added_by_thread_mb: addedMb,
      goal_under_300_mb: addedMb < 300 && own(peak) < 300 * 2 ** 20,
      note: 'the thread runs under tsx (its loader and transpiled sources count in its heap and the added RSS); the app bundle has no loader',
    };
  } finally {
    clearInterval(timer);
    await worker.terminate();
  }
}

async function run(argv: string[]): Promise<void> {
  const args = parseArgs(argv);
  const spec = args.model ?? 'all-MiniLM-L6-v2';
  const dir = modelFolder(spec);
  if (dir === null)
    throw new Error('embed-bert needs a BERT-family model (see `embed` for USE-lite)');
  const nTexts = Number(args.texts ?? 200);
  const threads = Number(args.threads ?? 1);
  const dataset = args.dataset ?? DEFAULT_DATASET;
  const texts = await scifactChunks(dataset, nTexts);
  const folder = readFolder(dir);
  // Before this thread loads anything, so the RSS the worker adds is its own.
  const nWorker = Number(args['worker-memory'] ?? 200);
  const worker =
    args.profile === undefined && nWorker > 0
      ? await workerMemory(spec, await scifactChunks(dataset, nWorker))
      : undefined;

  let peakRss = process.memoryUsage().rss;
  const sample = () => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  };
  const timer = setInterval(sample, 20);
  const l0 = performance.now();
  const kernel = await createNodeKernel();
  const model = folder.model(kernel);
  const canonLoadMs = performance.now() - l0;
  const ids = texts.map((t) => model.tokenize(t));
  const tokens = ids.reduce((a, l) => a + l.length, 0);

  if (args.profile !== undefined) {
    clearInterval(timer);
    await profileReport(dir, texts, model, dataset, Number(args.queries ?? 300), args.out);
    return;
  }

  const l1 = performance.now();
  const ortRun = await ortSide(folder.onnx(), threads);
  const ortLoadMs = performance.now() - l1;

  const timed = await interleave(ids, model, ortRun, Number(args['rounds-of'] ?? 10), sample);
  clearInterval(timer);
  process.stderr.write('\n');
  const nQueries = Number(args.queries ?? 300);
  const queries =
    nQueries > 0
      ? await queryLatency(model, ortRun, await testQueries(dataset, nQueries))
      : undefined;
  const report = {
    model: model.id,
    version: model.version,
    texts: texts.length,
    tokens,
    mean_tokens: round3(tokens / texts.length),
    max_tokens: Math.max(...ids.map((l) => l.length)),
    threads,
    cpu: cpus()[0]?.model ?? 'unknown',
    load_average_1m: round3(loadavg()[0]!),
    date: new Date().toISOString(),
    // Rates use CPU time of this (single-threaded) process: the machine is shared, and wall time
    // counts the minutes other jobs hold the core. Wall-clock figures follow for comparison.
    ...rates(texts.length, tokens, timed, {
      canonLoadMs,
      wasmBytes: kernel.memoryBytes(),
      ortRuntime: `onnxruntime-web ${ortRun.version} wasm simd, ${threads} thread(s)`,
      ortLoadMs,
    }),
    peak_rss_mb: round3(peakRss / 2 ** 20),
    ...(queries ? { single_query_latency: queries } : {}),
    ...(worker ? { embed_worker_memory: worker } : {}),
  };
  console.log(JSON.stringify(report, null, 2));
  const out = args.out ?? join(HERE, '..', 'reports', 'embed-bert.local.json');
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
}

/** --profile: the canonical forward pass timed by op, on the chunks and on single queries. */
async function profileReport(
  dir: string,
  texts: string[],
  model: BertModel,
  dataset: string,
  nQueries: number,
  out: string | undefined,
): Promise<void> {
  const report = {
    model: model.id,
    version: model.version,
    ...(await profile(dir, texts, model)),
    // The same per-op split for single queries (one SciFact test claim per forward pass).
    queries: await profile(
      dir,
      (await testQueries(dataset, nQueries)).map((q) => model.queryPrefix + q),
      model,
    ),
  };
  console.log(JSON.stringify(report, null, 2));
  if (out) writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
}

/**
 * Both runtimes on the same token ids, one text per call, in interleaved rounds of `ROUND`
 * after 3 untimed warm-ups: wall and CPU ms of each, and their min cosine.
 */
async function interleave(
  ids: number[][],
  model: BertModel,
  ortRun: Awaited<ReturnType<typeof ortSide>>,
  ROUND: number,
  sample: () => void,
) {
  for (const list of ids.slice(0, 3)) {
    model.embedIds(list);
    await ortRun.embed(list);
  }
  let canonMs = 0;
  let ortMs = 0;
  let canonCpu = 0;
  let ortCpu = 0;
  let minCos = 1;
  for (let s = 0; s < ids.length; s += ROUND) {
    const round = ids.slice(s, s + ROUND);
    const c0 = performance.now();
    const cc0 = process.cpuUsage();
    const ours = round.map((l) => model.embedIds(l).float);
    canonCpu += cpuMs(cc0);
    canonMs += performance.now() - c0;
    sample();
    const t0 = performance.now();
    const tc0 = process.cpuUsage();
    const theirs: Float32Array[] = [];
    for (const l of round) theirs.push(await ortRun.embed(l));
    ortCpu += cpuMs(tc0);
    ortMs += performance.now() - t0;
    sample();
    round.forEach((_, i) => {
      let d = 0;
      for (let j = 0; j < model.dim; j++) d += ours[i]![j]! * theirs[i]![j]!;
      minCos = Math.min(minCos, d);
    });
    process.stderr.write(`\r[embed-bert] ${Math.min(s + ROUND, ids.length)}/${ids.length} texts`);
  }
  return { canonMs, ortMs, canonCpu, ortCpu, minCos };
}

/** Throughput of both runtimes (CPU-time rates, then wall-clock), their ratio and min cosine. */
function rates(
  n: number,
  tokens: number,
  t: Awaited<ReturnType<typeof interleave>>,
  o: { canonLoadMs: number; wasmBytes: number; ortRuntime: string; ortLoadMs: number },
) {
  const { canonMs, ortMs, canonCpu, ortCpu, minCos } = t;
  return {
    canonical_texts_per_s: round3(n / (canonCpu / 1000)),
    canonical_tokens_per_s: Math.round(tokens / (canonCpu / 1000)),
    canonical_ms_per_text: round3(canonCpu / n),
    canonical_wall_texts_per_s: round3(n / (canonMs / 1000)),
    canonical_load_ms: Math.round(o.canonLoadMs),
    canonical_wasm_memory_mb: round3(o.wasmBytes / 2 ** 20),
    ort_runtime: o.ortRuntime,
    ort_texts_per_s: round3(n / (ortCpu / 1000)),
    ort_tokens_per_s: Math.round(tokens / (ortCpu / 1000)),
    ort_ms_per_text: round3(ortCpu / n),
    ort_wall_texts_per_s: round3(n / (ortMs / 1000)),
    ort_load_ms: Math.round(o.ortLoadMs),
    ratio_vs_ort: round3(ortCpu / canonCpu),
    ratio_vs_ort_wall: round3(ortMs / canonMs),
    min_cosine: Math.round(minCos * 1e9) / 1e9,
  };
}

/** User + system CPU milliseconds of this process since `start`. */
function cpuMs(start: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(start);
  return (d.user + d.system) / 1000;
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}

export default { name: 'embed-bert', run };
