// The `semantic` eval mode: the app's semantic search (workers/search/hybrid.ts, mode
// 'semantic', as the library service runs it) over the hybrid mode's store and canonical int16
// vectors (eval/hybrid-mode.ts: same chunks, same embedding cache), on the exact index by
// default. Documents score by their best chunk (workers/search/document-evidence.ts).
// Options: --model use-lite | all-MiniLM-L6-v2 | <sentence-transformers folder> (default use-lite)
//          --threads N (embedding worker threads for cache misses, default 1)
//          --index exact | hnsw (default exact: every chunk is scored, as a brute-force search)
import { BEST_CHUNK_ONLY, groupByDocument } from '../workers/search/document-evidence';
import type { HybridSearch } from '../workers/search/hybrid';
import type { ChunkLookup } from '../workers/store/chunk-lookup';
import { createHybridCore } from './hybrid-mode';
import type { RankedDoc, Retriever, RetrieverFactory } from './retriever';

export const createSemanticRetriever: RetrieverFactory = async (options) => {
  const index = options.index ?? 'exact';
  if (index !== 'exact' && index !== 'hnsw') throw new Error('--index must be exact or hnsw');
  const core = await createHybridCore({ ...options, index });
  let app: { hybrid: HybridSearch; lookup: ChunkLookup } | null = null;
  let chunks = 0;

  const retriever: Retriever = {
    async index(docs, onProgress) {
      const report = await core.index(docs, onProgress);
      app = core.appSearch({ exact: index === 'exact' });
      chunks = report.chunks;
      return report;
    },
    /**
     * The top `k` documents: the app's semantic chunk list, read deeper until it holds `k`
     * documents (or every chunk), grouped by document. A document's best chunk is in the list
     * whenever the document is in the top `k`, so this equals scoring every document.
     */
    async search(query, k): Promise<RankedDoc[]> {
      if (!app) throw new Error('index() first');
      for (let depth = Math.min(k * 4, chunks); ; depth = Math.min(depth * 2, chunks)) {
        const ranked = await app.hybrid.rank({ query, mode: 'semantic', limit: depth });
        const keys = await app.lookup.chunkKeys(ranked.map((r) => r.chunkId));
        const docs = groupByDocument(
          ranked.map((r) => ({ chunkId: r.chunkId, score: r.score, ...keys.get(r.chunkId)! })),
          BEST_CHUNK_ONLY,
        );
        if (docs.length >= k || depth >= chunks)
          return docs.slice(0, k).map((d) => ({ docId: d.path, score: d.score }));
      }
    },
    close: () => core.close(),
  };
  return retriever;
};
