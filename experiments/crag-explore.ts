// `npx tsx experiments/crag-explore.ts RECORDS` (RECORDS: a TRAIN split's `--records` file from
// `--task crag-fit`): the out-of-fold train checks behind the crag fit's unmet goals, none of
// which changed what ships (eval/README.md, issue 16). 5 folds by query, as crag-fit.ts.
// 1. the passage model: whether one threshold gives balanced accuracy >= 0.87 and F1 >= 0.68;
//    boosting settings; a stacked model seeing each passage's standing among the query's others;
//    six more text features.
// 2. the query decision: query-level models against the shipped "best of the first 5".
// 3. the 'rerank' correction on all queries and by query-score band.
// Train only: never pass a test split's records.
import { readFileSync } from 'node:fs';
import { deserialize } from 'node:v8';
import { PASSAGE_FEATURES } from '../workers/answer/features';
import { type LogisticModel } from '../workers/answer/fitted';
import { windowText } from '../workers/answer/passages';
import { contentStems, coverage, sentences } from '../workers/answer/text';
import { fitBoosted, type BoostOptions } from '../ml/boost';
import type { QueryRecord } from '../eval/crag-collect';
import {
  bestCoverage,
  logit,
  passageModelOutOfFold,
  queryOutOfFold,
  type Rows,
  type RowsOf,
  type Scores,
} from './crag-explore-folds';
import { auroc, classify, fitLogistic } from '../eval/logistic';
import { ndcgAt } from '../eval/metrics';

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

/** AUROC, the best F1 (and its balanced accuracy), and the two goals' trade on a 0.02-0.97 grid. */
export function thresholdReach(scores: number[], labels: boolean[]) {
  let bestF1 = 0;
  let baAtBestF1 = 0;
  let f1AtBa87 = 0;
  let baAtF1_68 = 0;
  for (let i = 2; i < 98; i++) {
    const c = classify(scores, labels, i / 100);
    if (c.f1 > bestF1) {
      bestF1 = c.f1;
      baAtBestF1 = c.balancedAccuracy;
    }
    if (c.balancedAccuracy >= 0.87) f1AtBa87 = Math.max(f1AtBa87, c.f1);
    if (c.f1 >= 0.68) baAtF1_68 = Math.max(baAtF1_68, c.balancedAccuracy);
  }
  return { auroc: auroc(scores, labels), bestF1, baAtBestF1, f1AtBa87, baAtF1_68 };
}

/** Each passage's standing among its query's passages under first-stage scores. */
export function standingFeatures(scores: number[]): Rows {
  const l = scores.map(logit);
  const order = scores.map((s, i) => ({ s, i })).sort((a, b) => b.s - a.s);
  const rankOf: number[] = [];
  order.forEach((o, r) => (rankOf[o.i] = r + 1));
  const sum = scores.reduce((a, b) => a + b, 0);
  return scores.map((s, i) => {
    const otherMax = Math.max(-14, ...l.filter((_, j) => j !== i));
    return {
      ctxLogit: l[i]!,
      ctxOtherMax: otherMax,
      ctxGap: l[i]! - otherMax,
      ctxRank: 1 / rankOf[i]!,
      ctxOthersSum: sum - s,
    };
  });
}
const STANDING = ['ctxLogit', 'ctxOtherMax', 'ctxGap', 'ctxRank', 'ctxOthersSum'];

/** Six text features the shipped set lacks (sentence pairs, focus, position, span). */
export function textExtras(r: QueryRecord): Rows {
  const q = r.first.query;
  const wOf = new Map(q.terms.stems.map((s, i) => [s, q.terms.weights[i]!]));
  return r.first.passages.map((p) => {
    const text = windowText(p);
    const sents = sentences(text).map((s) => contentStems(s.text));
    const covs = sents.map((st) => coverage(q.terms, new Set(st)).weighted);
    let sent2 = 0;
    for (let i = 0; i + 1 < sents.length; i++)
      sent2 = Math.max(
        sent2,
        coverage(q.terms, new Set([...sents[i]!, ...sents[i + 1]!])).weighted,
      );
    const bi = covs.indexOf(Math.max(0, ...covs));
    const best = sents[bi] ?? [];
    // the shortest token window holding >= 70% of the question's term weight
    const body = contentStems(text);
    let span = body.length + 1;
    const cnt = new Map<string, number>();
    let have = 0;
    for (let lo = 0, hi = 0; hi < body.length; hi++) {
      const w = wOf.get(body[hi]!);
      if (w !== undefined) {
        cnt.set(body[hi]!, (cnt.get(body[hi]!) ?? 0) + 1);
        if (cnt.get(body[hi]!) === 1) have += w;
      }
      while (have >= 0.7 * q.terms.total && lo <= hi) {
        span = Math.min(span, hi - lo + 1);
        const t = body[lo++]!;
        if (wOf.has(t)) {
          cnt.set(t, cnt.get(t)! - 1);
          if (cnt.get(t) === 0) have -= wOf.get(t)!;
        }
      }
    }
    return {
      sent2CovW: sent2,
      bestFocus: best.length ? best.filter((s) => wOf.has(s)).length / best.length : 0,
      firstSentCovW: covs[0] ?? 0,
      bestSentPos: sents.length ? bi / sents.length : 0,
      spanLog: Math.log(1 + span),
      nSentCov50: covs.filter((c) => c >= 0.5).length,
    };
  });
}
const EXTRAS = ['sent2CovW', 'bestFocus', 'firstSentCovW', 'bestSentPos', 'spanLog', 'nSentCov50'];

