// Hybrid retrieval (CFS-012 sections 4-10): lexical (BM25) and semantic (HNSW over canonical
// int16 vectors) lists, fused by RRF (k = 60) or an alternative, filtered before retrieval, with
// deterministic ordering and a query cache invalidated by library writes.
// Owns mode dispatch and fusion wiring; ranking, vectors and snippets come from injected parts.
import { createError } from '../shared/errors';
import { fusionForModel } from './model-fusion';
import type {
  SearchFilters,
  SearchHit,
  SearchMode,
  SearchRequest,
  SearchResponse,
} from '../shared/types';
import type { AllowedFilter, VectorHit } from '../vector';
import { createQueryCache, type QueryCache } from './query-cache';
import { fuseHybrid, type FusedCandidate, type FusionMethod, type RankedCandidate } from './rrf';

/** A chunk some retriever ranked, with the ranks the UI shows ("found by"). */
export interface RankedChunk {
  chunkId: number;
  score: number;
  ranks: SearchHit['ranks'];
}

export interface HybridDeps {
  /** BM25 over FTS5 with the filters applied inside the query. */
  lexical: {
    search(request: SearchRequest): Promise<SearchResponse>;
    rankChunks(
      query: string,
      options: { filters?: SearchFilters; limit: number },
    ): Promise<Array<{ chunkId: number; path: string; seq: number; score: number }>>;
  };
  /** The semantic side, or null while no model is available. */
  semantic: {
    embedQuery(text: string): Promise<Int16Array>;
    search(query: Int16Array, k: number, filter?: AllowedFilter): VectorHit[] | null;
    /** The embedding model of the vectors: picks the fusion (see model-fusion.ts). */
    modelId?: string;
  } | null;
  /** Chunk ids allowed by the filters (null: no filter); computed in SQL before retrieval. */
  allowedChunkIds(filters: SearchFilters): Promise<Set<number> | null>;
  /** path and seq of chunks, for deterministic tie-breaks. */
  chunkKeys(chunkIds: number[]): Promise<Map<number, { path: string; seq: number }>>;
  /** Full hits (title, snippet with query terms highlighted) in the given order. */
  buildHits(query: string, ranked: RankedChunk[]): Promise<SearchHit[]>;
  /** Library version: any write invalidates the cache. */
  version(): number;
  now?: () => number;
  cache?: QueryCache<SearchResponse>;
}

export interface HybridOptions {
  /** CFS-012 defaults: semantic k = 20, lexical k = 20, final top_k = 10. */
  semanticK?: number;
  lexicalK?: number;
  topK?: number;
  fusion?: FusionMethod;
}

export interface HybridSearch {
  /** @throws AppError INVALID_ARGUMENT for bad filters; embedding errors in semantic mode */
  search(request: SearchRequest): Promise<SearchResponse>;
  /** Whether semantic and hybrid modes can answer now. */
  semanticAvailable(): boolean;
  /**
   * One retrieval of a query plan: like `search`, but the semantic side may use a given vector
   * (HyDE) and the lexical side a given text (RM3, WordNet). Not cached.
   */
  retrieve(request: SearchRequest, override: RetrievalOverride): Promise<SearchResponse>;
  /**
   * The fused list before hits are built, with each retriever's own score and rank per chunk and
   * the query vector used (null: lexical only, no model yet). For the answer pipeline's
   * retrieval evaluator, which reads those signals. Not cached.
   */
  fusedLists(request: SearchRequest, override?: RetrievalOverride): Promise<FusedLists>;
  clearCache(): void;
}

export interface FusedLists {
  fused: Array<FusedCandidate<RankedCandidate>>;
  queryVector: Int16Array | null;
}

export interface RetrievalOverride {
  /** Replaces the query embedding on the semantic side. */
  vector?: Int16Array;
  /** Replaces the query text on the lexical side. */
  lexicalQuery?: string;
}

