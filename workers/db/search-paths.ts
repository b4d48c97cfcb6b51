// Every search path of the library over one hybrid search, so all of them honour the same
// `{ query, mode, filters }` (issue 15): the query planner's retrievals (rank only, one batched
// query embedding, hits built once for the fused list), RM3's scoped first pass, and "find
// related".
import { createError } from '../shared/errors';
import type { SearchHit } from '../shared/types';
import type { ChunkLookup } from '../store/chunk-lookup';
import type { LexicalSearch } from '../store/lexical-search';
import type { Store } from '../store/store';
import type { HybridSearch } from '../search/hybrid';
import { createRelatedSearch } from '../search/related';
import type { ResearchHit, ResearchServiceDeps } from '../query-plan/service';
import type { RankedHit } from '../query-plan/types';

/** A plan's retrieval result: ranked, no snippet yet. */
export type PlanHit = RankedHit & { chunkId: number; ranks: SearchHit['ranks'] };

export interface SearchPathsDeps {
  hybrid: HybridSearch;
  lexical: Pick<LexicalSearch, 'rankChunks'>;
  lookup: Pick<ChunkLookup, 'chunkTexts' | 'documentOfChunk'>;
  store: Pick<Store, 'getDocument'>;
}

/** The planner's search, embedding, feedback and presentation over the hybrid search. */
export function planSearchDeps(
  deps: SearchPathsDeps,
): Required<
  Pick<ResearchServiceDeps<PlanHit>, 'search' | 'present' | 'embedQueries' | 'lexicalTopK'>
> {
  return {
    search: async (request) => {
      const { text, vector, pendingVector, lexicalQuery, mode, filters, limit, signal } = request;
      // A cancelled plan's batch resolves null: stop rather than embed each query here.
      const pending = pendingVector?.then((v) => {
        if (!v && signal?.aborted) throw createError('ABORTED');
        return v;
      });
      pending?.catch(() => undefined); // a lexical-only ranking never awaits it
      const ranked = await deps.hybrid.rank(
        {
          query: text,
          limit,
          ...(request.documents !== undefined ? { documents: request.documents } : {}),
          ...(mode ? { mode } : {}),
          ...(filters ? { filters } : {}),
        },
        {
          ...(vector ? { vector } : {}),
          ...(pending ? { pendingVector: pending } : {}),
          ...(lexicalQuery ? { lexicalQuery } : {}),
        },
      );
      return ranked.map(({ path, ...r }) => ({
        ...r,
        id: String(r.chunkId),
        ...(path !== undefined ? { group: path } : {}),
      }));
    },
    present: async (query, hits): Promise<ResearchHit[]> =>
      (await deps.hybrid.present(query, hits)).map((h) => ({ ...h, id: String(h.chunkId) })),
    embedQueries: (texts) =>
      deps.hybrid.embedQueries(texts) ??
      Promise.reject(new Error('The embedding model is not loaded yet.')),
    lexicalTopK: async (query, k, _signal, filters) => {
      const ranked = await deps.lexical.rankChunks(query, {
        limit: k,
        ...(filters ? { filters } : {}),
      });
      const texts = await deps.lookup.chunkTexts(ranked.map((r) => r.chunkId));
      return ranked.map((r) => ({
        id: String(r.chunkId),
        text: texts.get(r.chunkId) ?? '',
        score: r.score,
      }));
    },
  };
}

/** "Find related" over the same hybrid search. */
export function relatedSearch(deps: SearchPathsDeps) {
  return createRelatedSearch({
    hybrid: deps.hybrid,
    getDocument: (id) => deps.store.getDocument(id),
    documentOfChunk: (id) => deps.lookup.documentOfChunk(id),
  });
}
