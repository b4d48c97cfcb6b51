// The fitted numbers of the LLM-free tier: logistic weights (the passage model also boosted
// trees) and thresholds per embedding model, fitted on SciFact train only by
// `npm run eval -- --task crag-fit` (ml/crag-fit.ts; its vector-free variant alone by
// ml/crag-fit-novectors.ts) and committed as data (workers/fitted/evaluator-<model>.json, with the command
// lines and date inside). Each file (about 0.9 MB of trees, half of them the vector-free
// variant's) is loaded on first use by a dynamic import, so only the active model's file is fetched
// and none sits in the chunk that loads the worker.
import type { EvaluatorThresholds } from '../shared/answer-api';
import { assertFittedFeatures } from '../shared/fitted-features';
import { sigmoid, standardLogit, standardValues } from '../shared/standard-logistic';
import { LEXICAL_FEATURES, PASSAGE_FEATURES } from './features';

/**
 * One regression tree over the model's features (raw values): node i splits on feature `f[i]`
 * (value <= `t[i]` goes to `l[i]`, else `r[i]`); `f[i] = -1` marks a leaf adding `v[i]` to the logit.
 */
export interface BoostTree {
  f: number[];
  t: number[];
  l: number[];
  r: number[];
  v: number[];
}

/**
 * A logistic model over named features, standardised with the training mean and scale, and
 * optionally gradient-boosted trees fitted on its residuals (their leaves add to the logit).
 */
export interface LogisticModel {
  features: string[];
  weights: number[];
  bias: number;
  mean: number[];
  scale: number[];
  trees?: BoostTree[];
}

export interface FittedModel {
  modelId: string;
  /** Provenance: the command line, date and data it was fitted on. */
  command: string;
  date: string;
  fittedOn: string;
  passage: LogisticModel;
  /**
   * The query-score model, when the fit chose one: the passage model's features trained with the
   * ablated retrievals' passages (the library without the relevant documents) as extra
   * negatives; absent -> the passage model scores the query too.
   */
  query?: LogisticModel;
  /**
   * The weight of the query model's logit in the passage score (0 or absent: the passage model
   * alone): P = sigmoid((1 - w) logit(passage) + w logit(query)). The query model has seen the
   * ablated retrievals' on-topic passages as negatives, which is what the passage model's false
   * positives look like; chosen on out-of-fold train scores by the passage threshold's rule.
   */
  passageBlend?: number;
  /** The query score is the best query-model score among the first `queryTopN` passages. */
  queryTopN: number;
  thresholds: EvaluatorThresholds;
  /**
   * The variant for retrievals without vectors (features flag `vectors` 0: no semantic index
   * yet, a lexical-only library): models over the vector-free features only, fitted on
   * lexical-only retrievals of the same train split, with their own thresholds. Absent: the
   * models above score those retrievals too (their vector features then read 0).
   */
  noVectors?: EvaluatorVariant;
  strip: LogisticModel & {
    /** Strips scoring below are dropped by refinement. */
    keep: number;
    /** Strips the extractive answer may use, and how many sentences it takes at most. */
    answer: number;
    answerMax: number;
  };
  checker: LogisticModel & {
    /** score >= supported -> supported; score < unsupported -> unsupported; else partly. */
    supported: number;
    unsupported: number;
  };
  corrective: {
    /**
     * The LLM-free correction of INCORRECT queries ('none' when train showed no gain): an
     * expanded second retrieval (rm3, wordnet) behind the gate below, or 'rerank': the passages
     * reordered by the evaluator's passage score (no second retrieval, no gate).
     */
    technique: CorrectiveTechnique;
    trainGain: number;
    /** The second retrieval replaces the first only when it raises the query score by more. */
    minGain?: number;
    /** ... and when its query score is at least this (0 when absent). */
    minScore?: number;
    /** Out-of-fold train figures behind the choice: INCORRECT queries, switched, gain per fold. */
    trainQueries?: number;
    trainApplied?: number;
    foldGains?: number[];
  };
}

