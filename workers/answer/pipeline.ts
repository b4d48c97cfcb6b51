// One evaluation of a retrieval: passages, their features and the evaluator's verdict. Shared by
// the service (first and corrective retrievals) and the eval task, so both measure the same code.
import type { EvaluatorResult } from '../shared/answer-api';
import { passageFeatures, queryContext, type QueryContext } from './features';
import { createRetrievalEvaluator } from './evaluator';
import type { FittedModel } from './fitted';
import { buildPassages, type Passage } from './passages';
import type { AnswerDeps, Retrieval } from './types';

export interface EvaluatedRetrieval {
  passages: Passage[];
  features: Array<Record<string, number>>;
  query: QueryContext;
  result: EvaluatorResult;
}

export async function evaluateRetrieval(
  question: string,
  retrieval: Retrieval,
  deps: Pick<AnswerDeps, 'document' | 'chunkVectors' | 'lexicalStats'>,
  fitted: FittedModel,
  llm?: { grades: Array<number | null>; weight: number },
): Promise<EvaluatedRetrieval> {
  const passages = await buildPassages(retrieval.chunks, (id) => deps.document(id));
  const [vectors, query] = await Promise.all([
    retrieval.queryVector
      ? deps.chunkVectors(passages.flatMap((p) => p.chunkIds))
      : Promise.resolve(new Map<number, Int16Array>()),
    queryContext(question, deps.lexicalStats, retrieval.queryVector),
  ]);
  const features = passageFeatures(query, passages, vectors, question);
  const result = createRetrievalEvaluator(fitted).evaluate(passages, features, llm);
  return { passages, features, query, result };
}
