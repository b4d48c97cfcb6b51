// Lexical search over the chunk index (CFS-012 section 3): parse, match with FTS5, rank with
// BM25 computed from FTS5's own statistics (tunable k1, b and column weights, which the
// built-in bm25() fixes at 1.2/0.75; lexical-bm25.ts), filter (lexical-filters.ts), score with
// safe pruning (lexical-scoring.ts), order deterministically, normalise, snippet (lexical-hits.ts).
// Speed: crossing from SQLite into JS per row dominates, so each stem's postings arrive as two id
// lists in one row, and per-chunk lengths and documents come from a snapshot kept until the
// library changes (100k chunks: rankChunks p50 about 24 ms, from 141 ms per-row; bench/README.md).
import { compareRanked } from '../shared/ranking';
import type {
  QueryNotice,
  SearchFilters,
  SearchHit,
  SearchRequest,
  SearchResponse,
} from '../shared/types';
import {
  createIndexStatistics,
  DEFAULT_BM25,
  type Bm25Context,
  type Bm25Params,
} from './lexical-bm25';
import { candidateChunks, validateFilters } from './lexical-filters';
import { buildHits, type RankedForHits } from './lexical-hits';
import { parseQuery, type ParsedQuery } from './lexical-query';
import { kthLargest, planTerms, queryMaxScore, type TermPlan } from './lexical-prune';
import { PostingCache, type PostingList } from './lexical-postings';
import { createChunkScorer } from './lexical-scoring';
import { batchedInQueue } from './queue-batch';
import { FTS_TOKENIZER } from './migrations';
import type { Sql } from './sql';

export { DEFAULT_BM25, forEachInt, readVarints, type Bm25Params } from './lexical-bm25';
export { likeContains } from './lexical-filters';
export type { RankedForHits } from './lexical-hits';
export { POOL_MAX, POSTINGS_BUDGET } from './lexical-scoring';

export const DEFAULT_LIMIT = 10;
export const MAX_LIMIT = 1000;

export interface ScoredChunk {
  chunkId: number;
  documentId: number;
  path: string;
  seq: number;
  /** Raw BM25 score (higher is better). */
  score: number;
  /** A chunk of a contents or index page: ranked below every other match. */
  contents?: boolean;
}

export interface LexicalSearchDeps {
  /** For `tookMs`; defaults to performance.now. */
  now?: () => number;
  bm25?: Partial<Bm25Params>;
  /** The store's change counter (`Store.version`): lets statistics be cached between changes. */
  version?: () => number;
  /**
   * Safe top-k pruning of long queries (lexical-prune.ts); false reads every posting list (the
   * exhaustive oracle of tests and benchmarks). Same ranking and scores either way.
   */
  prune?: boolean;
  /** Posting entries (chunks) a query may read before its remaining terms only re-rank. */
  postingsBudget?: number;
  /** At most this many chunks get the remaining terms added once reading stops. */
  poolMax?: number;
  /** Posting entries kept in memory between queries while the library is unchanged (0: none). */
  postingCacheEntries?: number;
  /** Only posting lists of at least this many chunks are kept. */
  postingCacheMin?: number;
  /** Words whose stems are kept between queries (for re-ranking with unread terms). */
  stemCacheMax?: number;
}

/**
 * Posting lists kept between queries (12 bytes an entry: 1.5M entries, 18 MB): the common stems
 * of long queries, which are most of their reading cost. Lists shorter than POSTING_CACHE_MIN are
 * cheap to read again. Kept only while the snapshot is (needs `LexicalSearchDeps.version`).
 */
export const POSTING_CACHE_ENTRIES = 1_500_000;
export const POSTING_CACHE_MIN = 200;
/** A ranking and what it left out (null when it did everything the query asked). */
export interface LexicalRanking {
  chunks: ScoredChunk[];
  notice: QueryNotice | null;
  /**
   * Work done: posting entries read from the index (lists held in memory are not counted), and
   * terms added to the pool after reading stopped.
   */
  work: { postingsRead: number; lateTerms: number };
  /** The best score any chunk could reach for this query (lexical-prune.ts queryMaxScore). */
  maxScore: number;
}

