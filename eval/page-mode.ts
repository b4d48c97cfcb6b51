// The `page` eval mode: the results page as the app shows it — createHybridSearch.search with
// `documents` (one entry per document, read deeper until the page is full) over the hybrid
// mode's store and HNSW — scored by its documents in entry order. Confirms the page ranks
// documents exactly as the `lexical` / `hybrid` modes do (best chunk wins).
// Options: those of `hybrid` (--model, --ef), and --pageMode lexical|semantic|hybrid (hybrid).
import type { HybridSearch } from '../workers/search/hybrid';
import type { SearchMode } from '../workers/shared/types';
import { createHybridCore, hybridSettings } from './hybrid-mode';
import type { RankedDoc, Retriever, RetrieverFactory } from './retriever';

export const createPageRetriever: RetrieverFactory = async (options) => {
  const core = await createHybridCore(options);
  const { method, lexicalK, semanticK } = hybridSettings(options);
  const mode = (options.pageMode ?? 'hybrid') as SearchMode;
  if (!['lexical', 'semantic', 'hybrid'].includes(mode))
    throw new Error('--pageMode must be lexical, semantic or hybrid');
  let hybrid: HybridSearch | null = null;
  const retriever: Retriever = {
    async index(docs, onProgress) {
      const report = await core.index(docs, onProgress);
      hybrid = core.appSearch({ fusion: method, lexicalK, semanticK }).hybrid;
      return report;
    },
    async search(query, k): Promise<RankedDoc[]> {
      if (!hybrid) throw new Error('index() first');
      const { documents = [] } = await hybrid.search({ query, mode, documents: k });
      // Scores only break ties in the metrics: entry order is the ranking.
      return documents.map((d, i) => ({ docId: d.path, score: documents.length - i }));
    },
    close: () => core.close(),
  };
  return retriever;
};
