// The LLM-free stance model at inference: a fitted model shipped as JSON (`workers/fitted/stance-<model>.json`,
// written by ml/stance-fit.ts from SciFact claims_train only) turns a (claim, sentence)
// feature vector into P(SUPPORT), P(CONTRADICT), P(NEUTRAL). Weights are int16 with one scale per
// layer, math is float64 in a fixed order, so a prediction is the same on every device.
// Pure.
import { createError } from '../shared/errors';
import {
  FEATURES_VERSION,
  featureCount,
  stanceFeatures,
  type TextView,
} from '../text-features/stance-features';

export const STANCE_LABELS = ['SUPPORT', 'CONTRADICT', 'NEUTRAL'] as const;
export type Stance = (typeof STANCE_LABELS)[number];

export interface FittedLayer {
  inputs: number;
  outputs: number;
  /** Row-major [outputs][inputs], value = weight / scale. */
  weights: number[];
  scale: number;
  bias: number[];
}

export interface FittedStanceModel {
  format: 'sift-stance/1';
  features: string;
  /** Embedding model id and version whose vectors the model was fitted on. */
  model: string;
  modelVersion: string;
  dim: number;
  dense: boolean;
  /** Per-feature standardisation (x - mean) / std, from the training set. */
  mean: number[];
  std: number[];
  /** One layer = multinomial logistic regression; two = a tiny MLP (ReLU hidden layer). */
  layers: FittedLayer[];
  /** A sentence counts as evidence when P(NEUTRAL) is below this (chosen on train). */
  evidenceThreshold: number;
  provenance: Record<string, string | number>;
  /**
   * Citation-audit calibration: P(the cited source addresses the claim) =
   * sigmoid(intercept + notNeutral * max(1 - P(NEUTRAL)) + cosine * max cosine + overlap * max
   * share of claim words in a sentence), fitted on train citations (right vs random wrong) by
   * ml/fit-audit.py. Absent: the score is max(1 - P(NEUTRAL)).
   */
  audit?: { intercept: number; notNeutral: number; cosine: number; overlap: number };
  /** Rows with the fitting script's own probabilities, to check the TypeScript formula. */
  auditCheck?: Array<{ x: [number, number, number]; p: number }>;
}

export type StanceProbabilities = [number, number, number];

export interface StanceModel {
  readonly fitted: FittedStanceModel;
  /** Class log-probabilities of a pair, in STANCE_LABELS order. */
  logProbs(claim: TextView, sentence: TextView): StanceProbabilities;
  probs(claim: TextView, sentence: TextView): StanceProbabilities;
}

/**
 * @throws AppError FITTED_MISMATCH when the file was fitted on other features; Error when it was
 * fitted on another vector size.
 */
export function createStanceModel(fitted: FittedStanceModel, dim: number): StanceModel {
  if (fitted.format !== 'sift-stance/1' || fitted.features !== FEATURES_VERSION) {
    throw createError('FITTED_MISMATCH', {
      reason: `Stance model ${fitted.format}/${fitted.features} does not match ${FEATURES_VERSION}: refit it with \`npm run fit -- stance\` (ml/stance-fit.ts).`,
      file: `workers/fitted/stance-${fitted.model}.json`,
      step: 'stance',
    });
  }
  if (fitted.dim !== dim || fitted.mean.length !== featureCount(dim, fitted.dense)) {
    throw new Error(
      `Stance model expects ${fitted.dim}-d vectors of ${fitted.model}, got ${dim}-d: use the model fitted for the active embedding model`,
    );
  }
  const logProbs = (claim: TextView, sentence: TextView): StanceProbabilities =>
    forward(fitted, stanceFeatures(claim, sentence, fitted.dense));
  return {
    fitted,
    logProbs,
    probs: (claim, sentence) => logProbs(claim, sentence).map(Math.exp) as StanceProbabilities,
  };
}

/** Log-softmax of the network's output for one raw feature vector. */
export function forward(fitted: FittedStanceModel, raw: Float64Array): StanceProbabilities {
  let x = new Float64Array(raw.length);
  for (let i = 0; i < raw.length; i++) x[i] = (raw[i]! - fitted.mean[i]!) / fitted.std[i]!;
  fitted.layers.forEach((layer, li) => {
    const y = new Float64Array(layer.outputs);
    for (let o = 0; o < layer.outputs; o++) {
      let s = 0;
      const row = o * layer.inputs;
      for (let i = 0; i < layer.inputs; i++) s += layer.weights[row + i]! * x[i]!;
      y[o] = s / layer.scale + layer.bias[o]!;
      if (li < fitted.layers.length - 1 && y[o]! < 0) y[o] = 0;
    }
    x = y;
  });
  return logSoftmax(x);
}

export function logSoftmax(z: Float64Array): StanceProbabilities {
  const m = Math.max(z[0]!, z[1]!, z[2]!);
  const lse = m + Math.log(Math.exp(z[0]! - m) + Math.exp(z[1]! - m) + Math.exp(z[2]! - m));
  return [z[0]! - lse, z[1]! - lse, z[2]! - lse];
}

/**
 * The stance of a set of evidence sentences toward a claim: the class whose summed
 * log-probability over the sentences is highest (a product of experts; one sentence = its own
 * prediction). NEUTRAL for an empty set.
 */
export function combineStances(perSentence: StanceProbabilities[]): Stance {
  if (perSentence.length === 0) return 'NEUTRAL';
  const sum = [0, 0, 0];
  for (const lp of perSentence) for (let k = 0; k < 3; k++) sum[k]! += lp[k]!;
  let best = 0;
  for (let k = 1; k < 3; k++) if (sum[k]! > sum[best]!) best = k;
  return STANCE_LABELS[best]!;
}
