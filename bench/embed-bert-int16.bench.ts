// `npm run bench -- embed-bert-int16 [--queries N] [--texts N] [--out FILE]`: all-MiniLM-L6-v2's
// int16 dense layers (BERT_CANON_REVISION canon.3, the canonical path: weights |q| <= 2047 per
// output column, activations |q| <= 32767 per row, exact int32 sums over 32-k blocks) against the
// f32 dense layers of canon.2 they replaced (rebuilt by canon2.testkit.ts): cosine of each to the
// PyTorch reference (wasm/golden/minilm-reference, the self-test's bar is >= 0.9999 per sentence)
// and to each other, and CPU time per SciFact test claim and per chunk, interleaved in one
// process. The report keeps the keys `f32` (canon.2) and `int16` (canon.3). Never gates.
import { readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import type { BertModel } from '../workers/embed/bert';
import {
  createNodeKernel,
  loadBertFolder,
  MINILM_DIR,
  REPO_ROOT,
} from '../workers/embed/node-kernel';
import { canon2Kernel } from '../workers/embed/canon2.testkit';
import { chunkText } from '../workers/ingest/chunk';
import { parseArgs } from '../lab/args';
import { loadCorpus, loadQrels, loadQueries } from '../eval/beir';
import { percentile } from './library-gen';

const DATASET = join(REPO_ROOT, '../shared/datasets/scifact');
const round = (x: number, d = 3) => Math.round(x * 10 ** d) / 10 ** d;
const cos = (a: Float32Array, b: Float32Array) => {
  let d = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    d += a[i]! * b[i]!;
    na += a[i]! ** 2;
    nb += b[i]! ** 2;
  }
  return d / Math.sqrt(na * nb);
};

function cpuMs(t0: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(t0);
  return (d.user + d.system) / 1000;
}

async function run(argv: string[]): Promise<void> {
  const args = parseArgs(argv);
  const nQueries = Number(args.queries ?? 300);
  const nTexts = Number(args.texts ?? 30);
  const models: Record<'f32' | 'int16', BertModel> = {
    f32: loadBertFolder(canon2Kernel(await createNodeKernel()), MINILM_DIR),
    int16: loadBertFolder(await createNodeKernel(), MINILM_DIR),
  };
  const golden = join(REPO_ROOT, 'wasm/golden');
  const ref = JSON.parse(readFileSync(join(golden, 'minilm-reference.json'), 'utf8')) as {
    texts: string[];
    dim: number;
  };
  const raw = readFileSync(join(golden, 'minilm-reference.f32'));
  const refVecs = new Float32Array(
    raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength),
  );
  const minCos = { f32_vs_reference: 1, int16_vs_reference: 1, int16_vs_f32: 1 };
  let worst = '';
  for (const [t, text] of ref.texts.entries()) {
    const r = refVecs.subarray(t * ref.dim, (t + 1) * ref.dim);
    const a = models.f32.embedFloat(text);
    const b = models.int16.embedFloat(text);
    minCos.f32_vs_reference = Math.min(minCos.f32_vs_reference, cos(a, r));
    const c = cos(b, r);
    if (c < minCos.int16_vs_reference) worst = text.slice(0, 60);
    minCos.int16_vs_reference = Math.min(minCos.int16_vs_reference, c);
    minCos.int16_vs_f32 = Math.min(minCos.int16_vs_f32, cos(a, b));
  }
  const [queries, qrels] = await Promise.all([loadQueries(DATASET), loadQrels(DATASET, 'test')]);
  const claims = Object.keys(qrels)
    .filter((q) => queries.has(q))
    .slice(0, nQueries)
    .map((q) => queries.get(q)!);
  const chunks: string[] = [];
  for (const doc of (await loadCorpus(DATASET)).slice(0, nTexts))
    for (const c of chunkText(doc.text))
      if (chunks.length < nTexts) chunks.push(`${doc.title}\n${c.text}`);
  const time = (texts: string[]) => {
    const out = { f32: [] as number[], int16: [] as number[] };
    for (const [i, q] of texts.entries()) {
      const order = i % 2 === 0 ? (['f32', 'int16'] as const) : (['int16', 'f32'] as const);
      for (const side of order) {
        const c0 = process.cpuUsage();
        models[side].embedInt16(q);
        out[side].push(cpuMs(c0));
      }
    }
    const spread = (s: number[]) => {
      const v = [...s].sort((a, b) => a - b);
      return {
        p50_ms: round(percentile(v, 50)),
        p95_ms: round(percentile(v, 95)),
        mean_ms: round(v.reduce((a, b) => a + b, 0) / v.length),
      };
    };
    return { f32_cpu: spread(out.f32), int16_cpu: spread(out.int16) };
  };
  for (const q of claims.slice(0, 5)) for (const m of Object.values(models)) m.embedInt16(q);
  const report = {
    model: models.f32.id,
    versions: { f32: 'canon.2 (rebuilt by canon2.testkit.ts)', int16: models.int16.version },
    golden_texts: ref.texts.length,
    min_cosine: Object.fromEntries(Object.entries(minCos).map(([k, v]) => [k, round(v, 12)])),
    worst_int16_text: worst,
    claims: { count: claims.length, ...time(claims) },
    chunks: { count: chunks.length, ...time(chunks) },
    load_average_1m: round(loadavg()[0]!),
    date: new Date().toISOString(),
  };
  console.log(JSON.stringify(report, null, 2));
  if (args.out) writeFileSync(args.out, `${JSON.stringify(report, null, 2)}\n`);
}

export default { name: 'embed-bert-int16', run };
