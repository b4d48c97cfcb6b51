// `npx tsx bench/eval/crag-explore-signals.ts RECORDS [--sentences]` (RECORDS: a TRAIN split's
// MiniLM `--records` file from `--task crag-fit`, collected before the local features shipped):
// out-of-fold train checks of signals meant to tell "this passage addresses the claim's entities
// and relation" from "on-topic", for the unmet passage pair (balanced accuracy 0.87 with F1 0.68)
// and query coverage (0.60 with the ablated queries >= 0.90 not CORRECT) (bench/README.md, issue
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
import {
  LOCAL_FEATURES,
  localFeatures,
  PASSAGE_FEATURES as ALL,
} from '../../workers/answer/features';
import { logisticScore, type LogisticModel } from '../../workers/answer/fitted';
import { windowText, type Passage } from '../../workers/answer/passages';
import type { EvaluatedRetrieval } from '../../workers/answer/pipeline';
import { contentStems, coverage, sentences } from '../../workers/answer/text';
import { cosine } from '../../workers/research/vectors';
import { mulberry32 } from '../../workers/shared/test-rng';
import { loadNodeEncoder } from '../embed-models';
import { fitBoosted } from './boost';
import type { QueryRecord } from './crag-collect';
import { coverageAt } from './crag-explore-relative';
import { PASSAGE_BOOST } from './crag-fit';
import { auroc, classify, fitLogistic } from './logistic';

type Rows = Array<Record<string, number>>;
const FOLDS = 5;
/** The features before the local ones were added (this exploration's baseline). */
const PASSAGE_FEATURES = ALL.filter((f) => !(LOCAL_FEATURES as readonly string[]).includes(f));
const logit = (p: number) => Math.log(Math.max(1e-6, p) / Math.max(1e-6, 1 - p));

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
  const labels = records.flatMap((r) => r.labels);
  type RowsOf = (ev: EvaluatedRetrieval, i: number, ablated: boolean) => Rows;
  const oof = (rowsOf: RowsOf, names: readonly string[], ablNeg: boolean, bag = 0) => {
    const first: number[][] = [];
    const abl: Array<number[] | null> = [];
    for (let k = 0; k < FOLDS; k++) {
      const idx = records.map((_, i) => i).filter((i) => i % FOLDS !== k);
      const rnd = mulberry32(17 + k);
      const fitOn = (ids: number[]) => {
        const rows: Rows = [];
        const l: boolean[] = [];
        for (const i of ids) {
          const r = records[i]!;
          rows.push(...rowsOf(r.first, i, false));
          l.push(...r.labels);
          if (ablNeg && r.ablation) {
            const a = rowsOf(r.ablation, i, true);
            rows.push(...a);
            l.push(...a.map(() => false));
          }
        }
        return fitBoosted(names, rows, l, PASSAGE_BOOST);
      };
      const models: LogisticModel[] = bag
        ? Array.from({ length: bag }, () => fitOn(idx.filter(() => rnd() < 0.8)))
        : [fitOn(idx)];
      const score = (f: Record<string, number>) =>
        1 /
        (1 + Math.exp(-models.reduce((a, m) => a + logit(logisticScore(m, f)), 0) / models.length));
      records.forEach((r, i) => {
        if (i % FOLDS !== k) return;
        first[i] = rowsOf(r.first, i, false).map(score);
        abl[i] = r.ablation ? rowsOf(r.ablation, i, true).map(score) : null;
      });
    }
    return { first, abl };
  };
  const max5 = (x: number[] | null) => (x ? Math.max(...x.slice(0, 5)) : null);
  const report = (name: string, rowsOf: RowsOf, names: readonly string[], bag = 0) => {
    const P = oof(rowsOf, names, false, bag);
    console.log(`${name}, passage model: ${reach(P.first.flat(), labels)}`);
    const H = oof(rowsOf, names, true, bag);
    console.log(
      `${name}, query score (best of the first 5, ablated negatives): ${coverageAt(
        records,
        H.first.map((x) => max5(x)!),
        H.abl.map(max5),
      )}`,
    );
    return { P, H };
  };
  const plain: RowsOf = (ev) => ev.features;
  console.log('0. the features before the local ones');
  const base = report('before', plain, PASSAGE_FEATURES);

  console.log('1. local specificity');
  const loc = new Map<EvaluatedRetrieval, Rows>();
  const withLocal: RowsOf = (ev) => {
    if (!loc.has(ev)) loc.set(ev, localRows(ev));
    return ev.features.map((f, j) => ({ ...f, ...loc.get(ev)![j]! }));
  };
  report('+ local specificity', withLocal, [...PASSAGE_FEATURES, ...LOCAL_FEATURES]);

  console.log('2. query-level shape of the list (logistic over the baseline scores + shape)');
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
    const s: number[] = [];
    const a: Array<number | null> = [];
    for (let k = 0; k < FOLDS; k++) {
      const rows: Rows = [];
      const l: boolean[] = [];
      records.forEach((_, i) => {
        if (i % FOLDS === k) return;
        rows.push(qf[i]!);
        l.push(top3[i]!);
        if (qa[i]) {
          rows.push(qa[i]);
          l.push(false);
        }
      });
      const m = fitLogistic(names, rows, l, 1);
      records.forEach((_, i) => {
        if (i % FOLDS !== k) return;
        s[i] = logisticScore(m, qf[i]!);
        a[i] = qa[i] ? logisticScore(m, qa[i]) : null;
      });
    }
    console.log(`${names.join(' + ')}: ${coverageAt(records, s, a)}`);
  }

  console.log('3. bagging');
  report('5 bags of 80 % of the queries', plain, PASSAGE_FEATURES, 5);

  if (process.argv.includes('--sentences')) {
    console.log("4. the question's cosine to each top-5 passage's best lexical sentence");
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
    report('+ sentence cosine', withSent, [...PASSAGE_FEATURES, 'sCos', 'sCosGap', 'sCosTop']);
  }
}

void main();