export function createHybridSearch(deps: HybridDeps, options: HybridOptions = {}): HybridSearch {
  const semanticK = options.semanticK ?? 20;
  const lexicalK = options.lexicalK ?? 20;
  // Without an explicit choice the fusion follows the model (model-fusion.ts): adaptive for the
  // shipped USE-lite (plain RRF lost 0.118 nDCG@10 on SciFact test, adaptive 0.007), plain RRF
  // for BERT-family models (all-MiniLM-L6-v2 test: RRF 0.7163, adaptive 0.7005); both chosen on
  // the train split only (bench/README.md).
  const fusionFor = () => options.fusion ?? fusionForModel(deps.semantic?.modelId);
  const now = deps.now ?? (() => performance.now());
  const cache = deps.cache ?? createQueryCache<SearchResponse>();

  async function semanticList(
    query: string,
    filters: SearchFilters | undefined,
    k: number,
    queryVector?: Int16Array,
  ) {
    if (!deps.semantic) {
      throw createError('MODEL_LOAD_FAILED', {
        reason: 'Semantic search is not ready yet (the embedding model is still loading).',
      });
    }
    const allowed = filters ? await deps.allowedChunkIds(filters) : null;
    const vector = queryVector ?? (await deps.semantic.embedQuery(query));
    const hits = deps.semantic.search(vector, k, allowed ?? undefined) ?? [];
    const keys = await deps.chunkKeys(hits.map((h) => h.id));
    return hits
      .filter((h) => keys.has(h.id)) // a chunk deleted since the index last synced
      .map((h) => ({ chunkId: h.id, score: h.cosine, ...keys.get(h.id)! }))
      .sort(
        (a, b) =>
          b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0) || a.seq - b.seq,
      );
  }

  async function fuse(
    query: string,
    filters: SearchFilters | undefined,
    override: RetrievalOverride,
  ): Promise<FusedLists> {
    const lexicalSide = deps.lexical.rankChunks(override.lexicalQuery ?? query, {
      ...(filters ? { filters } : {}),
      limit: lexicalK,
    });
    if (!deps.semantic) {
      // One list: RRF keeps its order and records its ranks and scores.
      const lexical = await lexicalSide;
      const only = fuseHybrid<RankedCandidate>([], lexical, { kind: 'rrf' });
      return { fused: only.items, queryVector: null };
    }
    const [vector, lexical] = await Promise.all([
      override.vector ?? deps.semantic.embedQuery(query),
      lexicalSide,
    ]);
    const semantic = await semanticList(query, filters, semanticK, vector);
    const fused = fuseHybrid<RankedCandidate>(semantic, lexical, fusionFor()).items;
    return { fused, queryVector: vector };
  }

  async function run(
    request: SearchRequest,
    mode: SearchMode,
    override: RetrievalOverride = {},
  ): Promise<SearchResponse> {
    const started = now();
    const topK = request.limit ?? options.topK ?? 10;
    // Without a loaded model (first start, or no WASM), every mode answers lexically and says so.
    if (mode === 'lexical' || !deps.semantic) {
      const text = override.lexicalQuery ?? request.query;
      return deps.lexical.search({ ...request, query: text, limit: topK });
    }
    const query = request.query.trim();
    if (!query) return { hits: [], mode, tookMs: 0, terms: [] };
    let ranked: RankedChunk[];
    if (mode === 'semantic') {
      const list = await semanticList(
        query,
        request.filters,
        Math.max(topK, semanticK),
        override.vector,
      );
      ranked = list.slice(0, topK).map((c, i) => ({
        chunkId: c.chunkId,
        score: Math.max(0, Math.min(1, c.score)),
        ranks: { semantic: i + 1 },
      }));
    } else {
      const fused = (await fuse(query, request.filters, override)).fused.slice(0, topK);
      const best = fused[0]?.score ?? 1;
      ranked = fused.map((f) => ({
        chunkId: f.chunkId,
        // Normalised to 0..1 against the best fused score, as the UI shows scores in 0..1.
        score: best > 0 ? f.score / best : 0,
        ranks: {
          ...(f.ranks.lexical ? { lexical: f.ranks.lexical } : {}),
          ...(f.ranks.semantic ? { semantic: f.ranks.semantic } : {}),
        },
      }));
    }
    const hits = await deps.buildHits(query, ranked);
    return { hits, mode, tookMs: now() - started, terms: query.split(/\s+/).filter(Boolean) };
  }

  return {
    async search(request) {
      const mode: SearchMode = request.mode ?? (deps.semantic ? 'hybrid' : 'lexical');
      const key = JSON.stringify([
        mode,
        request.query,
        request.filters ?? null,
        request.limit ?? null,
      ]);
      const version = deps.version();
      const cached = cache.get(key, version);
      if (cached) return { ...cached, tookMs: 0 };
      const response = await run(request, mode);
      cache.set(key, version, response);
      return response;
    },
    semanticAvailable: () => deps.semantic !== null,
    retrieve: (request, override) =>
      run(request, request.mode ?? (deps.semantic ? 'hybrid' : 'lexical'), override),
    fusedLists: (request, override = {}) => fuse(request.query.trim(), request.filters, override),
    clearCache: () => cache.clear(),
  };
}