export interface LexicalSearch {
  /** The UI search: top hits with snippets and normalised scores. @throws AppError INVALID_ARGUMENT */
  search(request: SearchRequest): Promise<SearchResponse>;
  /** Raw ranking with its notice (a long query's left-out work). @throws AppError INVALID_ARGUMENT */
  rank(
    query: string | ParsedQuery,
    options?: { filters?: SearchFilters; limit?: number },
  ): Promise<LexicalRanking>;
  /** Raw ranking (used by search, eval and bench). @throws AppError INVALID_ARGUMENT */
  rankChunks(
    query: string | ParsedQuery,
    options?: { filters?: SearchFilters; limit?: number },
  ): Promise<ScoredChunk[]>;
  /** Stems of words as the index sees them (porter + unicode61); one list per input word. */
  stems(words: string[]): Promise<string[][]>;
  /**
   * Hits for chunks ranked elsewhere (semantic or fused lists), in the given order, with snippets
   * highlighting `query`'s terms. Chunks deleted meanwhile are left out.
   */
  buildHits(query: string, ranked: ReadonlyArray<RankedForHits>): Promise<SearchHit[]>;
}

/** What the rankings of one batch read once for all of them; each still ranks as if alone. */
interface BatchReads {
  ctx: Bm25Context;
  /** The stems of every word of the batch's queries. */
  stems: Map<string, string[]>;
  /** term_stats of the batch's stems (a stem the index does not hold is absent). */
  stats: Map<string, { docs: number; chunks: number }>;
  /** Posting lists read during the batch, whatever their length. */
  lists: Map<string, PostingList>;
}

type RankOptions = { filters?: SearchFilters; limit?: number };
type RankRequest = { query: string | ParsedQuery; options: RankOptions };
/** A ranking whose top chunks are still to be placed (path and sequence for the ties). */
type PooledRanking = Omit<LexicalRanking, 'chunks'> & { pool: ScoredChunk[]; limit: number };

/** Min-max normalisation over the returned rows, as CFS-012 section 3 describes (all 1 if flat). */
export function normaliseScores(scores: number[]): number[] {
  if (scores.length === 0) return [];
  const min = Math.min(...scores);
  const max = Math.max(...scores);
  const range = max - min;
  return scores.map((s) => (range > 0 ? (s - min) / range : 1));
}

/** The notice of a ranking that left something out, or null when it did all the query asked. */
export function queryNotice(truncatedChars: number, rankOnlyTerms: string[]): QueryNotice | null {
  if (truncatedChars <= 0 && rankOnlyTerms.length === 0) return null;
  const parts: string[] = [];
  if (truncatedChars > 0)
    parts.push(`The last ${truncatedChars} characters of the query were not read.`);
  if (rankOnlyTerms.length > 0)
    parts.push(
      `${rankOnlyTerms.length} common words (${rankOnlyTerms.slice(0, 5).join(', ')}${
        rankOnlyTerms.length > 5 ? ', ...' : ''
      }) only re-ranked the passages the other words found; shorten the query to search with them too.`,
    );
  return { truncatedChars: Math.max(0, truncatedChars), rankOnlyTerms, message: parts.join(' ') };
}

/** Query-term weight per stem (stems of the batch's words): a repeated word counts more, as in Anserini. */
function queryWeights(
  parsed: ParsedQuery,
  stems: ReadonlyMap<string, string[]>,
): { weights: Map<string, number>; singleStems: boolean } {
  const words = [...parsed.terms, ...parsed.phrases.flat()];
  const counts = [...parsed.termCounts, ...parsed.phrases.flat().map(() => 1)];
  const stemLists = words.map((w) => stems.get(w) ?? []);
  const weights = new Map<string, number>();
  stemLists.forEach((list, i) => {
    for (const stem of list) weights.set(stem, (weights.get(stem) ?? 0) + (counts[i] ?? 1));
  });
  return { weights, singleStems: stemLists.every((l) => l.length === 1) };
}

