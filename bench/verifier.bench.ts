// `npm run bench -- verifier [--pairs N] [--rounds N] [--bundle DIR] [--out FILE]`: pair throughput
// of the canonical runtime's verifier against onnxruntime-web (WASM, SIMD, one thread) on the same
// weights: the bundle's int8 matrices dequantised, exported to ONNX by workers/embed/bert-onnx.ts
// (the encoder; the two heads, 4 dot products of the [CLS] row, in JS on that side). Same pairs
// (CLIMATE-FEVER claims with their evidence sentences), the same token ids and token types, one
// pair per call on both sides, interleaved pair by pair so machine load hits both alike; the
// tokeniser is outside both timings. Reports pairs/s, p50 ms and the ratio (goal >= 1.0x), and the
// largest logit difference between the two. Never gates.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import * as ort from 'onnxruntime-web';
import { bertToOnnx } from '../workers/embed/bert-onnx';
import { createNodeKernel, REPO_ROOT } from '../workers/embed/node-kernel';
import { readVerifierBundle } from '../workers/verifier/bundle';
import { VERIFIER_DIR, weightsSha256 } from '../workers/verifier/node-bundle';
import { loadPairModel, type EncodedPair } from '../workers/verifier/pair-model';
import { parseArgs } from '../lab/args';
import { percentile } from './library-gen';

const CLIMATE_FEVER = join(
  REPO_ROOT,
  '../shared/datasets/verification/climate-fever/climate-fever.jsonl',
);

/** `n` (claim, evidence sentence) pairs, the first evidences of the first claims, in file order. */
function climatePairs(n: number): Array<{ a: string; b: string }> {
  const out: Array<{ a: string; b: string }> = [];
  for (const line of readFileSync(CLIMATE_FEVER, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const d = JSON.parse(line) as { claim: string; evidences: Array<{ evidence: string }> };
    for (const e of d.evidences) {
      out.push({ a: d.claim, b: e.evidence });
      if (out.length >= n) return out;
    }
  }
  return out;
}

async function run(argv: string[]): Promise<void> {
  const args = parseArgs(argv);
  const dir = args.bundle || VERIFIER_DIR;
  const n = Number(args.pairs ?? 200);
  const rounds = Number(args.rounds ?? 2);
  const read = (f: string) => readFileSync(join(dir, f));
  const files = {
    config: read('config.json').toString('utf8'),
    vocab: read('vocab.txt').toString('utf8'),
    weights: read('model.safetensors'),
  };
  const bundle = readVerifierBundle(files);
  const H = bundle.config.hidden_size;
  const onnx = bertToOnnx(bundle.config, bundle.tensors);
  const ours = loadPairModel(await createNodeKernel(), readVerifierBundle(files), 'bench');
  ort.env.wasm.numThreads = 1;
  ort.env.wasm.simd = true;
  const session = await ort.InferenceSession.create(onnx);
  const heads = [
    ...[0, 1, 2].map((o) => bundle.stance.weight.subarray(o * H, (o + 1) * H)),
    bundle.relevance.weight,
  ];
  const bias = [...bundle.stance.bias, bundle.relevance.bias[0]!];

  async function ortLogits(p: EncodedPair): Promise<number[]> {
    const len = p.ids.length;
    const feed = (v: readonly number[]) =>
      new ort.Tensor(
        'int64',
        BigInt64Array.from(v, (x) => BigInt(x)),
        [1, len],
      );
    const out = await session.run({
      input_ids: feed(p.ids),
      attention_mask: feed(new Array<number>(len).fill(1)),
      token_type_ids: feed(p.typeIds),
    });
    const cls = (out.last_hidden_state!.data as Float32Array).subarray(0, H);
    return heads.map((w, o) => w.reduce((s, x, i) => s + x * cls[i]!, bias[o]!));
  }

  const pairs = climatePairs(n).map((p) => ours.encode(p));
  const oursMs: number[] = [];
  const ortMs: number[] = [];
  let maxDiff = 0;
  let sameArgmax = 0;
  const argmax = (xs: ArrayLike<number>) =>
    [0, 1, 2].reduce((b, i) => (xs[i]! > xs[b]! ? i : b), 0);
  for (const p of pairs.slice(0, 5)) {
    ours.run([p]);
    await ortLogits(p); // warm-up
  }
  for (let r = 0; r < rounds; r++) {
    for (const p of pairs) {
      let t0 = performance.now();
      const [mine] = ours.run([p]);
      oursMs.push(performance.now() - t0);
      t0 = performance.now();
      const theirs = await ortLogits(p);
      ortMs.push(performance.now() - t0);
      if (r === 0) {
        const m = [...mine!.logits.stance, mine!.logits.relevance];
        maxDiff = Math.max(maxDiff, ...m.map((x, i) => Math.abs(x - theirs[i]!)));
        if (argmax(m) === argmax(theirs)) sameArgmax++;
      }
    }
  }
  await session.release();
  const stats = (ms: number[]) => {
    const s = [...ms].sort((a, b) => a - b);
    const total = ms.reduce((a, b) => a + b, 0);
    return {
      pairs_per_s: Math.round((ms.length / total) * 1000 * 10) / 10,
      pair_p50_ms: Math.round(percentile(s, 50) * 100) / 100,
      pair_p90_ms: Math.round(percentile(s, 90) * 100) / 100,
    };
  };
  const a = stats(oursMs);
  const b = stats(ortMs);
  const tokens = pairs.map((p) => p.ids.length).sort((x, y) => x - y);
  const report = {
    bench: 'verifier',
    bundle: dir,
    bundle_sha256: weightsSha256(dir),
    layers: bundle.config.num_hidden_layers,
    pairs: pairs.length,
    rounds,
    tokens_p50: percentile(tokens, 50),
    tokens_max: tokens[tokens.length - 1],
    canonical: { runtime: 'sift-kernels.wasm (int16 dense layers, one thread)', ...a },
    onnxruntime: {
      runtime: `onnxruntime-web ${ort.env.versions.web ?? '?'} wasm simd, 1 thread, f32`,
      ...b,
    },
    throughput_ratio: Math.round((a.pairs_per_s / b.pairs_per_s) * 100) / 100,
    max_abs_logit_diff: Math.round(maxDiff * 10000) / 10000,
    same_stance_argmax: `${sameArgmax}/${pairs.length}`,
    machine: { cpus: cpus().length, loadavg: loadavg().map((x) => Math.round(x * 100) / 100) },
  };
  const json = JSON.stringify(report, null, 2);
  console.log(json);
  if (args.out) {
    mkdirSync(dirname(args.out), { recursive: true });
    writeFileSync(args.out, `${json}\n`);
  }
}

export default { name: 'verifier', run };
