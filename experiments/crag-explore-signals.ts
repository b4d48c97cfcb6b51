// `npx tsx experiments/crag-explore-signals.ts RECORDS [--sentences]` (RECORDS: a TRAIN split's
// MiniLM `--records` file from `--task crag-fit`, collected before the local features shipped):
// out-of-fold train checks of signals meant to tell "this passage addresses the claim's entities
// and relation" from "on-topic", for the unmet passage pair (balanced accuracy 0.87 with F1 0.68)
// and query coverage (0.60 with the ablated queries >= 0.90 not CORRECT) (eval/README.md, issue
// 16). 5 folds by query, as crag-fit.ts; every model is the shipped passage model's trees
// (PASSAGE_BOOST); the baseline is the feature set before the local features.
// 1. local specificity: which of the question's terms few of the other top-10 passages hold
//    (this version's sentence gap leaves titles out; features.ts ships them with titles in);
// 2. query-level shape of the list: margin, how many documents score near the top, BM25 and
//    cosine lists agreeing on the top document, the top passage's specific-term coverage;
// 3. bagging (5 models on 80 % of the training queries, logits averaged);
// 4. --sentences: the question's cosine to each top-5 passage's best lexical sentence, each
//    sentence embedded by the Node encoder (about 8,000 sentences; slow; not cached).
// Train only: never pass a test split's records.
import { readFileSync } from 'node:fs';
import { deserialize } from 'node:v8';
import { LOCAL_FEATURES, localFeatures, PASSAGE_FEATURES as ALL } from '../workers/answer/features';
import { logisticScore, type LogisticModel } from '../workers/answer/fitted';
import { windowText, type Passage } from '../workers/answer/passages';
import type { EvaluatedRetrieval } from '../workers/answer/pipeline';
import { contentStems, coverage, sentences } from '../workers/answer/text';
import { cosine } from '../workers/query-plan/vectors';
import { mulberry32 } from '../workers/shared/rng.testkit';
import { loadNodeEncoder } from '../lab/embed-models';
import { fitBoosted } from '../ml/boost';
import type { QueryRecord } from '../eval/crag-collect';
import { coverageAt } from './crag-explore-relative';
import {
  logit,
  passageOutOfFold,
  queryOutOfFold,
  trainingRows,
  type Rows,
  type RowsOf,
  type Scores,
} from './crag-explore-folds';
import { PASSAGE_BOOST } from '../ml/crag-fit';
import { auroc, classify, fitLogistic } from '../eval/logistic';

/** The features before the local ones were added (this exploration's baseline). */
const PASSAGE_FEATURES = ALL.filter((f) => !(LOCAL_FEATURES as readonly string[]).includes(f));

/** AUROC and the passage goals' trade on a 0.02-0.97 threshold grid. */
function reach(scores: number[], labels: boolean[]): string {
  let f1AtBa = 0;
  let baAtF1 = 0;
  let bestF1 = 0;
  for (let i = 2; i < 98; i++) {
    const c = classify(scores, labels, i / 100);
    bestF1 = Math.max(bestF1, c.f1);
    if (c.balancedAccuracy >= 0.87) f1AtBa = Math.max(f1AtBa, c.f1);
    if (c.f1 >= 0.68) baAtF1 = Math.max(baAtF1, c.balancedAccuracy);
  }
  return `AUROC ${auroc(scores, labels).toFixed(4)}, best F1 ${bestF1.toFixed(3)}, F1 at BA >= 0.87 ${f1AtBa.toFixed(3)}, BA at F1 >= 0.68 ${baAtF1.toFixed(3)}`;
}

/** Local specificity of each passage, as the evaluator computes it (`localFeatures` of features.ts). */
function localRows(ev: Pick<EvaluatedRetrieval, 'query' | 'passages'>): Rows {
  const q = ev.query;
  const sets = ev.passages.map(
    (p: Passage) => new Set([...contentStems(windowText(p)), ...contentStems(p.title)]),
  );
  const best = ev.passages.map((p) =>
    Math.max(
      0,
      ...sentences(windowText(p)).map(
        (s) => coverage(q.terms, new Set(contentStems(s.text))).weighted,
      ),
    ),
  );
  return localFeatures(q, sets, best);
}

async function main(): Promise<void> {
  const file = process.argv[2];
  if (!file) throw new Error('usage: crag-explore-signals.ts TRAIN_RECORDS_FILE [--sentences]');
  const records = deserialize(readFileSync(file)) as QueryRecord[];
  const plain: RowsOf = (ev) => ev.features;
  console.log('0. the features before the local ones');
  const base = report(records, 'before', plain, PASSAGE_FEATURES);

  console.log('1. local specificity');
  const loc = new Map<EvaluatedRetrieval, Rows>();
  const withLocal: RowsOf = (ev) => {
    if (!loc.has(ev)) loc.set(ev, localRows(ev));
    return ev.features.map((f, j) => ({ ...f, ...loc.get(ev)![j]! }));
  };
  report(records, '+ local specificity', withLocal, [...PASSAGE_FEATURES, ...LOCAL_FEATURES]);

  console.log('2. query-level shape of the list (logistic over the baseline scores + shape)');
  shapeChecks(records, base);

  console.log('3. bagging');
  report(records, '5 bags of 80 % of the queries', plain, PASSAGE_FEATURES, 5);

  if (process.argv.includes('--sentences')) {
    console.log("4. the question's cosine to each top-5 passage's best lexical sentence");
    await sentenceChecks(records);
  }
}

