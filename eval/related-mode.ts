// The `related` eval mode: "find related" (More like this) as the app runs it — the query text is
// the passage (`{ kind: 'text' }`: lexically with all its terms, semantically embedded), through
// workers/search/related.ts over the app's createHybridSearch on the hybrid mode's store and HNSW.
// Documents score by their best chunk. Options: those of `hybrid` (--model, --ef, --index hnsw).
import { createRelatedSearch } from '../workers/search/related';
import { createHybridCore, hybridSettings } from './hybrid-mode';
import type { RankedDoc, Retriever, RetrieverFactory } from './retriever';

/** Chunks ranked per passage before aggregating to documents (the eval's run depth is 100). */
const CHUNK_DEPTH = 200;

export const createRelatedRetriever: RetrieverFactory = async (options) => {
  const core = await createHybridCore(options);
  const { method, lexicalK, semanticK } = hybridSettings(options);
  let related: ReturnType<typeof createRelatedSearch> | null = null;
  const retriever: Retriever = {
    async index(docs, onProgress) {
      const report = await core.index(docs, onProgress);
      const { store } = core.parts();
      const { hybrid, lookup } = core.appSearch({
        fusion: method,
        lexicalK: Math.max(lexicalK, CHUNK_DEPTH),
        semanticK: Math.max(semanticK, CHUNK_DEPTH),
      });
      related = createRelatedSearch({
        hybrid,
        getDocument: (id) => store.getDocument(id),
        documentOfChunk: (id) => lookup.documentOfChunk(id),
      });
      return report;
    },
    async search(query, k): Promise<RankedDoc[]> {
      if (!related) throw new Error('index() first');
      const { hits } = await related.find({
        source: { kind: 'text', text: query },
        limit: CHUNK_DEPTH,
      });
      const best = new Map<string, number>();
      for (const h of hits) if (!best.has(h.path)) best.set(h.path, h.score);
      return [...best].slice(0, k).map(([docId, score]) => ({ docId, score }));
    },
    close: () => core.close(),
  };
  return retriever;
};
