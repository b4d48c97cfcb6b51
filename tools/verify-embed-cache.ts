// Checks a SciFact vector cache file (.cache/embed/<model>@<version>.bin) against the canonical
// runtime on a sample, read only (safe while another process appends to it): `--sample` corpus
// chunks spread evenly over the corpus (model input `title\nchunk`, as the eval keys them) and
// `--queries` test claims are embedded now and compared byte for byte with the file's records.
// Used to carry a cache over to a new revision name when the bytes did not change, e.g. the int16
// experiment's file (`+canon.2+int16`) to canon.3, instead of re-embedding the corpus:
// `npx tsx tools/verify-embed-cache.ts --file <cache.bin> [--model all-MiniLM-L6-v2]
//   [--sample 200] [--queries 20] [--dataset ../shared/datasets/scifact]`. Exit 1 on any difference.
import { join } from 'node:path';
import { REPO_ROOT } from '../workers/embed/node-kernel';
import { chunkText } from '../workers/ingest/chunk';
import { parseArgs } from '../lab/args';
import { readEmbedCacheFile, textKey } from '../lab/embed-cache';
import { loadNodeEncoder } from '../lab/embed-models';
import { loadCorpus, loadQrels, loadQueries } from '../eval/beir';

const args = parseArgs(process.argv.slice(2));
if (!args.file) throw new Error('usage: verify-embed-cache.ts --file FILE [--model NAME]');
const dataset = args.dataset ?? join(REPO_ROOT, '../shared/datasets/scifact');
const encoder = await loadNodeEncoder(args.model ?? 'all-MiniLM-L6-v2');
const records = readEmbedCacheFile(args.file, encoder.dim);

// The eval's passage texts, in corpus order (eval/store-beir-doc.ts, hybrid-mode.ts).
const passages: string[] = [];
for (const doc of await loadCorpus(dataset)) {
  const text = doc.text.trim().length > 0 ? doc.text : doc.title;
  for (const c of chunkText(text))
    passages.push(encoder.passageText(doc.title ? `${doc.title}\n${c.text}` : c.text));
}
const [queries, qrels] = await Promise.all([loadQueries(dataset), loadQrels(dataset, 'test')]);
const claims = Object.keys(qrels)
  .filter((q) => queries.has(q))
  .map((q) => encoder.queryText(queries.get(q)!));
const spread = (all: string[], n: number) =>
  Array.from(
    { length: Math.min(n, all.length) },
    (_, i) => all[Math.floor((i * all.length) / Math.min(n, all.length))]!,
  );
const sample = [
  ...spread(passages, Number(args.sample ?? 200)),
  ...spread(claims, Number(args.queries ?? 20)),
];

let missing = 0;
let identical = 0;
const different: string[] = [];
const present = sample.filter((t) => {
  if (records.has(textKey(t))) return true;
  missing++;
  return false;
});
for (let i = 0; i < present.length; i += 8) {
  const batch = present.slice(i, i + 8);
  encoder.embedBatch(batch).forEach((v, j) => {
    const stored = records.get(textKey(batch[j]!))!;
    if (v.every((x, d) => x === stored[d])) identical++;
    else different.push(batch[j]!.slice(0, 60));
  });
}
const report = {
  file: args.file,
  model: `${encoder.id}@${encoder.version}`,
  records: records.size,
  corpus_chunks: passages.length,
  sampled: sample.length,
  missing,
  identical,
  different: different.length,
  first_different: different.slice(0, 5),
};
process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
process.exitCode = missing === 0 && different.length === 0 ? 0 : 1;
