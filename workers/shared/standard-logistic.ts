// The one scorer of Sift's fitted logistic layers: features standardised by the training mean and
// scale, a linear logit, and the rule for features the caller did not compute.
import { createError } from './errors';

/** Logistic weights over named features, standardised by the training mean and scale. */
export interface StandardLogistic {
  readonly features: readonly string[];
  readonly weights: readonly number[];
  readonly bias: number;
  readonly mean: readonly number[];
  readonly scale: readonly number[];
}

const NONE: ReadonlySet<string> = new Set();

/**
 * The model's feature values in its own order. A value that is not finite counts as the training
 * mean (it adds nothing to the logit); so does an absent one named in `optional` (context the
 * caller may not have, e.g. a lexical-only search has no semantic rank). Any other absent feature
 * is a bug in the code that computes them: FITTED_MISMATCH names it, instead of scoring on the mean.
 */
export function standardValues(
  model: StandardLogistic,
  values: Readonly<Record<string, number>>,
  optional: ReadonlySet<string> = NONE,
): number[] {
  return model.features.map((name, i) => {
    const v = values[name];
    if (v === undefined && !optional.has(name)) {
      throw createError('FITTED_MISMATCH', {
        reason: `the fitted model reads "${name}", which the code did not compute: the features and the fit disagree; refit it (npm run fit) or fix the feature code.`,
        unknown: [name],
      });
    }
    return v === undefined || !Number.isFinite(v) ? model.mean[i]! : v;
  });
}

/** The linear logit of values already in the model's order (see standardValues). */
export function standardLogit(model: StandardLogistic, x: readonly number[]): number {
  let z = model.bias;
  for (let i = 0; i < model.features.length; i++) {
    z += (model.weights[i]! * (x[i]! - model.mean[i]!)) / model.scale[i]!;
  }
  return z;
}

/** The logistic function. */
export const sigmoid = (z: number): number => 1 / (1 + Math.exp(-z));

/** P(positive) of named feature values under `model` (see standardValues for absent ones). */
export function standardProbability(
  model: StandardLogistic,
  values: Readonly<Record<string, number>>,
  optional?: ReadonlySet<string>,
): number {
  return sigmoid(standardLogit(model, standardValues(model, values, optional)));
}
