// Byte comparison of two builds of the runtime, for kernel work that must not change a bit:
// `npx tsx wasm/compare-kernel-builds.ts --old <old.wasm> [--old-wrapper <kernel.ts>] [--new <new.wasm>]
//   [--chunks N] [--kernels-only]`
// (new defaults to wasm/build/sift-kernels.wasm, built when stale). Compares matmulI16 (with
// packWeightsI16), layerNorm and attentionPacked on seeded random shapes with every tail, then
// all-MiniLM-L6-v2's int16 and float vectors (BERT canon.3, and canon.2 rebuilt on the f32
// kernels) for the golden texts, SciFact claims and chunks. Exit code 1 on any difference.
// Keep a copy of the old build before editing wasm/assembly (`cp wasm/build/sift-kernels.wasm ...`).
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from '../lab/args';
import { scifactChunks } from '../eval/chunk-sample';
import { loadQueries } from '../eval/beir';
import { createKernel, type Kernel } from '../workers/embed/kernel';
import {
  loadBertFolder,
  MINILM_DIR,
  readKernelBytes,
  REPO_ROOT,
} from '../workers/embed/node-kernel';
import { canon2Kernel } from '../workers/embed/canon2.testkit';
import { fuzzSeed, mulberry32 } from '../workers/embed/rng.testkit';

const args = parseArgs(process.argv.slice(2));
if (!args.old) throw new Error('--old <wasm> is required');
const bytesOf = (p: string) => {
  const b = readFileSync(p);
  return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength);
};
// The old build through the wrapper of its own time when the ABI changed (a copy of the old
// workers/embed/kernel.ts, e.g. `git show <rev>:workers/embed/kernel.ts > workers/embed/kernel-old.tmp.ts`).
const oldCreate = args['old-wrapper']
  ? ((await import(resolve(args['old-wrapper']))) as { createKernel: typeof createKernel })
      .createKernel
  : createKernel;
const kOld = await oldCreate({ bytes: bytesOf(args.old) });
const kNew = await createKernel({ bytes: args.new ? bytesOf(args.new) : readKernelBytes() });
const seed = fuzzSeed();
const rand = mulberry32(seed);
const f = Math.fround;
let failures = 0;
let compared = 0;

function same(a: ArrayLike<number>, b: ArrayLike<number>, what: string): void {
  compared++;
  const x = new Uint32Array(Float32Array.from(a).buffer);
  const y = new Uint32Array(Float32Array.from(b).buffer);
  for (let i = 0; i < x.length; i++) {
    if (x[i] !== y[i]) {
      failures++;
      console.error(`DIFF ${what} at ${i}: ${a[i]} vs ${b[i]} (seed ${seed})`);
      return;
    }
  }
}

/** Random activations: mostly [-1, 1], a few outliers, sometimes an all-zero row. */
function acts(m: number, k: number): Float32Array {
  const a = Float32Array.from({ length: m * k }, () =>
    f((rand() * 2 - 1) * (rand() < 0.02 ? 30 : 1)),
  );
  if (m > 2 && rand() < 0.3) a.fill(0, k, 2 * k);
  return a;
}

function onBoth<T>(fn: (k: Kernel) => T): [T, T] {
  const mo = kOld.mark();
  const mn = kNew.mark();
  const r: [T, T] = [fn(kOld), fn(kNew)];
  kOld.release(mo);
  kNew.release(mn);
  return r;
}

// matmulI16: every row count 1..40, the dense-layer shapes and small odd ones, both GELU modes.
const shapes: Array<[number, number]> = [
  [32, 8],
  [64, 16],
  [96, 24],
  [32, 40],
  [128, 56],
  [384, 1152],
  [384, 384],
  [384, 1536],
  [1536, 384],
];
for (const [k, n] of shapes) {
  const b = Float32Array.from({ length: k * n }, () => f((rand() * 2 - 1) * 0.1));
  const bias = Float32Array.from({ length: n }, () => f(rand() - 0.5));
  const ms = k * n > 100_000 ? [1, 2, 3, 4, 5, 7, 8, 11, 12, 16, 23, 24, 31, 40] : [];
  if (ms.length === 0) for (let m = 1; m <= 40; m++) ms.push(m);
  for (const m of ms) {
    const a = acts(m, k);
    for (const gelu of [false, true]) {
      const [o, nw] = onBoth((K) => {
        const w = K.packWeightsI16(b, k, n);
        const c = K.alloc(m * n * 4);
        K.matmulI16(K.putF32(a), w, K.putF32(bias), c, m, k, n, gelu);
        return K.f32(c, m * n).slice();
      });
      same(o, nw, `matmulI16 m=${m} k=${k} n=${n} gelu=${gelu}`);
    }
  }
}

