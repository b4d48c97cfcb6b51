// `npm run eval -- --dataset <BEIR folder with claims/> --task rationale-fit --split train --model <id>
// [--records FILE]`: fits the rationale ranker (workers/answer/rationale-rank.ts) on TRAIN only and
// writes workers/fitted/rationale-<model>.json (command, date and out-of-fold figures
// inside). Rows: the strips the extractive answer chooses from (each answered train query's kept
// strips, else all), labelled by whether they lie in a gold rationale sentence of claims_train
// (SciFact). A class-unweighted logistic regression over RATIONALE_FEATURES; its L2 and the
// answer's probability threshold and sentence count are chosen on 5-fold out-of-fold train
// answers (folds by query), by the answer's rationale precision, as the report computes it.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { extractiveAnswer } from '../workers/answer/extractive';
import type { FittedModel } from '../workers/answer/fitted';
import {
  RATIONALE_FEATURES,
  rankRationale,
  rationaleFeatures,
  type RationaleModel,
} from '../workers/answer/rationale-rank';
import type { ScoredStrip } from '../workers/answer/refine';
import { REPO_ROOT } from '../workers/embed/node-kernel';
import { insideSpan } from '../eval/crag-claims';
import { refineRecord, scoreWith, type Gold, type QueryRecord } from '../eval/crag-collect';
import { fitLogistic, round4 } from '../eval/logistic';

const FOLDS = 5;
const L2S = [0.1, 1, 10];
const THRESHOLDS = [0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9];
const MAXES = [1, 2, 3];

interface AnswerQuery {
  fold: number;
  kept: ScoredStrip[];
  all: ScoredStrip[];
  pool: ScoredStrip[];
  labels: boolean[];
}

/** The answered train queries (gold evidence, not INCORRECT) with their candidate strips. */
export function answerQueries(fitted: FittedModel, records: QueryRecord[], gold: Gold) {
  const out: AnswerQuery[] = [];
  records.forEach((rec, i) => {
    const g = gold.spans.get(rec.qid);
    if (!g || scoreWith(fitted, rec.first).decision === 'INCORRECT') return;
    const r = refineRecord(fitted, rec);
    const pool = r.kept.length ? r.kept : r.all;
    const labels = pool.map((s) => insideSpan(s.start, s.end, g.get(s.path) ?? []));
    out.push({ fold: i % FOLDS, kept: r.kept, all: r.all, pool, labels });
  });
  return out;
}

function isGold(q: AnswerQuery, s: ScoredStrip): boolean {
  return q.labels[q.pool.indexOf(s)] ?? false;
}

/** Answer precision (share of answer sentences that are rationale) of per-query models. */
function precisionOf(
  queries: AnswerQuery[],
  fitted: FittedModel,
  modelOf: (q: AnswerQuery) => RationaleModel | null,
) {
  let n = 0;
  let good = 0;
  for (const q of queries) {
    const d = extractiveAnswer(q.kept, fitted, q.all, modelOf(q));
    for (const s of d.sentences) {
      n++;
      if (isGold(q, s.strip as ScoredStrip)) good++;
    }
  }
  return { precision: n ? good / n : 0, sentences: n };
}

export function fitRationale(
  fitted: FittedModel,
  records: QueryRecord[],
  gold: Gold,
  provenance: { command: string; fittedOn: string },
  log: (m: string) => void,
): string {
  const queries = answerQueries(fitted, records, gold);
  const rowsOf = (qs: AnswerQuery[]) => qs.flatMap((q) => q.pool.map(rationaleFeatures));
  const labelsOf = (qs: AnswerQuery[]) => qs.flatMap((q) => q.labels);
  const fit = (qs: AnswerQuery[], l2: number) =>
    fitLogistic(RATIONALE_FEATURES, rowsOf(qs), labelsOf(qs), l2);
  const top1 = (qs: AnswerQuery[], model: RationaleModel | null) =>
    qs.filter((q) => {
      const best = model
        ? rankRationale(q.pool, model)[0]?.strip
        : [...q.pool].sort((a, b) => b.score - a.score)[0];
      return best ? isGold(q, best) : false;
    }).length;
  const base = precisionOf(queries, fitted, () => null);
  log(
    `[rationale-fit] ${queries.length} answered train queries, ${labelsOf(queries).length} strips; ` +
      `strip score: top-1 ${round4(top1(queries, null) / queries.length)}, answer precision ${round4(base.precision)}`,
  );
  let best = { l2: 1, t: 0.5, max: 1, v: -1, precision: 0, top1: 0, sentences: 0 };
  for (const l2 of L2S) {
    const models = Array.from({ length: FOLDS }, (_, f) =>
      fit(
        queries.filter((q) => q.fold !== f),
        l2,
      ),
    );
    const oofTop1 =
      Array.from({ length: FOLDS }, (_, f) =>
        top1(
          queries.filter((q) => q.fold === f),
          { ...models[f]!, answer: 1, answerMax: 1 },
        ),
      ).reduce((a, b) => a + b, 0) / queries.length;
    for (const max of MAXES)
      for (const t of THRESHOLDS) {
        const a = precisionOf(queries, fitted, (q) => ({
          ...models[q.fold]!,
          answer: t,
          answerMax: max,
        }));
        const v = a.precision + 0.02 * max; // more sentences at (almost) equal precision
        log(
          `[rationale-fit] l2 ${l2} max ${max} t ${t}: out-of-fold top-1 ${round4(oofTop1)}, answer precision ${round4(a.precision)} (${a.sentences} sentences)`,
        );
        if (v > best.v)
          best = { l2, t, max, v, precision: a.precision, top1: oofTop1, sentences: a.sentences };
      }
  }
  const model: RationaleModel = {
    modelId: fitted.modelId,
    command: provenance.command,
    date: new Date().toISOString().slice(0, 10),
    fittedOn: provenance.fittedOn,
    ...fit(queries, best.l2),
    answer: best.t,
    answerMax: best.max,
    train: {
      queries: queries.length,
      l2: best.l2,
      oofTop1: round4(best.top1),
      oofAnswerPrecision: round4(best.precision),
      oofAnswerSentences: best.sentences,
      stripScoreAnswerPrecision: round4(base.precision),
    },
  };
  const key = fitted.modelId.split(/[\\/@]/).filter(Boolean)[0] ?? fitted.modelId;
  const path = join(REPO_ROOT, 'workers', 'fitted', `rationale-${key}.json`);
  writeFileSync(path, `${JSON.stringify(model, null, 2)}\n`);
  log(
    `[rationale-fit] chose l2 ${best.l2}, threshold ${best.t}, max ${best.max}: out-of-fold answer precision ${round4(best.precision)}`,
  );
  return path;
}
