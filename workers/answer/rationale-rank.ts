// The rationale ranker: which of the refined strips state the answer (are rationale sentences), as
// a probability per strip. The strip model (refine.ts) asks "is this strip worth keeping" and
// sees only the query's words; the ranker re-scores the kept strips with where each sits in its
// document (findings and conclusions come late in an abstract, background first) and whether it
// reports figures. Fitted on SciFact claims_train rationale labels by
// `npm run eval -- --task rationale-fit --split train` (ml/rationale-fit.ts) and shipped
// per embedding model as workers/fitted/rationale-<model>.json; a model without a file keeps the strip
// score.
import { assertFittedFeatures } from '../shared/fitted-features';
import { logisticScore, type FittedModel, type LogisticModel } from './fitted';
import miniLm from '../fitted/rationale-all-MiniLM-L6-v2.json';
import { STRIP_FEATURES, type ScoredStrip } from './refine';

/** The strip model's features plus position and figures (all vocabulary-free). */
export const RATIONALE_FEATURES = [
  ...STRIP_FEATURES,
  'relPos',
  'relEnd',
  'lastQuarter',
  'firstSentence',
  'digits',
] as const;

export type RationaleModel = LogisticModel & {
  /** Answer strips: probability >= `answer` (at least the best one), at most `answerMax`. */
  answer: number;
  answerMax: number;
  modelId?: string;
  command?: string;
  date?: string;
  fittedOn?: string;
  /** Out-of-fold train figures behind the choice (reported, not used). */
  train?: Record<string, number>;
};

const RANKERS: Record<string, RationaleModel> = {
  'all-MiniLM-L6-v2': miniLm,
};

/** The rationale model for a fitted file's embedding model, or null (keep the strip score). */
export function rationaleModelFor(fitted: Pick<FittedModel, 'modelId'>): RationaleModel | null {
  const first = fitted.modelId.split(/[\\/@]/).filter(Boolean)[0] ?? fitted.modelId;
  const key = RANKERS[first] ? first : (fitted.modelId.split('/').pop() ?? '');
  const model = RANKERS[key] ?? null;
  if (model) {
    const file = `workers/fitted/rationale-${key}.json`;
    assertFittedFeatures(model, RATIONALE_FEATURES, file, 'rationale');
  }
  return model;
}

/** The ranker's feature values of one refined strip (derived from its refine features). */
export function rationaleFeatures(strip: ScoredStrip): Record<string, number> {
  const f = strip.features;
  const out: Record<string, number> = { ...f };
  if (f.relPos !== undefined && f.relEnd !== undefined) {
    out.lastQuarter = f.relEnd > 0.75 ? 1 : 0;
    out.firstSentence = f.relPos < 0.02 ? 1 : 0;
  }
  return out;
}

/** P(rationale) of a strip under `model`. */
export function rationaleProbability(model: LogisticModel, strip: ScoredStrip): number {
  return logisticScore(model, rationaleFeatures(strip));
}

/** Strips with their rationale probability, best first (ties: higher strip score, then id). */
export function rankRationale(
  strips: ScoredStrip[],
  model: LogisticModel,
): Array<{ strip: ScoredStrip; p: number }> {
  return strips
    .map((strip) => ({ strip, p: rationaleProbability(model, strip) }))
    .sort(
      (a, b) =>
        b.p - a.p ||
        b.strip.score - a.strip.score ||
        (a.strip.id < b.strip.id ? -1 : a.strip.id > b.strip.id ? 1 : 0),
    );
}
