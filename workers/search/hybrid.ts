// Hybrid retrieval (CFS-012 sections 4-10): lexical (BM25) and semantic (HNSW over canonical
// int16 vectors) lists, fused by RRF (k = 60) or an alternative, filtered before retrieval, with
// deterministic ordering and a query cache invalidated by library writes.
// Owns mode dispatch and fusion wiring (a hybrid query's two lists read once for its search and its
// fused lists); ranking, vectors and snippets come from injected parts.
import { addInOrder, documentResults, MORE_PASSAGES } from '../shared/document-results';
import { createError } from '../shared/errors';
import { compareRanked } from '../shared/ranking';
import { createPromiseMemo } from '../shared/promise-memo';
import { relevanceOf, type Relevance, type RelevanceSignals } from '../shared/relevance';
import { fusionForModel, hybridLexicalDepth } from './model-fusion';
import type {
  QueryNotice,
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
  /** The relevance band of the retrievers' raw scores (workers/shared/relevance.ts). */
  relevance?: Relevance | null;
  /** The document's path: set when ranked as a page of documents (`rank` with `documents`). */
  path?: string;
}

/** A ranked chunk with its document's path (the key of one entry per document). */
type PageItem = RankedChunk & { path: string };

type LexicalChunk = { chunkId: number; path: string; seq: number; score: number };

