// The fold skeleton the CRAG explore scripts (crag-explore*.ts) share: 5 folds by query
// (query i in fold i % 5, as crag-fit.ts), each fold scored by a model fitted on the other four,
// and the query-level cross-fit (each real query's row against its ablated retrieval's row as a
// negative). Train-only exploration code; from the app it imports only the fitted models' scorer.
import { logisticScore, type LogisticModel } from '../workers/answer/fitted';
import type { EvaluatedRetrieval } from '../workers/answer/pipeline';
import type { QueryRecord } from '../eval/crag-collect';

export type Rows = Array<Record<string, number>>;
/** Out-of-fold passage scores of each query's first retrieval and of its ablated one. */
export type Scores = { first: number[][]; abl: Array<number[] | null> };
/** A retrieval's passage rows (`ablated`: the query's ablated retrieval). */
export type RowsOf = (ev: EvaluatedRetrieval, i: number, ablated: boolean) => Rows;
export const FOLDS = 5;
export const logit = (p: number) => Math.log(Math.max(1e-6, p) / Math.max(1e-6, 1 - p));

/**
 * For each fold k: `fit` on the indices of the other folds (in order), then `score` each index
 * of fold k with that model.
 */
export function crossFit<M>(
  n: number,
  fit: (train: number[], k: number) => M,
  score: (model: M, i: number) => void,
): void {
  for (let k = 0; k < FOLDS; k++) {
    const train: number[] = [];
    for (let i = 0; i < n; i++) if (i % FOLDS !== k) train.push(i);
    const m = fit(train, k);
    for (let i = 0; i < n; i++) if (i % FOLDS === k) score(m, i);
  }
}

/**
 * Out-of-fold query-level scores: a model over each query's row (label: a relevant document in
 * its top 3) with its ablated retrieval's row (when it has one) as a negative.
 */
export function queryOutOfFold(
  rows: Rows,
  ablated: Array<Record<string, number> | null>,
  top3: boolean[],
  fit: (rows: Rows, labels: boolean[]) => LogisticModel,
): { s: number[]; a: Array<number | null> } {
  const s: number[] = [];
  const a: Array<number | null> = [];
  crossFit(
    rows.length,
    (train) => {
      const fitRows: Rows = [];
      const l: boolean[] = [];
      for (const i of train) {
        fitRows.push(rows[i]!);
        l.push(top3[i]!);
        const ab = ablated[i];
        if (ab) {
          fitRows.push(ab);
          l.push(false);
        }
      }
      return fit(fitRows, l);
    },
    (m, i) => {
      s[i] = logisticScore(m, rows[i]!);
      const ab = ablated[i];
      a[i] = ab ? logisticScore(m, ab) : null;
    },
  );
  return { s, a };
}

/** The training rows of queries `ids`: their passages, and with `ablNeg` their ablated passages as negatives. */
export function trainingRows(
  records: QueryRecord[],
  ids: number[],
  rowsOf: RowsOf,
  ablNeg: boolean,
): { rows: Rows; labels: boolean[] } {
  const rows: Rows = [];
  const labels: boolean[] = [];
  for (const i of ids) {
    const r = records[i]!;
    rows.push(...rowsOf(r.first, i, false));
    labels.push(...r.labels);
    if (ablNeg && r.ablation) {
      const a = rowsOf(r.ablation, i, true);
      rows.push(...a);
      labels.push(...a.map(() => false));
    }
  }
  return { rows, labels };
}

/** Out-of-fold passage scores: `fitFold` returns the scorer fitted on the training queries. */
export function passageOutOfFold(
  records: QueryRecord[],
  rowsOf: RowsOf,
  fitFold: (train: number[], k: number) => (f: Record<string, number>) => number,
): Scores {
  const first: number[][] = [];
  const abl: Array<number[] | null> = [];
  crossFit(records.length, fitFold, (score, i) => {
    const r = records[i]!;
    first[i] = rowsOf(r.first, i, false).map(score);
    abl[i] = r.ablation ? rowsOf(r.ablation, i, true).map(score) : null;
  });
  return { first, abl };
}

/** Out-of-fold passage scores of one fitted model per fold (`fit` over `trainingRows`). */
export function passageModelOutOfFold(
  records: QueryRecord[],
  rowsOf: RowsOf,
  fit: (rows: Rows, labels: boolean[]) => LogisticModel,
  ablNeg: boolean,
): Scores {
  return passageOutOfFold(records, rowsOf, (train) => {
    const t = trainingRows(records, train, rowsOf, ablNeg);
    const m = fit(t.rows, t.labels);
    return (f) => logisticScore(m, f);
  });
}

/**
 * The largest share of queries called CORRECT (score >= a threshold) with precision (a relevant
 * document in the top 3) and the ablated retrievals' not-CORRECT share both >= `target`.
 */
export function bestCoverage(
  top3: boolean[],
  s: number[],
  a: Array<number | null>,
  target: number,
): { cov: number; prec: number; ab: number } {
  const abl = a.filter((x): x is number => x !== null);
  let best = { cov: 0, prec: 0, ab: 1 };
  for (const t of [...new Set(s)].sort((x, y) => y - x)) {
    const ab = abl.filter((x) => x < t).length / abl.length;
    if (ab < target) break;
    const c = s.flatMap((x, i) => (x >= t ? [i] : []));
    const prec = c.filter((i) => top3[i]).length / c.length;
    if (prec >= target) best = { cov: c.length / s.length, prec, ab };
  }
  return best;
}