function main(): void {
  const file = process.argv[2];
  if (!file) throw new Error('usage: crag-explore.ts TRAIN_RECORDS_FILE');
  const records = deserialize(readFileSync(file)) as QueryRecord[];
  console.log('1. passage model (out-of-fold train)');
  const P = passageChecks(records);
  console.log('2. query decision (out-of-fold train; precision and ablated >= 0.92)');
  const H = passageOof(records, plain, boosted(PASSAGE_FEATURES), true);
  queryChecks(records, P, H);
  console.log("3. 'rerank': nDCG@10 of the top 10 reordered by out-of-fold passage scores");
  rerankChecks(records, P, H);
}

function printReach(name: string, s: number[][], labels: boolean[]): void {
  const t = thresholdReach(s.flat(), labels);
  console.log(
    `${name}: AUROC ${t.auroc.toFixed(4)}, best F1 ${t.bestF1.toFixed(3)} (balanced accuracy ${t.baAtBestF1.toFixed(3)}), best F1 with BA >= 0.87: ${t.f1AtBa87.toFixed(3)}, best BA with F1 >= 0.68: ${t.baAtF1_68.toFixed(3)}`,
  );
}

/**
 * Out-of-fold passage scores of the first (and ablated) retrievals; `rowsOf` makes the first
 * retrieval's rows, the ablated one keeps its features.
 */
function passageOof(
  records: QueryRecord[],
  rowsOf: (r: QueryRecord, i: number) => Rows,
  fit: (rows: Rows, l: boolean[]) => LogisticModel,
  ablatedNegatives = false,
): Scores {
  const rows: RowsOf = (ev, i, ablated) => (ablated ? ev.features : rowsOf(records[i]!, i));
  return passageModelOutOfFold(records, rows, fit, ablatedNegatives);
}

const plain = (r: QueryRecord) => r.first.features;
const boosted =
  (names: readonly string[], o: Partial<BoostOptions> = {}) =>
  (rows: Rows, l: boolean[]) =>
    fitBoosted(names, rows, l, o);

/** Section 1: the shipped passage model, boosting settings, standing and text extras. */
function passageChecks(records: QueryRecord[]): Scores {
  const labels = records.flatMap((r) => r.labels);
  const P = passageOof(records, plain, boosted(PASSAGE_FEATURES));
  printReach('shipped features, 200 trees of depth 5', P.first, labels);
  for (const o of [
    { trees: 400, depth: 4 },
    { trees: 300, depth: 3 },
    { trees: 150, depth: 6, minLeaf: 40 },
    { trees: 600, depth: 4, rate: 0.02, minLeaf: 40 },
    { trees: 200, depth: 5, l2: 10, minLeaf: 50 },
  ])
    printReach(
      `boosting ${JSON.stringify(o)}`,
      passageOof(records, plain, boosted(PASSAGE_FEATURES, o)).first,
      labels,
    );
  const withStanding = (r: QueryRecord, i: number) => {
    const c = standingFeatures(P.first[i]!);
    return r.first.features.map((f, j) => ({ ...f, ...c[j]! }));
  };
  printReach(
    'stacked: features + standing',
    passageOof(records, withStanding, boosted([...PASSAGE_FEATURES, ...STANDING])).first,
    labels,
  );
  const extras = records.map(textExtras);
  printReach(
    'features + six text extras',
    passageOof(
      records,
      (r, i) => r.first.features.map((f, j) => ({ ...f, ...extras[i]![j]! })),
      boosted([...PASSAGE_FEATURES, ...EXTRAS]),
    ).first,
    labels,
  );
  return P;
}