/** The query's terms in reading order, with df from the batch's term_stats. */
function termPlan(params: Bm25Params, weights: Map<string, number>, reads: BatchReads): TermPlan[] {
  const terms: Array<{ stem: string; q: number; df: number; chunks: number }> = [];
  for (const [stem, q] of weights) {
    const row = reads.stats.get(stem);
    if (!row) continue; // not in the index
    const df = params.idfUnit === 'document' ? row.docs : row.chunks;
    terms.push({ stem, q, df, chunks: row.chunks });
  }
  return planTerms(terms, reads.ctx.nUnits, params.k1);
}

/**
 * The chunks that can make the top `limit` of the scored: cut by score, keeping every chunk tied
 * with the last place (their path and sequence, `placeChunks`, then break the ties exactly).
 */
function topPool(scores: Float64Array, scored: number[], limit: number): ScoredChunk[] {
  // The limit-th best score (the lowest when there are fewer), selected without a full sort.
  const floor = kthLargest(scores, scored, Math.min(limit, scored.length));
  return scored
    .filter((id) => scores[id]! >= floor)
    .map((id) => ({ chunkId: id, documentId: -1, path: '', seq: 0, score: scores[id]! }));
}

/** A placed pool's top `limit`, ties by path and sequence; chunks deleted meanwhile left out. */
/** The pool's top `limit` chunks: contents and index chunks after every other match. */
const topOfPool = (pool: ScoredChunk[], limit: number): ScoredChunk[] =>
  pool
    .filter((c) => c.documentId >= 0)
    .sort(
      (a, b) => Number(a.contents ?? false) - Number(b.contents ?? false) || compareRanked(a, b),
    )
    .slice(0, limit);

