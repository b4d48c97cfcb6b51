// CRAG-002/006 corrective actions, LLM-free part: RM3 / WordNet expansion for a second
// retrieval, or the evaluator's reordering of the passages (only the technique train showed a
// gain for; fitted.corrective), and the web hook for INCORRECT / AMBIGUOUS queries when a
// provider is enabled. Each action is a recorded value.
import type { CorrectiveAction, Strip } from '../shared/answer-api';
import { createRm3 } from '../query-plan/rm3';
import type { LexicalTopKFn } from '../query-plan/types';
import { expandWithSynonyms, type SynonymIndex } from '../query-plan/wordnet';
import type { CorrectiveTechnique, FittedModel } from './fitted';
import type { EvaluatedRetrieval } from './pipeline';
import type { ExpandFn, WebSearchFn } from './types';

/**
 * The fitted gate of the LLM-free corrective retrieval (the service and the eval apply this one
 * rule): the expanded retrieval replaces the first only when its query score rises by more than
 * `minGain` and reaches `minScore`. Expansion loses nDCG on average (RM3 and WordNet lose 0.6-1.3
 * points on every query), so the gate keeps it to the cases train showed it helps.
 */
export function correctiveSwitch(
  rule: FittedModel['corrective'],
  firstScore: number,
  secondScore: number,
): boolean {
  if (rule.technique === 'none' || rule.technique === 'rerank') return false;
  return secondScore > firstScore + (rule.minGain ?? 0) && secondScore >= (rule.minScore ?? 0);
}

/** The expansion for a technique, from research's RM3 (lexical feedback) or WordNet synonyms. */
export function createExpansion(
  technique: CorrectiveTechnique,
  deps: { lexicalTopK?: LexicalTopKFn; synonyms?: () => Promise<SynonymIndex> },
): ExpandFn | undefined {
  if (technique === 'rm3' && deps.lexicalTopK) {
    const rm3 = createRm3({ lexicalTopK: deps.lexicalTopK });
    return async (query) => {
      const e = await rm3.expand(query);
      return e.added.length ? { lexicalQuery: e.weightedQuery, technique: 'rm3' } : null;
    };
  }
  if (technique === 'wordnet' && deps.synonyms) {
    const load = deps.synonyms;
    return async (query) => {
      const e = expandWithSynonyms(query, await load());
      return e.added.length ? { lexicalQuery: e.expandedQuery, technique: 'wordnet' } : null;
    };
  }
  return undefined;
}

/**
 * The 'rerank' correction: the same passages, best passage score first (ties keep the retrieval
 * order). Each passage keeps its retrieval rank, features and scores; only the order changes.
 * The passage model ranks better than the fused rank (out-of-fold train AUROC 0.95 against 0.90
 * for rank and score alone), and on INCORRECT queries the relevant document, when retrieved at
 * all, is usually not first.
 */
export function rerankByScore(ev: EvaluatedRetrieval): EvaluatedRetrieval {
  const order = ev.result.passages
    .map((p, i) => ({ s: p.finalScore, i }))
    .sort((a, b) => b.s - a.s || a.i - b.i)
    .map((o) => o.i);
  return {
    ...ev,
    passages: order.map((i) => ev.passages[i]!),
    features: order.map((i) => ev.features[i]!),
    result: { ...ev.result, passages: order.map((i) => ev.result.passages[i]!) },
  };
}

/** Runs the web hook; a failure is a recorded action and an empty result, never a throw. */
export async function webAction(
  web: WebSearchFn | undefined,
  query: string,
  why: string,
  now: () => number,
  signal?: AbortSignal,
): Promise<{ action: CorrectiveAction; strips: Strip[] }> {
  if (!web)
    return {
      action: {
        kind: 'web',
        status: 'skipped',
        note: 'no web provider enabled',
        applied: false,
        ms: 0,
      },
      strips: [],
    };
  const t0 = now();
  try {
    const { strips, failures, shaped } = await web(query, signal);
    const partial = failures.length
      ? `; partial: ${failures.map((f) => `${f.provider} failed (${f.code})`).join(', ')}, the results that arrived are kept`
      : '';
    return {
      action: {
        kind: 'web',
        status: 'ok',
        note: `${why}${shaped ? ` (${shaped})` : ''}${partial}`,
        ...(failures.length ? { errorCode: failures.map((f) => f.code).join(',') } : {}),
        query,
        results: strips.length,
        applied: strips.length > 0,
        ms: now() - t0,
      },
      strips,
    };
  } catch (err) {
    const code = (err as { code?: string }).code ?? 'PROVIDER_ERROR';
    return {
      action: {
        kind: 'web',
        status: 'failed',
        note: 'web search failed: the library answer stands',
        query,
        applied: false,
        ms: now() - t0,
        errorCode: code,
      },
      strips: [],
    };
  }
}