// layerNorm: row counts with every tail, the model width and small ones.
for (const n of [4, 8, 12, 384, 100, 6, 387]) {
  for (let rows = 1; rows <= 13; rows++) {
    const x = acts(rows, n);
    const g = Float32Array.from({ length: n }, () => f(rand() + 0.5));
    const be = Float32Array.from({ length: n }, () => f(rand() - 0.5));
    const [o, nw] = onBoth((K) => {
      const out = K.alloc(rows * n * 4);
      K.layerNorm(K.putF32(x), out, rows, n, K.putF32(g), K.putF32(be), 1e-12);
      return K.f32(out, rows * n).slice();
    });
    same(o, nw, `layerNorm rows=${rows} n=${n}`);
  }
}

// attentionPacked on fused q|k|v rows (MiniLM's 12 heads of 32), every length 1..40.
for (let len = 1; len <= 40; len++) {
  const width = 384;
  const qkv = Float32Array.from({ length: len * 3 * width }, () => f(rand() * 2 - 1));
  const [o, nw] = onBoth((K) => {
    const p = K.putF32(qkv);
    const out = K.alloc(len * width * 4);
    K.attentionPacked({
      q: p,
      k: p + width * 4,
      v: p + 2 * width * 4,
      stride: 3 * width,
      out,
      seqLen: len,
      heads: 12,
      headDim: 32,
      validLen: len,
      scale: f(1 / Math.sqrt(32)),
    });
    return K.f32(out, len * width).slice();
  });
  same(o, nw, `attentionPacked len=${len}`);
}
process.stdout.write(
  `kernels: ${compared} outputs compared, ${failures} different (seed ${seed})\n`,
);

// Whole model, both weight paths.
if (args['kernels-only'] === undefined && existsSync(join(MINILM_DIR, 'model.safetensors'))) {
  const golden = JSON.parse(
    readFileSync(join(REPO_ROOT, 'wasm/golden/minilm-int16-sha256.json'), 'utf8'),
  ) as { entries: Array<{ text: string }> };
  const dataset = join(REPO_ROOT, '../shared/datasets/scifact');
  const claims = [...(await loadQueries(dataset)).values()].slice(0, 300);
  const chunks = await scifactChunks(dataset, Number(args.chunks ?? 100));
  const texts = [...golden.entries.map((e) => e.text), ...claims, ...chunks];
  // canon.3 (the int16 dense layers) and canon.2 rebuilt on the f32 kernels that remain.
  for (const weights of ['canon.3', 'canon.2'] as const) {
    const before = failures;
    const wrapK = weights === 'canon.2' ? canon2Kernel : (k: Kernel) => k;
    const mo = loadBertFolder(wrapK(kOld), MINILM_DIR);
    const mn = loadBertFolder(wrapK(kNew), MINILM_DIR);
    for (const t of texts) {
      const ids = mo.tokenize(t);
      const a = mo.embedIds(ids);
      const b = mn.embedIds(ids);
      same(a.float, b.float, `${weights} float "${t.slice(0, 40)}"`);
      same(a.int16, b.int16, `${weights} int16 "${t.slice(0, 40)}"`);
    }
    // A batch of chunks in one forward pass (rows of several sequences in each dense layer).
    const batch = chunks.slice(0, 16).map((t) => mo.tokenize(t));
    const ba = mo.embedIdsBatch(batch);
    const bb = mn.embedIdsBatch(batch);
    ba.forEach((v, i) => same(v.float, bb[i]!.float, `${weights} batch float ${i}`));
    process.stdout.write(
      `MiniLM ${weights}: ${texts.length} texts + a batch of 16, ${failures - before} different\n`,
    );
  }
}
process.exitCode = failures === 0 ? 0 : 1;
