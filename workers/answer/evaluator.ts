// CRAG-001, LLM-free tier: a fitted model over the passage features (logistic plus boosted
// trees) gives P(relevant) per passage; the query score is the best of the first few passages
// (under the query model when the fit chose one) and the fitted thresholds decide CORRECT /
// AMBIGUOUS / INCORRECT. An LLM grade, when given, is blended in (h16b's tier).
import type { CragDecision, EvaluatorResult, PassageScore } from '../shared/answer-api';
import { logisticScore, type FittedModel } from './fitted';
import type { Passage } from './passages';

export interface RetrievalEvaluator {
  /** P(relevant) per passage from its features. */
  scorePassages(features: Array<Record<string, number>>): number[];
  /** Per passage, the score the query decision reads (the query model's, else the passage's). */
  queryScores(features: Array<Record<string, number>>): number[];
  /** The query score and decision from `queryScores` (in rank order). */
  decide(scores: number[]): { decision: CragDecision; queryScore: number };
  /** Everything for the answer's metadata. `llm`: optional grades (0..1 or null) to blend. */
  evaluate(
    passages: Passage[],
    features: Array<Record<string, number>>,
    llm?: { grades: Array<number | null>; weight: number },
  ): EvaluatorResult;
}

export function createRetrievalEvaluator(fitted: FittedModel): RetrievalEvaluator {
  const t = fitted.thresholds;
  const scorePassages = (features: Array<Record<string, number>>) =>
    features.map((f) => logisticScore(fitted.passage, f));
  const queryScores = (features: Array<Record<string, number>>) =>
    fitted.query ? features.map((f) => logisticScore(fitted.query!, f)) : scorePassages(features);
  const decide = (scores: number[]) => {
    const queryScore = Math.max(0, ...scores.slice(0, fitted.queryTopN));
    const decision: CragDecision =
      queryScore >= t.upper ? 'CORRECT' : queryScore < t.lower ? 'INCORRECT' : 'AMBIGUOUS';
    return { decision, queryScore };
  };
  return {
    scorePassages,
    queryScores,
    decide,
    evaluate(passages, features, llm) {
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
      const { decision, queryScore } = decide(fitted.query ? blend(queryScores(features)) : finals);
      return {
        decision,
        queryScore,
        passages: out,
        thresholds: t,
        fittedModel: `${fitted.modelId} (${fitted.date || 'unfitted'})`,
      };
    },
  };
}
