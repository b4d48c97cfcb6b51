// Prints how far BERT_CANON_REVISION canon.3's all-MiniLM-L6-v2 vectors are from canon.2's on the
// golden texts (canon.2 rebuilt from the remaining kernels, checked against its golden file):
// `npx tsx wasm/compare-bert-revisions.ts` (needs `node tools/copy-model.mjs --fetch-minilm`).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  createNodeKernel,
  loadBertFolder,
  MINILM_DIR,
  REPO_ROOT,
} from '../workers/embed/node-kernel';
import { compareRevisions } from '../workers/embed/canon1.testkit';
import { canon2Kernel } from '../workers/embed/canon2.testkit';

const old = JSON.parse(
  readFileSync(join(REPO_ROOT, 'wasm/golden/minilm-int16-sha256.canon.2.json'), 'utf8'),
) as { entries: Array<{ text: string; sha256: string; floatSha256: string }> };
const kernel = await createNodeKernel();
const canon2 = loadBertFolder(canon2Kernel(kernel), MINILM_DIR);
const canon3 = loadBertFolder(kernel, MINILM_DIR);
const texts = old.entries.map((e) => e.text);
const r = await compareRevisions(canon2, canon3, texts);
const reproduced = old.entries.every(
  (e, i) => e.sha256 === r.oldSha256[i] && e.floatSha256 === r.oldFloatSha256[i],
);
const order = r.cosine.map((c, i) => [c, i] as const).sort((a, b) => a[0] - b[0]);
const summary = {
  from: 'canon.2',
  to: canon3.version,
  texts: texts.length,
  canon2_golden_reproduced: reproduced,
  min_cosine: Math.min(...r.cosine),
  mean_cosine: r.cosine.reduce((a, c) => a + c, 0) / r.cosine.length,
  min_cosine_int16: Math.min(...r.cosineInt16),
  lowest: order.slice(0, 5).map(([c, i]) => ({ text: texts[i]!.slice(0, 60), cosine: c })),
  per_text: texts.map((t, i) => ({
    text: t.slice(0, 40),
    cosine: r.cosine[i],
    cosine_int16: r.cosineInt16[i],
  })),
};
process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
process.exitCode = reproduced && summary.min_cosine >= 0.9999 ? 0 : 1;