/** Builds the search over a migrated library connection (creates its temp helper tables). */
export async function createLexicalSearch(
  sql: Sql,
  deps: LexicalSearchDeps = {},
): Promise<LexicalSearch> {
  const now = deps.now ?? (() => performance.now());
  const params: Bm25Params = { ...DEFAULT_BM25, ...deps.bm25 };
  // A scratch FTS5 table with the index's tokenizer: the exact stems for query terms and
  // snippet words, without re-implementing Porter in JS. temp_store=MEMORY keeps it in RAM.
  await sql.exec(`
    CREATE VIRTUAL TABLE IF NOT EXISTS temp.sift_tok USING fts5(w, tokenize = '${FTS_TOKENIZER}');
    CREATE VIRTUAL TABLE IF NOT EXISTS temp.sift_tok_vi USING fts5vocab(temp, sift_tok, instance);
    CREATE VIRTUAL TABLE IF NOT EXISTS temp.sift_chunks_vi USING fts5vocab(main, chunks_fts, instance);
  `);

  const indexStats = createIndexStatistics(sql, params, deps);

  async function stemsNow(words: string[]): Promise<string[][]> {
    const out: string[][] = words.map(() => []);
    if (words.length === 0) return out;
    await sql.run('DELETE FROM temp.sift_tok');
    await sql.run('INSERT INTO temp.sift_tok(rowid, w) SELECT key + 1, value FROM json_each(?)', [
      JSON.stringify(words),
    ]);
    const rows = await sql.all<{ doc: number; term: string }>(
      'SELECT doc, term FROM temp.sift_tok_vi ORDER BY doc, offset',
    );
    for (const row of rows) out[Number(row.doc) - 1]?.push(row.term);
    await sql.run('DELETE FROM temp.sift_tok');
    return out;
  }

  /**
   * What a batch of rankings reads once for all of them: the stems of all their words (one
   * tokenizer pass), the index-wide BM25 inputs, and term_stats of all their stems (one lookup).
   */
  async function batchReads(parsed: readonly ParsedQuery[]): Promise<BatchReads> {
    const words = [...new Set(parsed.flatMap((p) => [...p.terms, ...p.phrases.flat()]))];
    const lists = await stemsNow(words);
    const stems = new Map(words.map((w, i) => [w, lists[i] ?? []]));
    const ctx = await indexStats.bm25Context();
    const all = [...new Set(lists.flat())];
    const rows =
      all.length === 0
        ? []
        : await sql.all<{ term: string; docs: number; chunks: number }>(
            'SELECT term, docs, chunks FROM term_stats WHERE term IN (SELECT value FROM json_each(?))',
            [JSON.stringify(all)],
          );
    const stats = new Map(
      rows.map((r) => [String(r.term), { docs: Number(r.docs), chunks: Number(r.chunks) }]),
    );
    return { ctx, stems, stats, lists: new Map() };
  }

  /** Fills in document, path and sequence of pooled chunks: one lookup for a batch's pools. */
  async function placeChunks(pool: readonly ScoredChunk[]): Promise<void> {
    if (pool.length === 0) return;
    const byId = new Map<number, ScoredChunk[]>(); // a chunk may be in several rankings' pools
    for (const c of pool) {
      const same = byId.get(c.chunkId);
      if (same) same.push(c);
      else byId.set(c.chunkId, [c]);
    }
    await sql.each(
      `SELECT c.id AS id, c.document_id AS document_id, c.seq AS seq, d.path AS path,
              c.contents AS contents
       FROM chunks c JOIN documents d ON d.id = c.document_id
       WHERE c.id IN (SELECT value FROM json_each(?))`,
      [JSON.stringify([...byId.keys()])],
      (row) => {
        for (const cand of byId.get(Number(row.id)) ?? []) {
          cand.documentId = Number(row.document_id);
          cand.seq = Number(row.seq);
          cand.path = String(row.path);
          if (Number(row.contents) === 1) cand.contents = true;
        }
      },
    );
  }

  const cacheEntries = deps.postingCacheEntries ?? POSTING_CACHE_ENTRIES;
  const postingCache =
    deps.version && cacheEntries > 0
      ? new PostingCache(cacheEntries, deps.postingCacheMin ?? POSTING_CACHE_MIN)
      : null;

  const scorer = createChunkScorer(sql, params, deps, postingCache, stemsNow);

  /** One ranking of a batch, scored, its pool not yet placed (`placeChunks`). */
  async function scoreQuery(
    parsed: ParsedQuery,
    options: RankOptions,
    reads: BatchReads | null,
  ): Promise<PooledRanking> {
    const limit = Math.max(1, Math.min(MAX_LIMIT, Math.floor(options.limit ?? DEFAULT_LIMIT)));
    const none: PooledRanking = {
      pool: [],
      limit,
      notice: queryNotice(parsed.truncated, []),
      work: { postingsRead: 0, lateTerms: 0 },
      maxScore: 0,
    };
    if (!parsed.match || !reads) return none;
    const { weights, singleStems } = queryWeights(parsed, reads.stems);
    const { ctx } = reads;
    const allowed = await candidateChunks(
      sql,
      { ...parsed, match: parsed.match },
      options.filters,
      singleStems,
      ctx.snap.size,
    );
    if (allowed === 'none') return none;
    const plan = termPlan(params, weights, reads);
    const maxScore = queryMaxScore(weights, plan, ctx.nUnits, params.k1);
    const scoring = await scorer.scoreChunks(ctx, plan, allowed, limit, reads.lists);
    const notice = queryNotice(
      parsed.truncated,
      scoring.exact ? [] : scoring.late.map((t) => t.stem),
    );
    const work = { postingsRead: scoring.postingsRead, lateTerms: scoring.late.length };
    const pool =
      scoring.complete.length === 0 ? [] : topPool(scoring.acc.scores, scoring.complete, limit);
    return { pool, limit, notice, work, maxScore };
  }

  /**
   * Several rankings at once, each exactly as if alone (same terms, order, sums and ties): stems,
   * term statistics and posting lists they share are read once (`batchReads`), and their top
   * chunks placed in one lookup. A request with bad filters fails alone.
   */
  async function rankBatch(
    requests: readonly RankRequest[],
  ): Promise<Array<PromiseSettledResult<LexicalRanking>>> {
    const parsed = requests.map((r): PromiseSettledResult<ParsedQuery> => {
      try {
        validateFilters(r.options.filters);
        const value = typeof r.query === 'string' ? parseQuery(r.query) : r.query;
        return { status: 'fulfilled', value };
      } catch (reason) {
        return { status: 'rejected', reason };
      }
    });
    const matching = parsed.flatMap((p) =>
      p.status === 'fulfilled' && p.value.match ? [p.value] : [],
    );
    const reads = matching.length > 0 ? await batchReads(matching) : null;
    const scored: Array<PromiseSettledResult<PooledRanking>> = [];
    for (const [i, p] of parsed.entries()) {
      if (p.status === 'rejected') scored.push(p);
      else
        scored.push({
          status: 'fulfilled',
          value: await scoreQuery(p.value, requests[i]!.options, reads),
        });
    }
    await placeChunks(scored.flatMap((s) => (s.status === 'fulfilled' ? s.value.pool : [])));
    return scored.map((s) => {
      if (s.status === 'rejected') return s;
      const { pool, limit, ...rest } = s.value;
      return { status: 'fulfilled', value: { ...rest, chunks: topOfPool(pool, limit) } };
    });
  }

  /** One ranking, inside a job of the connection's queue. @throws AppError INVALID_ARGUMENT */
  async function rankNow(
    query: string | ParsedQuery,
    options: RankOptions,
  ): Promise<LexicalRanking> {
    const [result] = await rankBatch([{ query, options }]);
    if (result?.status !== 'fulfilled') throw result?.reason;
    return result.value;
  }

  async function searchNow(request: SearchRequest): Promise<SearchResponse> {
    const started = now();
    const parsed = parseQuery(request.query);
    const terms = [...parsed.terms, ...parsed.phrases.map((p) => p.join(' '))];
    const { chunks: ranked, notice } = await rankNow(parsed, {
      ...(request.filters ? { filters: request.filters } : {}),
      limit: Math.min(request.limit ?? DEFAULT_LIMIT, 100),
    });
    const extra = notice ? { notice } : {};
    if (ranked.length === 0)
      return { hits: [], mode: 'lexical', tookMs: now() - started, terms, ...extra };
    const scores = normaliseScores(ranked.map((r) => r.score));
    const hits = await buildHits(
      sql,
      stemsNow,
      parsed,
      ranked.map((r, i) => ({
        chunkId: r.chunkId,
        score: scores[i] ?? 0,
        ranks: { lexical: i + 1 },
      })),
    );
    return { hits, mode: 'lexical', tookMs: now() - started, terms, ...extra };
  }

  // Every call runs in the connection's queue (Sql.serialized): it then never sees another
  // call's uncommitted transaction, and overlapping searches (search-as-you-type) take turns
  // on the shared tokenizer scratch table instead of reading each other's words. Rankings that
  // wait there together run as one batch (a query plan's retrievals: shared reads, same results).
  const rankInQueue = batchedInQueue<RankRequest, LexicalRanking>(
    (fn) => sql.serialized(fn),
    rankBatch,
  );
  return {
    search: (request) => sql.serialized(() => searchNow(request)),
    rank: (query, options) => rankInQueue({ query, options: options ?? {} }),
    rankChunks: async (query, options) =>
      (await rankInQueue({ query, options: options ?? {} })).chunks,
    stems: (words) => sql.serialized(() => stemsNow(words)),
    buildHits: (query, ranked) =>
      sql.serialized(() => buildHits(sql, stemsNow, parseQuery(query), ranked)),
  };
}
