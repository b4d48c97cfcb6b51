// The fitted numbers of the LLM-free tier: logistic weights (the passage model also boosted
// trees) and thresholds per embedding model, fitted on SciFact train only by
// `npm run eval -- --task crag-fit` (bench/eval/crag-fit.ts) and committed as data
// (fitted/<model>.json, with the command line and date inside).
import type { EvaluatorThresholds } from '../shared/answer-api';
import miniLm from './fitted/all-MiniLM-L6-v2.json';
import useLite from './fitted/use-lite.json';

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
  /** The query score is the best passage score among the first `queryTopN` passages. */
  queryTopN: number;
  thresholds: EvaluatorThresholds;
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
    /** The expansion used on INCORRECT queries ('none' when train showed no gain). */
    technique: 'rm3' | 'wordnet' | 'none';
    trainGain: number;
    /** The second retrieval replaces the first only when it raises the query score by more. */
    minGain?: number;
  };
}

const FITTED: Record<string, FittedModel> = {
  'all-MiniLM-L6-v2': miniLm as FittedModel,
  'use-lite': useLite as FittedModel,
};

/** The fitted model for an embedding model id (the shipped USE-lite's when unknown). */
export function fittedModelFor(modelId: string): FittedModel {
  const key = modelId.split(/[\\/@]/).filter(Boolean)[0] ?? modelId;
  return FITTED[key] ?? FITTED[modelId.split('/').pop() ?? ''] ?? FITTED['use-lite']!;
}

/** The logit a tree adds for raw feature values `x` (in the model's feature order). */
export function treeValue(tree: BoostTree, x: number[]): number {
  let i = 0;
  while (tree.f[i]! >= 0) i = x[tree.f[i]!]! <= tree.t[i]! ? tree.l[i]! : tree.r[i]!;
  return tree.v[i]!;
}

/**
 * P(positive) for the named feature values: the linear logit plus the trees' (missing or
 * non-finite features count as the training mean).
 */
export function logisticScore(model: LogisticModel, values: Record<string, number>): number {
  let z = model.bias;
  const x = model.features.map((name, i) => {
    const v = values[name];
    return v === undefined || !Number.isFinite(v) ? model.mean[i]! : v;
  });
  x.forEach((v, i) => {
    z += (model.weights[i]! * (v - model.mean[i]!)) / model.scale[i]!;
  });
  for (const tree of model.trees ?? []) z += treeValue(tree, x);
  return 1 / (1 + Math.exp(-z));
}
