// The research service a worker exposes as ResearchApi: one query planner over injected
// search/embed/LLM, cancellable by request id (AbortSignal does not cross Comlink), with the LLM
// dependency swappable when the user changes backend. Retrievals rank only; full hits (snippets)
// are built once, for the fused list (`present`).
import { createError } from '../shared/errors';
import type { PlanOptions, PlannedSearch, ResearchApi } from '../shared/research-api';
import type { SearchQuery } from '../shared/search-contract';
import type { SearchHit } from '../shared/types';
import { createQueryPlanner, type PlannerDeps } from './planner';
import type { LlmDep, RankedHit } from './types';

export type ResearchHit = SearchHit & { id: string };

export interface ResearchService extends ResearchApi {
  /** Replace the generator (e.g. after the user loads a model); null = LLM-free fallbacks. */
  setLlm(llm: LlmDep | null): void;
}

export type ResearchServiceDeps<H extends RankedHit> = Omit<PlannerDeps<H>, 'llm'> & {
  llm?: LlmDep | null;
  /** Full hits for the plan's fused list, in order (`query` = the user's query). */
  present(query: string, hits: H[]): Promise<ResearchHit[]>;
};

export function createResearchService<H extends RankedHit>(
  deps: ResearchServiceDeps<H>,
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
      request: SearchQuery,
      options?: PlanOptions,
      requestId?: string,
    ): Promise<PlannedSearch> {
      const id = requestId ?? `plan-${++counter}`;
      if (inflight.has(id))
        throw createError('INVALID_ARGUMENT', { reason: `Request id ${id} is already running.` });
      const ctrl = new AbortController();
      inflight.set(id, ctrl);
      try {
        const { plan, hits } = await planner.plan(request, options ?? {}, ctrl.signal);
        return { plan, hits: await deps.present(plan.query, hits) };
      } finally {
        inflight.delete(id);
      }
    },
    async cancel(requestId: string) {
      inflight.get(requestId)?.abort();
    },
  };
}
