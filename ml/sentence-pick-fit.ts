// `npx tsx ml/sentence-pick-fit.ts --dataset ../shared/datasets/scifact`: fits the rationale
// picker of workers/projects/sentence-rank.ts (`rankSentences`) on SciFact claims_train only: every
// sentence of every gold evidence abstract, labelled rationale or not (gold sentence boundaries from
// eval/data/scifact-sentences.json, matched to the product splitter's sentences by overlap),
// logistic regression over PICK_FEATURES (text only, no embeddings). Prints the 5-fold out-of-fold
// (folds by claim) rationale recall at 1, 2 and 4 picks against BM25 alone and writes
// workers/fitted/sentence-pick.json. Node only.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../workers/embed/node-kernel';
import {
  bm25Sentences,
  PICK_FEATURES,
  pickFeatures,
  pickProbabilities,
} from '../workers/projects/sentence-rank';
import { splitSentences } from '../workers/projects/sentences';
import { parseArgs } from '../lab/args';
import { loadCorpus } from '../eval/beir';
import { loadClaims, loadSentenceStarts, originalSentences } from '../eval/claims-data';
import { fitLogistic, round4 } from '../eval/logistic';

interface Group {
  fold: number;
  rows: Array<Record<string, number>>;
  bm: number[];
  labels: boolean[];
}

const FOLDS = 5;

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const corpus = new Map((await loadCorpus(args.dataset!)).map((d) => [d.id, d]));
  const claims = loadClaims(args.dataset!, 'train');
  const starts = loadSentenceStarts();
  const groups: Group[] = [];
  claims.forEach((c, ci) => {
    for (const [docId, e] of c.evidence) {
      const doc = corpus.get(docId);
      if (!doc || !starts[docId]) continue;
      const sents = splitSentences(doc.text);
      const spans = originalSentences(doc.text, starts[docId]);
      const gold = e.sentences.map((i) => spans[i]).filter((x) => x !== undefined);
      groups.push({
        fold: ci % FOLDS,
        rows: pickFeatures(c.claim, sents, doc.text.length),
        bm: bm25Sentences(
          c.claim,
          sents.map((s) => s.text),
        ),
        labels: sents.map((s) =>
          gold.some(
            (g) =>
              Math.min(g.end, s.end) - Math.max(g.start, s.start) >
              0.5 * Math.min(g.end - g.start, s.end - s.start),
          ),
        ),
      });
    }
  });
  const recallAt = (scores: number[][], k: number) => {
    let hit = 0;
    let total = 0;
    groups.forEach((g, gi) => {
      const top = scores[gi]!.map((v, i) => ({ v, i }))
        .sort((a, b) => b.v - a.v || a.i - b.i)
        .slice(0, k);
      total += g.labels.filter(Boolean).length;
      hit += top.filter((x) => g.labels[x.i]).length;
    });
    return round4(hit / total);
  };
  const fit = (gs: Group[]) =>
    fitLogistic(
      PICK_FEATURES,
      gs.flatMap((g) => g.rows),
      gs.flatMap((g) => g.labels),
      1,
    );
  const oof = groups.map((): number[] => []);
  for (let f = 0; f < FOLDS; f++) {
    const m = fit(groups.filter((g) => g.fold !== f));
    groups.forEach((g, gi) => {
      if (g.fold === f) oof[gi] = pickProbabilities(m, g.rows);
    });
  }
  const train = {
    abstracts: groups.length,
    bm25RecallAt1: recallAt(
      groups.map((g) => g.bm),
      1,
    ),
    bm25RecallAt4: recallAt(
      groups.map((g) => g.bm),
      4,
    ),
    oofRecallAt1: recallAt(oof, 1),
    oofRecallAt2: recallAt(oof, 2),
    oofRecallAt4: recallAt(oof, 4),
  };
  const model = {
    command: `npx tsx ml/sentence-pick-fit.ts ${process.argv.slice(2).join(' ')}`,
    date: new Date().toISOString().slice(0, 10),
    fittedOn: `SciFact claims_train only (${groups.length} gold evidence abstracts)`,
    ...fit(groups),
    train,
  };
  const out = join(REPO_ROOT, 'workers/fitted/sentence-pick.json');
  writeFileSync(out, `${JSON.stringify(model, null, 2)}\n`);
  console.error(`[pick-fit] wrote ${out}: ${JSON.stringify(train)}`);
}

await main();
