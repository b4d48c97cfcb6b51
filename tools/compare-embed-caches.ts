// Compares two vector cache files of the same model (.cache/embed/<model>@<version>.bin) on the
// texts both hold, read only (safe while an eval appends to either): how many int16 vectors are
// identical, the largest difference of one component, and the cosine. For a kernel revision
// (e.g. BERT canon.1 -> canon.2) on the real corpus:
// `npx tsx tools/compare-embed-caches.ts --a <old.bin> --b <new.bin> [--dim 384]`.
import { parseArgs } from '../lab/args';
import { readEmbedCacheFile } from '../lab/embed-cache';

const args = parseArgs(process.argv.slice(2));
if (!args.a || !args.b)
  throw new Error('usage: compare-embed-caches.ts --a FILE --b FILE [--dim N]');
const dim = Number(args.dim ?? 384);
const a = readEmbedCacheFile(args.a, dim);
const b = readEmbedCacheFile(args.b, dim);
let common = 0;
let identical = 0;
let maxDiff = 0;
let minCos = 1;
let sumCos = 0;
for (const [key, vb] of b) {
  const va = a.get(key);
  if (!va) continue;
  common++;
  let d = 0;
  let na = 0;
  let nb = 0;
  let worst = 0;
  for (let i = 0; i < dim; i++) {
    d += va[i]! * vb[i]!;
    na += va[i]! * va[i]!;
    nb += vb[i]! * vb[i]!;
    worst = Math.max(worst, Math.abs(va[i]! - vb[i]!));
  }
  const cos = d / Math.sqrt(na * nb);
  if (worst === 0) identical++;
  maxDiff = Math.max(maxDiff, worst);
  minCos = Math.min(minCos, cos);
  sumCos += cos;
}
const report = {
  a: { file: args.a, vectors: a.size },
  b: { file: args.b, vectors: b.size },
  common,
  identical_int16: identical,
  max_component_diff: maxDiff,
  min_cosine: minCos,
  mean_cosine: common ? sumCos / common : null,
};
process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
