// The research service a worker exposes as ResearchApi: one query planner over injected
// search/embed/LLM, cancellable by request id (AbortSignal does not cross Comlink), with the LLM
// dependency swappable when the user changes backend. Imports only workers/shared and ./.
import { createError } from '../shared/errors';
import type { PlanOptions, PlannedSearch, ResearchApi } from '../shared/research-api';
import type { SearchHit } from '../shared/types';
import { createQueryPlanner, type PlannerDeps } from './planner';
import type { LlmDep } from './types';

export type ResearchHit = SearchHit & { id: string };

export interface ResearchService extends ResearchApi {
  /** Replace the generator (e.g. after the user loads a model); null = LLM-free fallbacks. */
  setLlm(llm: LlmDep | null): void;
}

export function createResearchService(
  deps: Omit<PlannerDeps<ResearchHit>, 'llm'> & { llm?: LlmDep | null },
): ResearchService {
  let llm = deps.llm ?? null;
  let planner = createQueryPlanner({ ...deps, llm });
  const inflight = new Map<string, AbortController>();
  let counter = 0;
  return {
    setLlm(next) {
      llm = next;
      // A new planner: HyDE's cache must not serve documents from the previous model.
      planner = createQueryPlanner({ ...deps, llm });
    },
    async planQuery(
      query: string,
      options?: PlanOptions,
      requestId?: string,
    ): Promise<PlannedSearch> {
      const id = requestId ?? `plan-${++counter}`;
      if (inflight.has(id))
        throw createError('INVALID_ARGUMENT', { reason: `Request id ${id} is already running.` });
      const ctrl = new AbortController();
      inflight.set(id, ctrl);
      try {
        return await planner.plan(query, options ?? {}, ctrl.signal);
      } finally {
        inflight.delete(id);
      }
    },
    async cancel(requestId: string) {
      inflight.get(requestId)?.abort();
    },
  };
}
