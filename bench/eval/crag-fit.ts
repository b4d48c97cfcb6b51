// `--task crag-fit --split train`: fits the answer room's numbers on a TRAIN split only and
// writes workers/answer/fitted/<model>.json (with the command line and date inside):
// passage model (logistic + boosted trees, bench/eval/boost.ts) + its threshold, the rank/score baseline, the query decision
// thresholds (precision of CORRECT and the ablated queries both >= 0.92 on train), the strip
// model and keep threshold (train rationale recall >= 0.93), the answer's strip threshold, the
// checker model and labels, and the corrective expansion (only if train shows an nDCG gain).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CHECKER_FEATURES } from '../../workers/answer/checker';
import { createExpansion } from '../../workers/answer/corrective';
import { createRetrievalEvaluator } from '../../workers/answer/evaluator';
import { PASSAGE_FEATURES } from '../../workers/answer/features';
import type { FittedModel, LogisticModel } from '../../workers/answer/fitted';
import { logisticScore } from '../../workers/answer/fitted';
import { STRIP_FEATURES } from '../../workers/answer/refine';
import { REPO_ROOT } from '../../workers/embed/node-kernel';
import { fitBoosted } from './boost';
import { buildPairs, evalChecker } from './crag-checker';
import type { Evidence } from './crag-claims';
import {
  answerFigures,
  correctiveGain,
  correctiveTrials,
  goldSpans,
  refineFigures,
  scoreWith,
  stripRows,
  type QueryRecord,
} from './crag-collect';
import type { CragHarness } from './crag-harness';
import { classify, fitLogistic, round4 } from './logistic';

export const BASELINE_FEATURES = ['rankInv', 'logRank', 'fusedRel', 'bm25Norm'] as const;

/** The fitted file for a model before fitting (a neutral start; used only to collect features). */
export function unfitted(modelId: string): FittedModel {
  const one = (f: string): LogisticModel => ({
    features: [f],
    weights: [1],
    bias: 0,
    mean: [0],
    scale: [1],
  });
  return {
    modelId,
    command: '',
    date: '',
    fittedOn: '',
    passage: one('rankInv'),
    queryTopN: 3,
    thresholds: { upper: 0.5, lower: 0.2, passage: 0.5 },
    strip: { ...one('covW'), keep: 0.5, answer: 0.6, answerMax: 2 },
    checker: { ...one('covW'), supported: 0.7, unsupported: 0.4 },
    corrective: { technique: 'none', trainGain: 0 },
  };
}

/** The threshold maximising the mean of balanced accuracy and F1 (both are goals). */
function passageThreshold(scores: number[], labels: boolean[]): number {
  let best = 0.5;
  let bestV = -1;
  for (let t = 0.02; t < 0.98; t += 0.01) {
    const c = classify(scores, labels, t);
    const v = (c.balancedAccuracy + c.f1) / 2;
    if (v > bestV) {
      bestV = v;
      best = t;
    }
  }
  return round4(best);
}

/** Passage scores of the first and ablated retrievals of each record. */
export interface RecordScores {
  first: number[][];
  ablation: Array<number[] | null>;
}

/**
 * Out-of-fold passage scores (5 folds by query): the thresholds are fitted on scores from models
 * that did not see the query, as test queries will be scored (boosted trees fit their own rows
 * far better than new ones, so in-sample scores would set the thresholds too high).
 */
function crossFitted(
  records: QueryRecord[],
  fit: (rows: Array<Record<string, number>>, labels: boolean[]) => LogisticModel,
  folds = 5,
): RecordScores {
  const out: RecordScores = { first: [], ablation: [] };
  for (let k = 0; k < folds; k++) {
    const train = records.filter((_, i) => i % folds !== k);
    const model = fit(
      train.flatMap((r) => r.first.features),
      train.flatMap((r) => r.labels),
    );
    records.forEach((r, i) => {
      if (i % folds !== k) return;
      out.first[i] = r.first.features.map((f) => logisticScore(model, f));
      out.ablation[i] = r.ablation ? r.ablation.features.map((f) => logisticScore(model, f)) : null;
    });
  }
  return out;
}

