// `EMBED_CACHE_DIR=... npx tsx experiments/claims-crag-scores.ts [--dataset DIR] [--out FILE]`: an
// experiment, not shipped: the answer evaluator's passage score (CRAG P(relevant), fitted on the
// same SciFact train queries, so in-sample there) for each SciFact TRAIN claim's top-10 documents
// of the crag harness's hybrid retrieval, one JSON line per (claim, document), for
// `ml/evidence-gate-fit.ts --crag FILE --out FILE`. Node only.
import { parseArgs } from '../lab/args';
import { writeFileSync } from 'node:fs';
import { loadCorpus } from '../eval/beir';
import { loadClaims } from '../eval/claims-data';
import { createCragHarness } from '../eval/crag-harness';
import { evaluateRetrieval } from '../workers/answer/pipeline';
import { loadFittedModel } from '../workers/answer/fitted';
const args = parseArgs(process.argv.slice(2));
const dataset = args.dataset ?? '../shared/datasets/scifact';
const docs = await loadCorpus(dataset);
const claims = loadClaims(dataset, 'train');
const h = await createCragHarness(docs, { model: 'all-MiniLM-L6-v2', threads: '2' });
const fitted = await loadFittedModel('all-MiniLM-L6-v2');
const out: string[] = [];
let n = 0;
for (const c of claims) {
  const r = await h.retrieve(c.claim);
  const ev = await evaluateRetrieval(c.claim, r, h.deps, fitted);
  for (const p of ev.result.passages)
    out.push(JSON.stringify({ claim: c.id, docId: p.path, crag: p.score }));
  if (++n % 100 === 0) process.stderr.write(`${n}\n`);
}
writeFileSync(args.out ?? '/tmp/crag-train.jsonl', out.join('\n'));
await h.close();