/** One query's row: its passage (p) and ablated-negatives (h) scores and the chosen passage's features. */
function queryRow(feats: Rows, p: number[], h: number[]): Record<string, number> {
  const sp = [...p].sort((a, b) => b - a);
  const sh = [...h].sort((a, b) => b - a);
  const ai = h.indexOf(Math.max(...h.slice(0, 5)));
  const pi = p.indexOf(sp[0]!);
  const f = feats[ai] ?? {};
  return {
    hMax5: Math.max(...h.slice(0, 5)),
    hL: logit(sh[0]!),
    hL2: logit(sh[1] ?? 0),
    hGap: logit(sh[0]!) - logit(sh[1] ?? 0),
    pL: logit(sp[0]!),
    pL2: logit(sp[1] ?? 0),
    pGap: logit(sp[0]!) - logit(sp[1] ?? 0),
    pSum: p.reduce((a, b) => a + b, 0),
    hSum: h.reduce((a, b) => a + b, 0),
    pOver: p.filter((x) => x > 0.5).length,
    argRank: 1 / (ai + 1),
    pArgRank: 1 / (pi + 1),
    qTopCos: f.qTopCos ?? 0,
    qBm25Margin: f.qBm25Margin ?? 0,
    qTerms: f.qTerms ?? 0,
    covW: f.covW ?? 0,
    sentCovW: f.sentCovW ?? 0,
    rareCov: f.rareCov ?? 0,
    cos: f.cos ?? 0,
    missingMax: f.missingMax ?? 0,
    numHit: f.numHit ?? 0,
    pCos: feats[pi]?.cos ?? 0,
    pCovW: feats[pi]?.covW ?? 0,
    top1Cos: feats[0]?.cos ?? 0,
    top1Bm25: feats[0]?.bm25Norm ?? 0,
  };
}

/** The largest CORRECT coverage with precision and ablated not-CORRECT both >= target. */
function printCoverageAt(
  name: string,
  s: number[],
  a: Array<number | null>,
  top3: boolean[],
  target = 0.92,
): void {
  const best = bestCoverage(top3, s, a, target);
  console.log(
    `${name}: coverage ${best.cov.toFixed(3)}, precision ${best.prec.toFixed(3)}, ablated not CORRECT ${best.ab.toFixed(3)}`,
  );
}

/** Section 2: the shipped "best of the first 5" against query-level models. */
function queryChecks(records: QueryRecord[], P: Scores, H: Scores): void {
  const top3 = records.map((r) => r.labels.slice(0, 3).some(Boolean));
  const qrows = records.map((r, i) => queryRow(r.first.features, P.first[i]!, H.first[i]!));
  const arows = records.map((r, i) =>
    r.ablation ? queryRow(r.ablation.features, P.abl[i]!, H.abl[i]!) : null,
  );
  const Q = Object.keys(qrows[0]!);
  printCoverageAt(
    'shipped: best of the first 5 under the ablated-negatives model',
    qrows.map((q) => q.hMax5!),
    arows.map((q) => q?.hMax5 ?? null),
    top3,
  );
  let q = queryOutOfFold(qrows, arows, top3, (rows, l) => fitLogistic(Q, rows, l, 1));
  printCoverageAt(`query-level logistic over ${Q.length} query features`, q.s, q.a, top3);
  q = queryOutOfFold(qrows, arows, top3, (rows, l) =>
    fitBoosted(Q, rows, l, { trees: 100, depth: 3 }),
  );
  printCoverageAt(`query-level boosted (100 trees of depth 3)`, q.s, q.a, top3);
}

/** Section 3: nDCG@10 with the top 10 reordered by out-of-fold passage scores, by query-score band. */
function rerankChecks(records: QueryRecord[], P: Scores, H: Scores): void {
  const gains = records.map((r, i) => {
    const paths = r.first.passages.map((p) => p.path);
    const order = paths.map((p, j) => ({ p, s: P.first[i]![j]!, j }));
    order.sort((a, b) => b.s - a.s || a.j - b.j);
    const before = ndcgAt(
      r.docs.map((d) => d.docId),
      r.rels,
      10,
    );
    const after = ndcgAt(
      order.map((o) => o.p),
      r.rels,
      10,
    );
    return { delta: after - before, before, h: Math.max(...H.first[i]!.slice(0, 5)) };
  });
  console.log(
    `all ${records.length} queries: nDCG@10 ${mean(gains.map((g) => g.before)).toFixed(4)} -> ${mean(gains.map((g) => g.before + g.delta)).toFixed(4)}`,
  );
  for (const [lo, hi] of [
    [0, 0.1],
    [0.1, 0.3],
    [0.3, 0.525],
    [0.525, 1.01],
  ] as const) {
    const band = gains.filter((g) => g.h >= lo && g.h < hi);
    console.log(
      `query score in [${lo}, ${hi}): ${band.length} queries, gain ${mean(band.map((g) => g.delta)).toFixed(4)}`,
    );
  }
}

main();
