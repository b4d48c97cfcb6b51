// CRAG-001, LLM-free tier: a fitted model over the passage features (logistic plus boosted
// trees; blended in the logit with the query model's when the fit chose a `passageBlend`) gives
// P(relevant) per passage; the query score is the best of the first few passages
// (under the query model when the fit chose one) and the fitted thresholds decide CORRECT /
// AMBIGUOUS / INCORRECT, a CORRECT also needing its deciding passage to agree with the question
// in meaning or in words (the fitted floors). An LLM grade, when given, is blended in (h16b's
// tier).
import type { CragDecision, EvaluatorResult, PassageScore } from '../shared/answer-api';
import { VECTORS_FLAG } from './features';
import { logisticScore, passageScore, type EvaluatorVariant, type FittedModel } from './fitted';
import type { Passage } from './passages';

export interface RetrievalEvaluator {
  /** P(relevant) per passage from its features. */
  scorePassages(features: Array<Record<string, number>>): number[];
  /** Per passage, the score the query decision reads (the query model's, else the passage's). */
  queryScores(features: Array<Record<string, number>>): number[];
  /**
   * The query score and decision from `queryScores` (in rank order), by `variant`'s top-N and
   * thresholds (the main fit's when not given; `variantFor` picks the one for given features).
   */
  decide(
    scores: number[],
    variant?: EvaluatorVariant,
    features?: Array<Record<string, number>>,
  ): { decision: CragDecision; queryScore: number };
  /** Everything for the answer's metadata. `llm`: optional grades (0..1 or null) to blend. */
  evaluate(
    passages: Passage[],
    features: Array<Record<string, number>>,
    llm?: { grades: Array<number | null>; weight: number },
  ): EvaluatorResult;
}

/**
 * The fit's variant for these features: `noVectors` when the retrieval had no vectors (every
 * passage flags `vectors` 0) and the fit has one, else the main models.
 */
export function variantFor(
  fitted: FittedModel,
  features: Array<Record<string, number>>,
): EvaluatorVariant {
  const vectorless = features.length > 0 && features.every((f) => f[VECTORS_FLAG] === 0);
  return vectorless && fitted.noVectors ? fitted.noVectors : fitted;
}

/**
 * Whether the deciding passage (the best of `top`) agrees with the question in meaning or in
 * words (`correctMinCos` / `correctMinCovW`): true without floors, features or a cosine feature.
 */
export function passageAgrees(
  t: EvaluatorVariant['thresholds'],
  top: number[],
  features: Array<Record<string, number>> | undefined,
): boolean {
  if (t.correctMinCos === undefined || !features || top.length === 0) return true;
  const f = features[top.indexOf(Math.max(...top))];
  if (f?.cos === undefined) return true;
  return f.cos >= t.correctMinCos || (f.covW ?? 0) >= (t.correctMinCovW ?? Infinity);
}

export function createRetrievalEvaluator(fitted: FittedModel): RetrievalEvaluator {
  const scorePassages = (features: Array<Record<string, number>>) => {
    const v = variantFor(fitted, features);
    return features.map((f) => passageScore(v, f));
  };
  const queryScores = (features: Array<Record<string, number>>) => {
    const v = variantFor(fitted, features);
    return v.query ? features.map((f) => logisticScore(v.query!, f)) : scorePassages(features);
  };
  /**
   * `variant`: whose top-N and thresholds (the main fit's when not given). `features` (rank
   * order): given, a CORRECT whose deciding passage is under both floors becomes AMBIGUOUS.
   */
  const decide = (
    scores: number[],
    variant: EvaluatorVariant = fitted,
    features?: Array<Record<string, number>>,
  ) => {
    const t = variant.thresholds;
    const top = scores.slice(0, variant.queryTopN);
    const queryScore = Math.max(0, ...top);
    let decision: CragDecision =
      queryScore >= t.upper ? 'CORRECT' : queryScore < t.lower ? 'INCORRECT' : 'AMBIGUOUS';
    if (decision === 'CORRECT' && !passageAgrees(t, top, features)) decision = 'AMBIGUOUS';
    return { decision, queryScore };
  };
  return {
    scorePassages,
    queryScores,
    decide,
    evaluate(passages, features, llm) {
      const variant = variantFor(fitted, features);
      const scores = scorePassages(features);
      const blend = (v: number[]) =>
        v.map((s, i) => {
          const g = llm?.grades[i];
          return g === null || g === undefined ? s : (1 - llm!.weight) * s + llm!.weight * g;
        });
      const finals = blend(scores);
      const out: PassageScore[] = passages.map((p, i) => ({
        documentId: p.documentId,
        chunkId: p.hits[0]!.chunkId,
        path: p.path,
        title: p.title,
        rank: p.rank,
        score: scores[i]!,
        ...(llm?.grades[i] != null ? { llmScore: llm.grades[i] } : {}),
        finalScore: finals[i]!,
        components: features[i]!,
      }));
      const { decision, queryScore } = decide(
        variant.query ? blend(queryScores(features)) : finals,
        variant,
        features,
      );
      return {
        decision,
        queryScore,
        passages: out,
        thresholds: variant.thresholds,
        fittedModel: `${fitted.modelId} (${fitted.date || 'unfitted'})`,
      };
    },
  };
}