/** Query thresholds: upper = smallest with train precision and ablation rate >= target. */
function queryThresholds(
  fitted: FittedModel,
  records: QueryRecord[],
  scores: RecordScores,
  log: (msg: string) => void,
  target = 0.92,
) {
  const { decide } = createRetrievalEvaluator(fitted);
  const q = records.map((r, i) => {
    const top3 = r.labels.slice(0, 3).some(Boolean);
    const top10 = r.labels.some(Boolean);
    const abl = scores.ablation[i];
    return {
      score: decide(scores.first[i]!).queryScore,
      top3,
      top10,
      ablated: abl ? decide(abl).queryScore : null,
    };
  });
  const abl = q.map((x) => x.ablated).filter((x): x is number => x !== null);
  let upper = 0.99;
  for (let t = 0.99; t >= 0.05; t -= 0.005) {
    const correct = q.filter((x) => x.score >= t);
    const precision = correct.filter((x) => x.top3).length / Math.max(1, correct.length);
    const ablRate = abl.filter((s) => s < t).length / Math.max(1, abl.length);
    if (precision >= target && ablRate >= target) upper = t;
    else if (correct.length > 20) break;
  }
  // lower: best separation (Youden) of queries with a relevant document in the top 10 from the
  // ablated ones, below upper.
  let lower = upper / 2;
  let bestJ = -1;
  const pos = q.filter((x) => x.top10).map((x) => x.score);
  for (let t = 0.01; t < upper; t += 0.005) {
    const tpr = pos.filter((s) => s >= t).length / Math.max(1, pos.length);
    const tnr = abl.filter((s) => s < t).length / Math.max(1, abl.length);
    if (tpr + tnr - 1 > bestJ) {
      bestJ = tpr + tnr - 1;
      lower = t;
    }
  }
  const correct = q.filter((x) => x.score >= upper);
  log(
    `[crag-fit] out-of-fold train: CORRECT precision ${(correct.filter((x) => x.top3).length / Math.max(1, correct.length)).toFixed(3)} coverage ${(correct.length / Math.max(1, q.length)).toFixed(3)} ablated not CORRECT ${(abl.filter((s) => s < upper).length / Math.max(1, abl.length)).toFixed(3)}`,
  );
  return { upper: round4(upper), lower: round4(Math.min(lower, upper)) };
}

export async function fitCrag(
  harness: CragHarness,
  records: QueryRecord[],
  evidence: Evidence[],
  corpusSize: number,
  provenance: { command: string; fittedOn: string },
  log: (msg: string) => void,
): Promise<FittedModel> {
  const fitted = unfitted(harness.modelId);
  Object.assign(fitted, { ...provenance, date: new Date().toISOString().slice(0, 10) });
  const rows = records.flatMap((r) => r.first.features);
  const labels = records.flatMap((r) => r.labels);
  const fitPassage = (r: Array<Record<string, number>>, l: boolean[]) =>
    fitBoosted(PASSAGE_FEATURES, r, l);
  fitted.passage = fitPassage(rows, labels);
  const oof = crossFitted(records, fitPassage);
  fitted.thresholds.passage = passageThreshold(oof.first.flat(), labels);
  const baseline = fitLogistic(BASELINE_FEATURES, rows, labels, 1);
  const bScores = rows.map((r) => logisticScore(baseline, r));
  (fitted as FittedModel & { baseline?: unknown }).baseline = {
    ...baseline,
    threshold: passageThreshold(bScores, labels),
  };
  Object.assign(fitted.thresholds, queryThresholds(fitted, records, oof, log));
  // Strips, their keep threshold and the answer's are fitted on out-of-fold passage scores too
  // (a strip's features include its passage's score).
  records.forEach((r, i) => {
    r.oofScores = oof.first[i]!;
  });
  log(`[crag-fit] passage model and thresholds ${JSON.stringify(fitted.thresholds)}`);

  const gold = goldSpans(harness, evidence);
  const strips = stripRows(fitted, records, gold);
  fitted.strip = {
    ...fitLogistic(STRIP_FEATURES, strips.rows, strips.labels, 1),
    keep: 0.5,
    answer: 0.6,
    answerMax: 2,
  };
  // keep: the largest threshold that still keeps >= 93% of train rationale sentences.
  for (let t = 0.5; t >= 0.001; t *= 0.9) {
    fitted.strip.keep = round4(t);
    if (refineFigures(fitted, records, gold).rationaleRecall >= 0.93) break;
  }
  const { decide } = createRetrievalEvaluator(fitted);
  const decisionOf = (r: QueryRecord) =>
    r.oofScores ? decide(r.oofScores).decision : scoreWith(fitted, r.first).decision;
  let best = { v: -1, answer: 0.6, max: 2 };
  for (const max of [1, 2, 3])
    for (const t of [0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8]) {
      Object.assign(fitted.strip, { answer: t, answerMax: max });
      const a = answerFigures(fitted, records, gold, decisionOf);
      const v = a.precision + 0.02 * max; // prefer more sentences at (almost) equal precision
      if (v > best.v) best = { v, answer: t, max };
    }
  Object.assign(fitted.strip, { answer: best.answer, answerMax: best.max });
  log(`[crag-fit] strips keep ${fitted.strip.keep} answer ${best.answer} x${best.max}`);

  const checker = await evalChecker(harness, fitted);
  const pairs = buildPairs(harness, fitted, records, evidence, corpusSize).filter(
    (p) => p.kind !== 'contradict',
  );
  const feats = await checker.features(pairs);
  const cRows = feats.map((f) => f ?? {});
  const cLabels = pairs.map((p) => p.kind === 'right');
  fitted.checker = {
    ...fitLogistic(CHECKER_FEATURES, cRows, cLabels, 1),
    supported: 0.5,
    unsupported: 0.5,
  };
  const cScores = cRows.map((r) => logisticScore(fitted.checker, r));
  const right = cScores.filter((_, i) => pairs[i]!.kind === 'right').sort((a, b) => a - b);
  const hard = cScores.filter((_, i) => pairs[i]!.kind === 'hard').sort((a, b) => a - b);
  const supported = right[Math.floor(right.length * 0.07)] ?? 0.5; // 93% of right pairs at or above
  const unsupported = hard[Math.ceil(hard.length * 0.85)] ?? 0.5; // 85% of hard negatives below
  if (unsupported <= supported)
    Object.assign(fitted.checker, {
      supported: round4(supported),
      unsupported: round4(unsupported),
    });
  else {
    const mid = round4((supported + unsupported) / 2);
    Object.assign(fitted.checker, { supported: mid, unsupported: mid });
  }
  log(
    `[crag-fit] checker ${fitted.checker.supported}/${fitted.checker.unsupported} on ${pairs.length} pairs`,
  );

  fitted.corrective = await fitCorrective(harness, fitted, records, log);
  return fitted;
}