export interface HybridDeps {
  /** BM25 over FTS5 with the filters applied inside the query. */
  lexical: {
    search(request: SearchRequest): Promise<SearchResponse>;
    /** The ranking and its notice (what a very long query left out). */
    rank(
      query: string,
      options: { filters?: SearchFilters; limit: number },
    ): Promise<{
      chunks: LexicalChunk[];
      notice: QueryNotice | null;
      /** The best BM25 any chunk could reach for the query (the relevance band's scale). */
      maxScore: number;
    }>;
  };
  /** The semantic side, or null while no model is available. */
  semantic: {
    embedQuery(text: string): Promise<Int16Array>;
    search(query: Int16Array, k: number, filter?: AllowedFilter): VectorHit[] | null;
    /** The embedding model of the vectors: picks the fusion (see model-fusion.ts). */
    modelId?: string | undefined;
    /** The model's input window in word pieces: a longer query is cut there (a notice says so). */
    maxTokens?: number | undefined;
    /** Several queries in one embedder call (a plan's variants); default: one call each. */
    embedQueries?(texts: string[]): Promise<Int16Array[]>;
    /** The stored vectors of chunks for the active model (find related); missing = not embedded. */
    storedVectors?(chunkIds: number[]): Promise<Map<number, Int16Array>>;
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
  /**
   * The ranking of `retrieve` without building hits (no snippets): a query plan ranks each of its
   * retrievals this way and builds hits once, for the fused list only (`present`). With
   * `request.documents`: the chunks of that page of documents (read as deep as `search` reads
   * it, at most 1 + MORE_PASSAGES per document, each with its `path`).
   */
  rank(request: SearchRequest, override?: RetrievalOverride): Promise<RankedChunk[]>;
  /** Full hits (title, snippet with `query`'s terms highlighted) for ranked chunks, in order. */
  present(query: string, ranked: RankedChunk[]): Promise<SearchHit[]>;
  /** Query vectors for several texts in one embedder call; null without a model. */
  embedQueries(texts: string[]): Promise<Int16Array[]> | null;
  /** Stored vectors of chunks for the active model; empty without a model. */
  storedVectors(chunkIds: number[]): Promise<Map<number, Int16Array>>;
  clearCache(): void;
}

export interface FusedLists {
  fused: Array<FusedCandidate<RankedCandidate>>;
  queryVector: Int16Array | null;
}

export interface RetrievalOverride {
  /** Replaces the query embedding on the semantic side. */
  vector?: Int16Array;
  /**
   * `rank` only: the query vector still being computed (a plan's embedding batch, in an embed
   * worker). The lexical list is read while it is in flight; null = embed the query here.
   */
  pendingVector?: Promise<Int16Array | null>;
  /** Replaces the query text on the lexical side. */
  lexicalQuery?: string;
  /**
   * Chunks left out of every list (find related: the source document's chunks). Each list is read
   * that much deeper first, so it still holds its full depth of other chunks.
   */
  excludeChunkIds?: ReadonlySet<number>;
}

/**
 * The top `k` by cosine plus every chunk tied with the k-th: the index breaks ties by its own
 * (chunk id) order, and which tied chunks make the cut must follow path and sequence
 * (compareRanked) instead, or a library with other ids ranks differently.
 */
function tiesAtTheCut(
  semantic: NonNullable<HybridDeps['semantic']>,
  vector: Int16Array,
  k: number,
  allowed: AllowedFilter | undefined,
): VectorHit[] {
  for (let want = k; ; want *= 2) {
    const hits = semantic.search(vector, want + 1, allowed) ?? [];
    const kth = hits[k - 1]?.cosine;
    if (hits.length <= want || kth === undefined || hits[want]!.cosine < kth || want > 8192)
      return hits;
  }
}

/**
 * The lexical notice of a query (if any) plus one for the meaning side when the query has more
 * words than the model's window holds word pieces (every word is at least one piece, so it was
 * cut): it is never silent that the model read only the start.
 */
export function withWindowNotice(
  notice: QueryNotice | null,
  query: string,
  maxTokens: number | undefined,
): QueryNotice | null {
  const words = query.match(/[\p{L}\p{N}]+/gu)?.length ?? 0;
  if (maxTokens === undefined || words <= maxTokens) return notice;
  const sentence =
    `Meaning search read only the start of the query (the model reads at most ${maxTokens} ` +
    `word pieces, about ${maxTokens} words or fewer); keyword matching used every word.`;
  return {
    truncatedChars: notice?.truncatedChars ?? 0,
    rankOnlyTerms: notice?.rankOnlyTerms ?? [],
    modelWindowTokens: maxTokens,
    message: notice ? `${notice.message} ${sentence}` : sentence,
  };
}

/**
 * Hybrid list readings kept (their promises, in flight too), per query, filters, model and library
 * version: a claim check's search and its passage scores' fused lists read the claim's lists once.
 */
const READINGS = 4;

/** One reading of a plain hybrid query's two lists (no override), before fusion. */
interface ListReading {
  semantic: LexicalChunk[];
  lexical: { chunks: LexicalChunk[]; notice: QueryNotice | null; maxScore: number };
  vector: Int16Array;
}

/** A page of documents reads each list at most this many times its CFS-012 depth (20 -> 640). */
const MAX_PAGE_DEPTH = 32;
/** Each deeper reading of a page multiplies the depths by this: few re-rankings in the worst case. */
const PAGE_GROWTH = 4;

export function createHybridSearch(deps: HybridDeps, options: HybridOptions = {}): HybridSearch {
  const semanticK = options.semanticK ?? 20;
  const lexicalK = options.lexicalK ?? 20;
  // Without an explicit choice the fusion follows the model (model-fusion.ts, chosen on the train
  // split only): lexical first for the shipped USE-lite, plain RRF for BERT-family models.
  const fusionFor = () => options.fusion ?? fusionForModel(deps.semantic?.modelId);
  // The lexical list's depth inside a fusion follows the model too (USE-lite's lexical-first
  // fusion reads lexical deep enough to fill a page by itself); the lexical mode keeps lexicalK.
  const fusedLexicalK = () =>
    options.lexicalK ?? hybridLexicalDepth(deps.semantic?.modelId, lexicalK);
  const now = deps.now ?? (() => performance.now());
  const cache = deps.cache ?? createQueryCache<SearchResponse>();

  async function semanticList(
    query: string,
    filters: SearchFilters | undefined,
    k: number,
    queryVector?: Int16Array | Promise<Int16Array | null>,
    exclude?: ReadonlySet<number>,
  ) {
    if (!deps.semantic) {
      throw createError('MODEL_LOAD_FAILED', {
        reason: 'Semantic search is not ready yet (the embedding model is still loading).',
      });
    }
    const allowed = filters ? await deps.allowedChunkIds(filters) : null;
    // A pending vector is awaited here, after the caller started the lexical side (rankDense).
    const vector = (await queryVector) ?? (await deps.semantic.embedQuery(query));
    // Read deeper by the excluded count, keeping every chunk tied with the k-th (tiesAtTheCut).
    const want = k + (exclude?.size ?? 0);
    const hits = tiesAtTheCut(deps.semantic, vector, want, allowed ?? undefined);
    const kept = exclude ? hits.filter((h) => !exclude.has(h.id)) : hits;
    const keys = await deps.chunkKeys(kept.map((h) => h.id));
    return kept
      .filter((h) => keys.has(h.id)) // a chunk deleted since the index last synced
      .map((h) => ({ chunkId: h.id, score: h.cosine, ...keys.get(h.id)! }))
      .sort(compareRanked)
      .slice(0, k);
  }

  /** Lexical top `k` chunks, `exclude` left out (read deeper by its size), with the query's notice. */
  async function lexicalList(
    text: string,
    filters: SearchFilters | undefined,
    k: number,
    exclude?: ReadonlySet<number>,
  ): Promise<{ chunks: LexicalChunk[]; notice: QueryNotice | null; maxScore: number }> {
    const { chunks, notice, maxScore } = await deps.lexical.rank(text, {
      ...(filters ? { filters } : {}),
      limit: k + (exclude?.size ?? 0),
    });
    const kept = exclude ? chunks.filter((c) => !exclude.has(c.chunkId)).slice(0, k) : chunks;
    return { chunks: kept, notice, maxScore };
  }

  const readings = createPromiseMemo<string, ListReading>(READINGS);

  /**
   * The semantic (`semanticK`) and lexical (the fusion's depth) lists of a query without override,
   * shared by the calls that read them at the same library version: `search` and `fusedLists` read
   * exactly these lists, and the readers never change them (fusion copies). A failed reading is
   * not kept.
   */
  function plainLists(
    side: NonNullable<HybridDeps['semantic']>,
    query: string,
    filters: SearchFilters | undefined,
  ): Promise<ListReading> {
    const key = JSON.stringify([query, filters ?? null, side.modelId ?? null, deps.version()]);
    return readings(key, async () => {
      const [vector, lexical] = await Promise.all([
        side.embedQuery(query),
        lexicalList(query, filters, fusedLexicalK()),
      ]);
      const semantic = await semanticList(query, filters, semanticK, vector);
      return { semantic, lexical, vector };
    });
  }

  /** No field of the override is set: the query's own lists (`plainLists`). */
  const isPlain = (o: RetrievalOverride) =>
    o.vector === undefined &&
    o.pendingVector === undefined &&
    o.lexicalQuery === undefined &&
    o.excludeChunkIds === undefined;

  /** The band of a chunk's raw scores: BM25 against the query's best, cosine under the model. */
  const rate = (signals: Omit<RelevanceSignals, 'modelId'>) =>
    relevanceOf({ ...signals, modelId: deps.semantic?.modelId });

  /** A fused list as ranked chunks: scores normalised to the best, ranks and bands attached. */
  function fusedRanked(
    fused: ReadonlyArray<FusedCandidate<RankedCandidate>>,
    semantic: readonly LexicalChunk[],
    lexical: { chunks: readonly LexicalChunk[]; maxScore: number },
  ): PageItem[] {
    const best = fused[0]?.score ?? 1;
    const bm25 = new Map(lexical.chunks.map((c) => [c.chunkId, c.score]));
    const cosine = new Map(semantic.map((c) => [c.chunkId, c.score]));
    return fused.map((f) => {
      const score = bm25.get(f.chunkId);
      return {
        chunkId: f.chunkId,
        path: f.path,
        // Normalised to 0..1 against the best fused score.
        score: best > 0 ? f.score / best : 0,
        ranks: {
          ...(f.ranks.lexical ? { lexical: f.ranks.lexical } : {}),
          ...(f.ranks.semantic ? { semantic: f.ranks.semantic } : {}),
        },
        relevance: rate({
          lexical: score !== undefined ? { score, maxScore: lexical.maxScore } : undefined,
          cosine: cosine.get(f.chunkId),
        }),
      };
    });
  }

  /** A hybrid query's two lists under an override (a given or pending vector, text, exclusions). */
  async function overriddenLists(
    query: string,
    filters: SearchFilters | undefined,
    override: RetrievalOverride,
  ) {
    const exclude = override.excludeChunkIds;
    // The semantic side first: it yields at once (the embedder's call, or a pending vector), so
    // the lexical list is read while the query vector is computed elsewhere.
    const [semantic, lexical] = await Promise.all([
      semanticList(query, filters, semanticK, override.vector ?? override.pendingVector, exclude),
      lexicalList(override.lexicalQuery ?? query, filters, fusedLexicalK(), exclude),
    ]);
    return { semantic, lexical };
  }

  /** The ranked chunks of a semantic or hybrid query (no hits built). */
  async function rankDense(
    query: string,
    request: SearchRequest,
    mode: 'semantic' | 'hybrid',
    topK: number,
    override: RetrievalOverride,
  ): Promise<{ ranked: RankedChunk[]; notice: QueryNotice | null }> {
    const exclude = override.excludeChunkIds;
    const vector = override.vector ?? override.pendingVector;
    if (mode === 'semantic') {
      const k = Math.max(topK, semanticK);
      const list = await semanticList(query, request.filters, k, vector, exclude);
      const ranked = list.slice(0, topK).map((c, i) => ({
        chunkId: c.chunkId,
        score: Math.max(0, Math.min(1, c.score)),
        ranks: { semantic: i + 1 },
        relevance: rate({ cosine: c.score }),
      }));
      return { ranked, notice: null };
    }
    // A plain query's lists are the ones `fusedLists` reads: read once for both (plainLists).
    const { semantic, lexical } =
      deps.semantic && isPlain(override)
        ? await plainLists(deps.semantic, query, request.filters)
        : await overriddenLists(query, request.filters, override);
    const fused = fuseHybrid<RankedCandidate>(semantic, lexical.chunks, fusionFor()).items.slice(
      0,
      topK,
    );
    const ranked = fusedRanked(fused, semantic, lexical).map(({ path: _path, ...r }) => r);
    return { ranked, notice: lexical.notice };
  }

  /**
   * One reading of a mode's ranking for a page of documents, each list `depth` times its CFS-012
   * depth (hybrid: depth 1 is exactly the measured fusion of semanticK and lexicalK); `full`:
   * some list came back full, so a deeper reading may find more.
   */
  async function readPage(
    query: string,
    request: SearchRequest,
    mode: SearchMode,
    depth: number,
    override: RetrievalOverride,
  ): Promise<{ ranked: PageItem[]; full: boolean; notice: QueryNotice | null }> {
    const exclude = override.excludeChunkIds;
    const vector = override.vector ?? override.pendingVector;
    const lexicalText = override.lexicalQuery ?? query;
    const [sk, lk] = [semanticK * depth, lexicalK * depth];
    if (mode === 'lexical' || !deps.semantic) {
      const lexical = await lexicalList(lexicalText, request.filters, lk, exclude);
      const best = lexical.chunks[0]?.score ?? 1;
      const ranked = lexical.chunks.map((c, i) => ({
        chunkId: c.chunkId,
        path: c.path,
        score: best > 0 ? c.score / best : 0,
        ranks: { lexical: i + 1 },
        relevance: rate({ lexical: { score: c.score, maxScore: lexical.maxScore } }),
      }));
      return { ranked, full: lexical.chunks.length >= lk, notice: lexical.notice };
    }
    if (mode === 'semantic') {
      const list = await semanticList(query, request.filters, sk, vector, exclude);
      const ranked = list.map((c, i) => ({
        chunkId: c.chunkId,
        path: c.path,
        score: Math.max(0, Math.min(1, c.score)),
        ranks: { semantic: i + 1 },
        relevance: rate({ cosine: c.score }),
      }));
      return { ranked, full: list.length >= sk, notice: null };
    }
    const flk = fusedLexicalK() * depth;
    const [semantic, lexical] = await Promise.all([
      semanticList(query, request.filters, sk, vector, exclude),
      lexicalList(lexicalText, request.filters, flk, exclude),
    ]);
    const fused = fuseHybrid<RankedCandidate>(semantic, lexical.chunks, fusionFor()).items;
    return {
      ranked: fusedRanked(fused, semantic, lexical),
      full: semantic.length >= sk || lexical.chunks.length >= flk,
      notice: lexical.notice,
    };
  }

  /**
   * A page of `request.documents` documents, one entry each with its next best passages: the
   * ranking is read deeper until it covers that many documents. Documents keep the order of the
   * first reading they appear in, so a deeper reading only appends (and a hybrid page's top is
   * exactly the measured fusion, its first reading). A lexical or semantic order does not depend
   * on depth, so those start deep enough for `want` documents of 1 + MORE_PASSAGES chunks.
   */
  async function page(
    request: SearchRequest,
    mode: SearchMode,
    override: RetrievalOverride,
  ): Promise<SearchResponse> {
    const started = now();
    const shown: SearchMode = deps.semantic ? mode : 'lexical';
    const query = request.query.trim();
    if (!query) return { hits: [], documents: [], mode: shown, tookMs: 0, terms: [] };
    const { ranked, notice } = await pageChunks(query, request, mode, override);
    const chunks = ranked.map(({ path: _path, ...r }) => r);
    const documents = documentResults(await deps.buildHits(query, chunks));
    return {
      hits: documents.flatMap((d) => d.passages),
      documents,
      mode: shown,
      tookMs: now() - started,
      terms: query.split(/\s+/).filter(Boolean),
      ...(notice ? { notice } : {}),
    };
  }

  /** The chunks of a page of documents (see `page`), in page order, before hits are built. */
  async function pageChunks(
    query: string,
    request: SearchRequest,
    mode: SearchMode,
    override: RetrievalOverride,
  ): Promise<{ ranked: PageItem[]; notice: QueryNotice | null }> {
    const want = Math.max(1, Math.floor(request.documents ?? 10));
    const groups = new Map<string, PageItem[]>();
    let notice: QueryNotice | null;
    const first =
      mode === 'hybrid' && deps.semantic
        ? 1
        : Math.ceil((want * (1 + MORE_PASSAGES)) / Math.min(semanticK, lexicalK));
    for (let depth = Math.min(first, MAX_PAGE_DEPTH); ;) {
      const reading = await readPage(query, request, mode, depth, override);
      notice = reading.notice;
      // The meaning side reads the query itself unless a vector was given (find related).
      if (mode !== 'lexical' && deps.semantic && !override.vector)
        notice = withWindowNotice(notice, query, deps.semantic.maxTokens);
      addInOrder(
        groups,
        reading.ranked,
        (c) => c.path,
        (c) => c.chunkId,
        want,
        1 + MORE_PASSAGES,
      );
      if (groups.size >= want || !reading.full || depth >= MAX_PAGE_DEPTH) break;
      depth = Math.min(depth * PAGE_GROWTH, MAX_PAGE_DEPTH);
    }
    return { ranked: [...groups.values()].flat(), notice };
  }

  async function fuse(
    query: string,
    filters: SearchFilters | undefined,
    override: RetrievalOverride,
  ): Promise<FusedLists> {
    if (deps.semantic && isPlain(override)) {
      const { semantic, lexical, vector } = await plainLists(deps.semantic, query, filters);
      const fused = fuseHybrid<RankedCandidate>(semantic, lexical.chunks, fusionFor()).items;
      // Each caller gets its own copy of the shared query vector.
      return { fused, queryVector: vector.slice() };
    }
    const lexicalSide = lexicalList(
      override.lexicalQuery ?? query,
      filters,
      deps.semantic ? fusedLexicalK() : lexicalK,
    ).then((l) => l.chunks);
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
    if (request.documents !== undefined) return page(request, mode, override);
    const started = now();
    const topK = request.limit ?? options.topK ?? 10;
    // Without a loaded model (first start, or no WASM), every mode answers lexically and says so.
    if (mode === 'lexical' || !deps.semantic) {
      const text = override.lexicalQuery ?? request.query;
      const exclude = override.excludeChunkIds;
      const response = await deps.lexical.search({
        ...request,
        query: text,
        limit: topK + (exclude?.size ?? 0),
      });
      if (!exclude) return response;
      return {
        ...response,
        hits: response.hits.filter((h) => !exclude.has(h.chunkId)).slice(0, topK),
      };
    }
    const query = request.query.trim();
    if (!query) return { hits: [], mode, tookMs: 0, terms: [] };
    const dense = await rankDense(query, request, mode, topK, override);
    const { ranked } = dense;
    const notice = override.vector
      ? dense.notice
      : withWindowNotice(dense.notice, query, deps.semantic.maxTokens);
    const hits = await deps.buildHits(query, ranked);
    const terms = query.split(/\s+/).filter(Boolean);
    return { hits, mode, tookMs: now() - started, terms, ...(notice ? { notice } : {}) };
  }

  async function rank(
    request: SearchRequest,
    override: RetrievalOverride = {},
  ): Promise<RankedChunk[]> {
    const mode: SearchMode = request.mode ?? (deps.semantic ? 'hybrid' : 'lexical');
    if (request.documents !== undefined) {
      // A page of documents, as `search` reads it: deep enough for that many documents.
      const query = request.query.trim();
      return query ? (await pageChunks(query, request, mode, override)).ranked : [];
    }
    const topK = request.limit ?? options.topK ?? 10;
    if (mode === 'lexical' || !deps.semantic) {
      const lexical = await lexicalList(
        override.lexicalQuery ?? request.query,
        request.filters,
        topK,
        override.excludeChunkIds,
      );
      const { chunks: list, maxScore } = lexical;
      const best = list[0]?.score ?? 1;
      return list.map((c, i) => ({
        chunkId: c.chunkId,
        score: best > 0 ? c.score / best : 0,
        ranks: { lexical: i + 1 },
        relevance: rate({ lexical: { score: c.score, maxScore } }),
      }));
    }
    const query = request.query.trim();
    return query ? (await rankDense(query, request, mode, topK, override)).ranked : [];
  }

  return {
    async search(request) {
      const mode: SearchMode = request.mode ?? (deps.semantic ? 'hybrid' : 'lexical');
      const key = JSON.stringify([
        mode,
        request.query,
        request.filters ?? null,
        request.limit ?? null,
        request.documents ?? null,
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
    rank,
    present: (query, ranked) => deps.buildHits(query, ranked),
    embedQueries(texts) {
      const side = deps.semantic;
      if (!side) return null;
      return side.embedQueries
        ? side.embedQueries(texts)
        : Promise.all(texts.map((t) => side.embedQuery(t)));
    },
    storedVectors: async (chunkIds) =>
      (await deps.semantic?.storedVectors?.(chunkIds)) ?? new Map<number, Int16Array>(),
    clearCache() {
      cache.clear();
      readings.clear();
    },
  };
}
