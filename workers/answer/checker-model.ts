// The sentence checker's own fitted model per embedding model (workers/fitted/checker-<model>.json,
// written by `npm run eval -- --task checker-fit --split train`, ml/checker-fit.ts, on
// SciFact claims_train pairs only). Kept apart from the evaluator's workers/fitted/evaluator-<model>.json (another
// fit, another owner); a model with no checker file falls back to that file's `checker` entry.
// Imports only ./fitted and the JSON data.
import { fittedKeyFor, type FittedModel } from './fitted';
import miniLm from '../fitted/checker-all-MiniLM-L6-v2.json';
import useLite from '../fitted/checker-use-lite.json';

export type CheckerModel = FittedModel['checker'] & {
  /**
   * Cosine gate, fitted with the cut-off: a sentence whose nearest cited strip has a canonical
   * cosine below it is unsupported whatever its score (the cited strip is not about it).
   */
  gate?: number;
  modelId?: string;
  command?: string;
  date?: string;
  fittedOn?: string;
};

const CHECKERS: Record<string, CheckerModel> = {
  'all-MiniLM-L6-v2': miniLm,
  'use-lite': useLite,
};

/** The checker model for a fitted file: its own checker file if one was fitted, else `fitted.checker`. */
export function checkerModelFor(fitted: FittedModel): CheckerModel {
  return CHECKERS[checkerKey(fitted)] ?? fitted.checker;
}

/** The shipped file `checkerModelFor(fitted)` comes from, and the `npm run fit` step refitting it. */
export function checkerFileFor(fitted: FittedModel): { file: string; step: string } {
  const key = checkerKey(fitted);
  return CHECKERS[key]
    ? { file: `workers/fitted/checker-${key}.json`, step: 'checker' }
    : { file: `workers/fitted/evaluator-${fittedKeyFor(fitted.modelId)}.json`, step: 'evaluator' };
}

function checkerKey(fitted: FittedModel): string {
  const key = fitted.modelId.split(/[\\/@]/).filter(Boolean)[0] ?? fitted.modelId;
  return CHECKERS[key] ? key : (fitted.modelId.split('/').pop() ?? '');
}