/**
 * The corrective expansion for INCORRECT queries: the technique and the query-score rise its
 * second retrieval must show to replace the first, kept only where train nDCG@10 gains (with at
 * least 10 train queries switched, so one lucky query does not decide it); else 'none'.
 */
async function fitCorrective(
  harness: CragHarness,
  fitted: FittedModel,
  records: QueryRecord[],
  log: (msg: string) => void,
): Promise<FittedModel['corrective']> {
  const incorrect = records.filter((r) => scoreWith(fitted, r.first).decision === 'INCORRECT');
  let choice: FittedModel['corrective'] = { technique: 'none', trainGain: 0, minGain: 0 };
  for (const technique of ['rm3', 'wordnet'] as const) {
    const expand = createExpansion(technique, {
      lexicalTopK: harness.lexicalTopK,
      synonyms: harness.synonyms,
    });
    const trials = await correctiveTrials(harness, fitted, incorrect, expand);
    for (const minGain of [0, 0.01, 0.02, 0.05, 0.1, 0.15, 0.2, 0.3]) {
      const g = correctiveGain(trials, minGain);
      log(
        `[crag-fit] ${technique} on ${g.queries} INCORRECT train queries, min score rise ${minGain}: nDCG@10 ${g.gain >= 0 ? '+' : ''}${g.gain.toFixed(4)} (${g.applied} applied)`,
      );
      if (g.applied >= 10 && g.gain > choice.trainGain)
        choice = { technique, trainGain: round4(g.gain), minGain };
    }
  }
  return choice;
}

/** The fitted file's text: indented, each array of numbers on one line (the trees stay short). */
export function formatFitted(fitted: FittedModel): string {
  return `${JSON.stringify(fitted, null, 2).replace(
    /\[\s*(-?[\d.e+-]+(?:,\s*-?[\d.e+-]+)*)\s*\]/g,
    (_, body: string) => `[${body.split(/,\s*/).join(', ')}]`,
  )}\n`;
}

export function writeFitted(fitted: FittedModel): string {
  const file = join(REPO_ROOT, 'workers/answer/fitted', `${fitted.modelId}.json`);
  writeFileSync(file, formatFitted(fitted));
  return file;
}