/** The parts of a fit the evaluator reads: passage and query models, top-N, thresholds. */
export type EvaluatorVariant = Pick<
  FittedModel,
  'passage' | 'query' | 'passageBlend' | 'queryTopN' | 'thresholds'
>;

const logit = (p: number) => Math.log(Math.max(1e-9, p) / Math.max(1e-9, 1 - p));

/**
 * P(relevant) of a passage under a variant: the passage model's, blended in the logit with the
 * query model's when the fit chose a `passageBlend`.
 */
export function passageScore(variant: EvaluatorVariant, values: Record<string, number>): number {
  const p = logisticScore(variant.passage, values);
  const w = variant.query ? (variant.passageBlend ?? 0) : 0;
  if (w <= 0) return p;
  return blendScores(p, logisticScore(variant.query!, values), w);
}

/** sigmoid((1 - w) logit(p) + w logit(q)). */
export function blendScores(p: number, q: number, w: number): number {
  return 1 / (1 + Math.exp(-((1 - w) * logit(p) + w * logit(q))));
}

export type CorrectiveTechnique = 'rm3' | 'wordnet' | 'rerank' | 'none';

/** The shipped fitted files, each imported only when asked for. */
const FITTED: Record<string, () => Promise<{ default: unknown }>> = {
  'all-MiniLM-L6-v2': () => import('../fitted/evaluator-all-MiniLM-L6-v2.json'),
  'use-lite': () => import('../fitted/evaluator-use-lite.json'),
};
const loaded = new Map<string, Promise<FittedModel>>();

/** The shipped file's key for an embedding model id ('use-lite' when unknown). */
export function fittedKeyFor(modelId: string): string {
  const key = modelId.split(/[\\/@]/).filter(Boolean)[0] ?? modelId;
  if (FITTED[key]) return key;
  const last = modelId.split('/').pop() ?? '';
  return FITTED[last] ? last : 'use-lite';
}

/** The fitted model for an embedding model id (the shipped USE-lite's when unknown), loaded once. */
export function loadFittedModel(modelId: string): Promise<FittedModel> {
  const key = fittedKeyFor(modelId);
  let p = loaded.get(key);
  if (!p) {
    p = FITTED[key]!().then(
      (m) => checkedFit(m.default as FittedModel, `workers/fitted/evaluator-${key}.json`),
      (err: unknown) => {
        loaded.delete(key); // a failed load (offline before caching) is retried next time
        throw err;
      },
    );
    loaded.set(key, p);
  }
  return p;
}

/**
 * The evaluator file as loaded, its passage and query models checked against the
 * features the code computes (features.ts; the vector-free variant's against LEXICAL_FEATURES).
 * The strip and checker entries are checked where they are scored (refine.ts, checker.ts).
 * @throws AppError FITTED_MISMATCH naming the refit step.
 */
export function checkedFit(fit: FittedModel, file: string): FittedModel {
  for (const m of [fit.passage, fit.query])
    if (m) assertFittedFeatures(m, PASSAGE_FEATURES, file, 'evaluator');
  for (const m of [fit.noVectors?.passage, fit.noVectors?.query])
    if (m) assertFittedFeatures(m, LEXICAL_FEATURES, file, 'evaluator');
  return fit;
}

/** The logit a tree adds for raw feature values `x` (in the model's feature order). */
export function treeValue(tree: BoostTree, x: number[]): number {
  let i = 0;
  while (tree.f[i]! >= 0) i = x[tree.f[i]!]! <= tree.t[i]! ? tree.l[i]! : tree.r[i]!;
  return tree.v[i]!;
}

/**
 * P(positive) for the named feature values: the linear logit plus the trees' (non-finite features
 * count as the training mean; an absent one is refused, see standardValues).
 */
export function logisticScore(model: LogisticModel, values: Record<string, number>): number {
  const x = standardValues(model, values);
  let z = standardLogit(model, x);
  for (const tree of model.trees ?? []) z += treeValue(tree, x);
  return sigmoid(z);
}
