// The fitted numbers of the LLM-free tier: logistic weights and thresholds per embedding model,
// fitted on SciFact train only by `npm run eval -- --task crag-fit` (bench/eval/crag-fit.ts) and
// committed as data (fitted/<model>.json, with the command line and date inside).
import type { EvaluatorThresholds } from '../shared/answer-api';
import miniLm from './fitted/all-MiniLM-L6-v2.json';
import useLite from './fitted/use-lite.json';

/** A logistic model over named features, standardised with the training mean and scale. */
export interface LogisticModel {
  features: string[];
  weights: number[];
  bias: number;
  mean: number[];
  scale: number[];
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

/** P(positive) for the named feature values (missing features count as the training mean). */
export function logisticScore(model: LogisticModel, values: Record<string, number>): number {
  let z = model.bias;
  model.features.forEach((name, i) => {
    const v = values[name];
    const x = v === undefined || !Number.isFinite(v) ? 0 : (v - model.mean[i]!) / model.scale[i]!;
    z += model.weights[i]! * x;
  });
  return 1 / (1 + Math.exp(-z));
}
