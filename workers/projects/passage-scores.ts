// The answer evaluator's passage score for a claim's documents: the claim goes through the answer
// pipeline's first retrieval (the fused lists with each retriever's signals) and its fitted
// evaluator (workers/answer/evaluator.ts, CRAG: P(the document is relevant) from keyword
// coverage, cosines and ranks), and each document gets its passage's score. The claim check passes
// it to the evidence gate as part of a source's retrieval context. The library parts are injected.
import type { FittedModel } from '../answer/fitted';
import { evaluateRetrieval } from '../answer/pipeline';
import type { AnswerDeps } from '../answer/types';
import type { SearchFilters } from '../shared/types';

/** Chunks of the fused list the evaluator reads (the answer service's first retrieval). */
export const SCORED_CHUNKS = 40;

export type PassageScoreDeps = Pick<
  AnswerDeps,
  'retrieve' | 'document' | 'chunkVectors' | 'lexicalStats'
>;

/** P(relevant) per document id for a claim (documents past the evaluator's top 10: absent). */
export type PassageScores = (
  claim: string,
  filters?: SearchFilters,
) => Promise<Map<number, number>>;

export function createPassageScores(deps: PassageScoreDeps, fitted: FittedModel): PassageScores {
  return async (claim, filters) => {
    const retrieval = await deps.retrieve({
      query: claim,
      limit: SCORED_CHUNKS,
      ...(filters ? { filters } : {}),
    });
    const evaluated = await evaluateRetrieval(claim, retrieval, deps, fitted);
    return new Map(evaluated.result.passages.map((p) => [p.documentId, p.score]));
  };
}