/**
 * Out-of-fold passage scores of the first (and ablated) retrievals under the shipped trees;
 * `ablNeg`: the ablated passages as negatives; `bag` > 0: that many models on 80 % of the
 * training queries, logits averaged.
 */
function oof(
  records: QueryRecord[],
  rowsOf: RowsOf,
  names: readonly string[],
  ablNeg: boolean,
  bag = 0,
): Scores {
  return passageOutOfFold(records, rowsOf, (idx, k) => {
    const rnd = mulberry32(17 + k);
    const fitOn = (ids: number[]) => {
      const t = trainingRows(records, ids, rowsOf, ablNeg);
      return fitBoosted(names, t.rows, t.labels, PASSAGE_BOOST);
    };
    const models: LogisticModel[] = bag
      ? Array.from({ length: bag }, () => fitOn(idx.filter(() => rnd() < 0.8)))
      : [fitOn(idx)];
    return (f) =>
      1 /
      (1 + Math.exp(-models.reduce((a, m) => a + logit(logisticScore(m, f)), 0) / models.length));
  });
}

const max5 = (x: number[] | null) => (x ? Math.max(...x.slice(0, 5)) : null);

/** The passage model's reach and the query score's coverage for one feature set. */
function report(
  records: QueryRecord[],
  name: string,
  rowsOf: RowsOf,
  names: readonly string[],
  bag = 0,
): { P: Scores; H: Scores } {
  const labels = records.flatMap((r) => r.labels);
  const P = oof(records, rowsOf, names, false, bag);
  console.log(`${name}, passage model: ${reach(P.first.flat(), labels)}`);
  const H = oof(records, rowsOf, names, true, bag);
  console.log(
    `${name}, query score (best of the first 5, ablated negatives): ${coverageAt(
      records,
      H.first.map((x) => max5(x)!),
      H.abl.map(max5),
    )}`,
  );
  return { P, H };
}

/** Section 2: query-level logistic models over the baseline scores and the list's shape. */
function shapeChecks(records: QueryRecord[], base: { P: Scores; H: Scores }): void {
  const top3 = records.map((r) => r.labels.slice(0, 3).some(Boolean));
  const shape = (ev: EvaluatedRetrieval, p: number[], h: number[]) => {
    const h5 = h.slice(0, 5);
    const a = h5.indexOf(Math.max(...h5));
    const others = h.filter((_, j) => j !== a);
    const fa = ev.features[a]!;
    const l = localRows(ev)[a]!;
    return {
      hL: logit(h5[a]!),
      hGap: logit(h5[a]!) - logit(Math.max(1e-6, ...others)),
      hNear: h.filter((x) => x >= 0.5 * h5[a]!).length,
      pL: logit(Math.max(...p.slice(0, 5))),
      agreeLex: fa.lexRankInv === 1 ? 1 : 0,
      agreeSem: fa.semRankInv === 1 ? 1 : 0,
      specCov: l.specCov!,
      onlyW: l.onlyW!,
      topicShare: l.topicShare!,
    };
  };
  const qf = records.map((r, i) => shape(r.first, base.P.first[i]!, base.H.first[i]!));
  const qa = records.map((r, i) =>
    r.ablation ? shape(r.ablation, base.P.abl[i]!, base.H.abl[i]!) : null,
  );
  for (const names of [
    ['hL', 'hGap', 'hNear'],
    ['hL', 'agreeLex', 'agreeSem'],
    ['hL', 'specCov', 'onlyW', 'topicShare'],
    ['hL', 'pL'],
    Object.keys(qf[0]!),
  ]) {
    const { s, a } = queryOutOfFold(qf, qa, top3, (rows, l) => fitLogistic(names, rows, l, 1));
    console.log(`${names.join(' + ')}: ${coverageAt(records, s, a)}`);
  }
}

/** Section 4 (--sentences): the question's cosine to each top-5 passage's best lexical sentence. */
async function sentenceChecks(records: QueryRecord[]): Promise<void> {
  const enc = await loadNodeEncoder('all-MiniLM-L6-v2');
  const sentCos = (ev: EvaluatedRetrieval): number[] =>
    ev.passages.slice(0, 5).map((p) => {
      const best = sentences(windowText(p))
        .map((s, i) => ({
          s,
          i,
          c: coverage(ev.query.terms, new Set(contentStems(s.text))).weighted,
        }))
        .sort((x, y) => y.c - x.c || x.i - y.i)[0];
      return best && ev.query.vector
        ? cosine(ev.query.vector, enc.embed(enc.passageText(best.s.text)))
        : -1;
    });
  const sc = new Map<EvaluatedRetrieval, number[]>();
  const withSent: RowsOf = (ev) => {
    if (!sc.has(ev)) sc.set(ev, sentCos(ev));
    const s = sc.get(ev)!;
    const top = Math.max(...s);
    return ev.features.map((f, j) => ({
      ...f,
      sCos: s[j] ?? -1,
      sCosGap: s[j] === undefined ? -1 : s[j] - top,
      sCosTop: top,
    }));
  };
  report(records, '+ sentence cosine', withSent, [
    ...PASSAGE_FEATURES,
    'sCos',
    'sCosGap',
    'sCosTop',
  ]);
}

void main();
