// Lexical search over the chunk index (CFS-012 section 3): parse, match with FTS5, rank with
// BM25 computed from FTS5's own statistics (tunable k1, b and column weights, which the
// built-in bm25() fixes at 1.2/0.75), filter, order deterministically, normalise, snippet.
// Speed: crossing from SQLite into JS per row dominates, so each stem's postings arrive as two id
// lists in one row, and per-chunk lengths and documents come from a snapshot kept until the
// library changes (100k chunks: rankChunks p50 about 24 ms, from 141 ms per-row; bench/README.md).
// Must not import any layer but workers/shared/.
import { createError } from '../shared/errors';
import { compareRanked } from '../shared/ranking';
import type {
  HighlightedText,
  QueryNotice,
  SearchFilters,
  SearchHit,
  SearchRequest,
  SearchResponse,
} from '../shared/types';
import { globToRegExp } from './glob';
import { gradesAtLeast, OWN_DOCUMENT_GRADE } from '../shared/types';
import { parseQuery, WORD_RE, type ParsedQuery } from './lexical-query';
import {
  kthLargest,
  padded,
  planTerms,
  queryMaxScore,
  suffixBounds,
  type TermPlan,
} from './lexical-prune';
import { packPostings, PostingCache, type PostingList } from './lexical-postings';
import { batchedInQueue } from './queue-batch';
import { FTS_TOKENIZER } from './migrations';
import type { Sql, SqlValue } from './sql';

/** BM25 parameters. Names as in Robertson & Zaragoza, "The Probabilistic Relevance Framework". */
export interface Bm25Params {
  /** Term-frequency saturation. 0.9 as in Anserini's BEIR "flat" baseline (Lucene default 1.2). */
  k1: number;
  /** Length normalisation. 0.4 as in Anserini's BEIR baseline (Lucene default 0.75). */
  b: number;
  /** Weight of a title occurrence relative to a body occurrence (BM25F-style field weight). */
  titleWeight: number;
  bodyWeight: number;
  /**
   * Unit for document frequency: 'document' counts documents containing the term (N = documents),
   * 'chunk' counts chunks. Chunks overlap and each repeats its document's title, which inflates
   * chunk-level df for title words; document-level IDF is the standard BM25 notion.
   */
  idfUnit: 'document' | 'chunk';
}

/**
 * Defaults chosen on SciFact (see bench/README.md): k1/b from Anserini's tuned BEIR baseline;
 * title and body weighted equally, which makes the score exactly "flat" BM25 over title + text
 * (the Anserini configuration); a doubled title weight scored 0.6826 vs 0.6847 nDCG@10. IDF
 * counts documents (see `idfUnit`): +0.009 nDCG@10 over chunk counts.
 */
export const DEFAULT_BM25: Bm25Params = {
  k1: 0.9,
  b: 0.4,
  titleWeight: 1,
  bodyWeight: 1,
  idfUnit: 'document',
};

export const DEFAULT_LIMIT = 10;
export const MAX_LIMIT = 1000;
const SNIPPET_MAX = 280;
const SNIPPET_LEAD = 60;

export interface ScoredChunk {
  chunkId: number;
  documentId: number;
  path: string;
  seq: number;
  /** Raw BM25 score (higher is better). */
  score: number;
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
 * Work bounds of one ranking (bench/README.md "Long queries"). Reading posting lists costs in
 * proportion to the chunks they list; past POSTINGS_BUDGET entries, the remaining (common) terms
 * only re-rank the POOL_MAX best chunks found so far, and the ranking says so (QueryNotice).
 */
export const POSTINGS_BUDGET = 60_000;
export const POOL_MAX = 200;
/** Re-tokenizing one chunk costs about as much as reading this many posting entries. */
const POOL_COST = 40;
const STEM_CACHE_MAX = 50_000;
/**
 * Posting lists kept between queries (12 bytes an entry: 1.5M entries, 18 MB): the common stems
 * of long queries, which are most of their reading cost. Lists shorter than POSTING_CACHE_MIN are
 * cheap to read again. Kept only while the snapshot is (needs `LexicalSearchDeps.version`).
 */
export const POSTING_CACHE_ENTRIES = 1_500_000;
export const POSTING_CACHE_MIN = 200;
/**
 * Runs of characters the unicode61 tokenizer may keep (L*, N*, Co, and the combining marks it
 * folds away): a superset, so stemming each run with the tokenizer itself splits it exactly as
 * the index did.
 */
const TOKEN_RUN_RE = /[\p{L}\p{N}\p{Co}\p{M}]+/gu;

/** A chunk ranked elsewhere, to become a hit (its band, when rated, is carried over). */
export type RankedForHits = Pick<SearchHit, 'chunkId' | 'score' | 'ranks' | 'relevance'>;

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

/** SQLite varint (big-endian, 7 bits per byte, 9th byte carries 8), as FTS5 stores sizes. */
export function readVarints(bytes: Uint8Array): number[] {
  const out: number[] = [];
  let i = 0;
  while (i < bytes.length) {
    let value = 0;
    let n = 0;
    for (;;) {
      const byte = bytes[i++] ?? 0;
      if (n === 8) {
        value = value * 256 + byte;
        break;
      }
      value = value * 128 + (byte & 0x7f);
      n++;
      if (!(byte & 0x80) || i >= bytes.length) break;
    }
    out.push(value);
  }
  return out;
}

/** Calls `fn` with each non-negative integer of a comma-separated list (null or '' → none). */
export function forEachInt(list: string | null, fn: (n: number) => void): void {
  if (!list) return;
  let n = 0;
  let digits = false;
  for (let i = 0; i < list.length; i++) {
    const c = list.charCodeAt(i);
    if (c === 44) {
      if (digits) fn(n);
      n = 0;
      digits = false;
    } else {
      n = n * 10 + (c - 48);
      digits = true;
    }
  }
  if (digits) fn(n);
}

function hexBytes(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length >> 1);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/** Per-chunk facts of the index (see `indexSnapshot`); arrays are indexed by chunk id. */
interface IndexSnapshot {
  /** Length of the arrays: the largest chunk id + 1. */
  size: number;
  /** Document of each chunk; -1 when there is no such chunk. */
  docOf: Int32Array;
  /** Title and body token counts from chunks_fts_docsize; lenBody -1 when not in the index. */
  lenTitle: Int32Array;
  lenBody: Int32Array;
  /** Documents with at least one chunk (N for document-level IDF; empty files hold no terms). */
  documents: number;
}

/** BM25 inputs shared by every stem of one ranking. */
interface Bm25Context {
  snap: IndexSnapshot;
  avgdl: number;
  /** N of the IDF: documents or chunks (`Bm25Params.idfUnit`). */
  nUnits: number;
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

/** Scratch arrays of one ranking, indexed by chunk id. */
interface Accumulator {
  scores: Float64Array;
  /** Chunks with a score, in first-scored order. */
  scored: number[];
  isScored: Uint8Array;
  tfTitle: Int32Array;
  tfBody: Int32Array;
  /** Chunks the current stem occurs in. */
  touched: number[];
  /** The best score so far (a cheap upper bound of the k-th best). */
  best: number;
}

function newAccumulator(size: number): Accumulator {
  return {
    scores: new Float64Array(size),
    scored: [],
    isScored: new Uint8Array(size),
    tfTitle: new Int32Array(size),
    tfBody: new Int32Array(size),
    touched: [],
    best: 0,
  };
}

/** What scoring produced: the chunks whose scores are complete, and the terms read late. */
interface Scoring {
  acc: Accumulator;
  /** Chunks with complete scores (every query term added). */
  complete: number[];
  /** Terms whose posting lists were not read (added to `complete` chunks afterwards). */
  late: TermPlan[];
  /** False when reading stopped for cost before the bound made it safe. */
  exact: boolean;
  postingsRead: number;
}

/** Min-max normalisation over the returned rows, as CFS-012 section 3 describes (all 1 if flat). */
export function normaliseScores(scores: number[]): number[] {
  if (scores.length === 0) return [];
  const min = Math.min(...scores);
  const max = Math.max(...scores);
  const range = max - min;
  return scores.map((s) => (range > 0 ? (s - min) / range : 1));
}

function validateFilters(filters: SearchFilters | undefined): void {
  if (!filters) return;
  const bad = (what: string) =>
    createError('INVALID_ARGUMENT', { reason: `Search filter ${what} is not valid.` });
  if (filters.pathGlob !== undefined && typeof filters.pathGlob !== 'string') throw bad('pathGlob');
  if (
    filters.mime !== undefined &&
    (!Array.isArray(filters.mime) || filters.mime.some((m) => typeof m !== 'string'))
  )
    throw bad('mime');
  for (const key of ['modifiedAfter', 'modifiedBefore'] as const) {
    const v = filters[key];
    if (v !== undefined && (typeof v !== 'number' || !Number.isFinite(v))) throw bad(key);
  }
  if (filters.contains !== undefined && typeof filters.contains !== 'string') throw bad('contains');
  if (filters.project !== undefined && !Number.isInteger(filters.project)) throw bad('project');
  if (filters.minGrade !== undefined && !'ABCDE'.includes(filters.minGrade)) throw bad('minGrade');
}

/** LIKE pattern for a literal substring: %, _ and the escape character itself are escaped. */
export function likeContains(needle: string): string {
  return `%${needle.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * When the k-th best partial score beats all that the unread terms could add (`rest`), no chunk
 * outside the returned list can reach the top `limit`: the chunks that still can. Null when
 * the bound does not hold yet.
 */
function safeStop(acc: Accumulator, rest: number, limit: number, max: number): number[] | null {
  // The best score bounds the k-th best from above: skip the selection while it cannot pass.
  if (acc.scored.length < limit || !(acc.best > padded(rest))) return null;
  const theta = kthLargest(acc.scores, acc.scored, limit);
  if (!(theta > padded(rest))) return null;
  const floor = theta - padded(rest);
  let n = 0;
  for (const id of acc.scored) if (acc.scores[id]! >= floor && ++n > max) return null;
  return acc.scored.filter((id) => acc.scores[id]! >= floor);
}

/** The `max` ids of highest score (ties by id), or all of them when there are no more. */
function topByScore(scores: Float64Array, ids: number[], max: number): number[] {
  if (ids.length <= max) return ids;
  return [...ids].sort((a, b) => scores[b]! - scores[a]! || a - b).slice(0, max);
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

  /** [rows, title tokens, body tokens] over the whole index, from FTS5's averages record. */
  async function totals(): Promise<[number, number, number]> {
    const row = await sql.get<{ block: Uint8Array }>(
      'SELECT block FROM chunks_fts_data WHERE id = 1',
    );
    const [n = 0, title = 0, body = 0] = row?.block ? readVarints(row.block) : [];
    return [n, title, body];
  }

  // Per-chunk facts that change only with the library: document id (for document-level IDF) and
  // title/body token counts (BM25 length normalisation). Valid while the library is unchanged:
  // the injected store version covers this connection's writes, PRAGMA data_version other
  // connections' (tabs') commits. Without `version` it is rebuilt for every query.
  let snapshotKey = '';
  let snapshotCache: IndexSnapshot | null = null;
  async function indexSnapshot(): Promise<IndexSnapshot> {
    let key = '';
    if (deps.version) {
      const dv = await sql.get<{ data_version: number }>('PRAGMA data_version');
      key = `${deps.version()}:${Number(dv?.data_version ?? 0)}`;
      if (snapshotCache && key === snapshotKey) return snapshotCache;
    }
    // One row each, aggregated in SQL: crossing from SQLite into JS per row is the cost here.
    const max = await sql.get<{ c: number | null; s: number | null; d: number | null }>(
      `SELECT (SELECT max(id) FROM chunks) AS c, (SELECT max(id) FROM chunks_fts_docsize) AS s,
              (SELECT count(DISTINCT document_id) FROM chunks) AS d`,
    );
    const size = Math.max(Number(max?.c ?? 0), Number(max?.s ?? 0)) + 1;
    const docOf = new Int32Array(size).fill(-1);
    const lenTitle = new Int32Array(size);
    const lenBody = new Int32Array(size).fill(-1);
    const pairs = await sql.get<{ p: string | null }>(
      "SELECT group_concat(id || ',' || document_id) AS p FROM chunks",
    );
    let chunk = -1;
    forEachInt(pairs?.p ?? null, (n) => {
      if (chunk < 0) chunk = n;
      else {
        docOf[chunk] = n;
        chunk = -1;
      }
    });
    const sizes = await sql.get<{ p: string | null }>(
      "SELECT group_concat(id || ':' || hex(sz)) AS p FROM chunks_fts_docsize",
    );
    for (const entry of (sizes?.p ?? '').split(',')) {
      const colon = entry.indexOf(':');
      if (colon <= 0) continue;
      const id = Number(entry.slice(0, colon));
      const [t = 0, b = 0] = readVarints(hexBytes(entry.slice(colon + 1)));
      lenTitle[id] = t;
      lenBody[id] = b;
    }
    const snap = { size, docOf, lenTitle, lenBody, documents: Number(max?.d ?? 0) };
    if (deps.version) [snapshotKey, snapshotCache] = [key, snap];
    return snap;
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

  /**
   * What a batch of rankings reads once for all of them: the stems of all their words (one
   * tokenizer pass), the index-wide BM25 inputs, and term_stats of all their stems (one lookup).
   */
  async function batchReads(parsed: readonly ParsedQuery[]): Promise<BatchReads> {
    const words = [...new Set(parsed.flatMap((p) => [...p.terms, ...p.phrases.flat()]))];
    const lists = await stemsNow(words);
    const stems = new Map(words.map((w, i) => [w, lists[i] ?? []]));
    const ctx = await bm25Context();
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

  /**
   * Chunks allowed to score, or null when every chunk holding a query stem may. Without filters
   * or phrases they are exactly the chunks holding one of the query stems, which the postings
   * list anyway; otherwise FTS5 MATCH (with the documents join for filters) decides.
   */
  async function candidateChunks(
    parsed: ParsedQuery & { match: string },
    filters: SearchFilters | undefined,
    singleStems: boolean,
    snap: IndexSnapshot,
  ): Promise<Uint8Array | null | 'none'> {
    const where: string[] = ['chunks_fts MATCH ?'];
    const binds: SqlValue[] = [parsed.match];
    if (filters?.mime && filters.mime.length > 0) {
      where.push(`d.mime IN (${filters.mime.map(() => '?').join(', ')})`);
      binds.push(...filters.mime);
    }
    if (filters?.modifiedAfter !== undefined) {
      where.push('d.modified >= ?');
      binds.push(filters.modifiedAfter);
    }
    if (filters?.modifiedBefore !== undefined) {
      where.push('d.modified < ?');
      binds.push(filters.modifiedBefore);
    }
    if (filters?.project !== undefined) {
      where.push('d.id IN (SELECT document_id FROM project_documents WHERE project_id = ?)');
      binds.push(filters.project);
    }
    if (filters?.minGrade !== undefined) {
      const grades = gradesAtLeast(filters.minGrade);
      where.push(`COALESCE(d.quality_grade, ?) IN (${grades.map(() => '?').join(', ')})`);
      binds.push(OWN_DOCUMENT_GRADE, ...grades);
    }
    // LIKE folds ASCII case only: ASCII needles are filtered in SQL (literal, wildcards
    // escaped); others in JS with full Unicode lower-casing.
    const needle = filters?.contains ?? '';
    const unicodeNeedle = [...needle].some((c) => c.charCodeAt(0) > 0x7f)
      ? needle.toLowerCase()
      : null;
    if (needle && !unicodeNeedle) {
      where.push("c.text LIKE ? ESCAPE '\\'");
      binds.push(likeContains(needle));
    }
    const pathRe = filters?.pathGlob ? globToRegExp(filters.pathGlob) : null;
    const needsJoin = where.length > 1 || pathRe !== null || unicodeNeedle !== null;
    if (!needsJoin && parsed.phrases.length === 0 && singleStems) return null;
    const allowed = new Uint8Array(snap.size);
    let any = false;
    await sql.each(
      needsJoin
        ? `SELECT c.id AS id, d.path AS path ${unicodeNeedle ? ', c.text AS text' : ''}
           FROM chunks_fts f
           JOIN chunks c ON c.id = f.rowid
           JOIN documents d ON d.id = c.document_id
           WHERE ${where.join(' AND ')}`
        : 'SELECT rowid AS id FROM chunks_fts WHERE chunks_fts MATCH ?',
      binds,
      (row) => {
        if (pathRe && !pathRe.test(String(row.path))) return;
        if (unicodeNeedle && !String(row.text).toLowerCase().includes(unicodeNeedle)) return;
        const id = Number(row.id);
        if (id < allowed.length) [allowed[id], any] = [1, true];
      },
    );
    return any ? allowed : 'none';
  }

  /** The index-wide BM25 inputs of one ranking: snapshot, average length, N for IDF. */
  async function bm25Context(): Promise<Bm25Context> {
    const snap = await indexSnapshot();
    const [n, totalTitle, totalBody] = await totals();
    const avgdl = n > 0 ? (params.titleWeight * totalTitle + params.bodyWeight * totalBody) / n : 1;
    return { snap, avgdl, nUnits: params.idfUnit === 'document' ? snap.documents : n };
  }

  /** The query's terms in reading order, with df from the batch's term_stats. */
  function termPlan(weights: Map<string, number>, reads: BatchReads): TermPlan[] {
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
   * The posting list of `stem`: from the cache, from this batch's reads, or read from the index
   * (and kept for the batch, and cached if long).
   */
  async function postings(
    stem: string,
    acc: Accumulator,
    batch: Map<string, PostingList>,
  ): Promise<PostingList> {
    const cached = postingCache?.get(stem) ?? batch.get(stem);
    if (cached) return cached;
    await readPostings(stem, acc);
    const list = packPostings(acc.touched, acc.tfTitle, acc.tfBody);
    postingCache?.set(stem, list);
    batch.set(stem, list);
    return list;
  }

  /**
   * Every occurrence of `stem` (fts5vocab 'instance'), as two id lists in one row: counted into
   * `tfTitle`/`tfBody` (indexed by chunk id), which is several times faster than one row per
   * chunk. `touched` lists the chunks it occurs in.
   */
  async function readPostings(stem: string, acc: Accumulator): Promise<void> {
    const post = await sql.get<{ t: string | null; b: string | null }>(
      `SELECT group_concat(CASE WHEN col = 'title' THEN doc END) AS t,
              group_concat(CASE WHEN col = 'title' THEN NULL ELSE doc END) AS b
       FROM temp.sift_chunks_vi WHERE term = ?`,
      [stem],
    );
    acc.touched.length = 0;
    const count = (tf: Int32Array, other: Int32Array) => (id: number) => {
      if (id >= tf.length) return; // added since the snapshot (another tab): not yet scored
      if (tf[id] === 0 && other[id] === 0) acc.touched.push(id);
      tf[id] = tf[id]! + 1;
    };
    forEachInt(post?.t ?? null, count(acc.tfTitle, acc.tfBody));
    forEachInt(post?.b ?? null, count(acc.tfBody, acc.tfTitle));
  }

  /** One term's BM25 contribution to chunk `id` (0 when it does not occur). */
  function bm25Term(ctx: Bm25Context, term: TermPlan, tfT: number, tfB: number, id: number) {
    const { k1, b, titleWeight: wT, bodyWeight: wB } = params;
    const f = wT * tfT + wB * tfB;
    if (f <= 0) return 0;
    const dl = wT * ctx.snap.lenTitle[id]! + wB * ctx.snap.lenBody[id]!;
    return (term.q * term.idf * (f * (k1 + 1))) / (f + k1 * (1 - b + (b * dl) / ctx.avgdl));
  }

  /** Adds one term's BM25 to every candidate of its posting list. */
  function addStemScores(
    ctx: Bm25Context,
    acc: Accumulator,
    term: TermPlan,
    list: PostingList,
    allowed: Uint8Array | null,
  ): void {
    const { ids, tfTitle, tfBody } = list;
    for (let k = 0; k < ids.length; k++) {
      const id = ids[k]!;
      const [tfT, tfB] = [tfTitle[k]!, tfBody[k]!];
      // Not in the index's size table (not a live row), or not a candidate.
      if (ctx.snap.lenBody[id]! < 0 || (allowed && !allowed[id])) continue;
      const add = bm25Term(ctx, term, tfT, tfB, id);
      if (add <= 0) continue;
      if (!acc.isScored[id]) {
        acc.isScored[id] = 1;
        acc.scored.push(id);
      }
      const score = acc.scores[id]! + add;
      acc.scores[id] = score;
      if (score > acc.best) acc.best = score;
    }
  }

  /**
   * BM25 of the candidates, term by term in plan order. With pruning, reading stops once the
   * k-th best partial score beats all that the unread terms could add (then no unseen chunk can
   * reach the top `limit`), or when the postings budget is spent (then the result may miss
   * chunks that only the unread, common terms would have found: `exact` is false).
   */
  async function scoreChunks(
    ctx: Bm25Context,
    plan: TermPlan[],
    allowed: Uint8Array | null,
    limit: number,
    batch: Map<string, PostingList>,
  ): Promise<Scoring> {
    const acc = newAccumulator(ctx.snap.size);
    const rest = suffixBounds(plan);
    const prune = deps.prune !== false;
    const budget = deps.postingsBudget ?? POSTINGS_BUDGET;
    const poolMax = Math.max(limit, deps.poolMax ?? POOL_MAX);
    postingCache?.reset(ctx.snap);
    // Costs count posting entries whether or not a list is in memory, so where reading stops,
    // and with it the ranking, never depends on what earlier queries left in the cache.
    const unread = new Float64Array(plan.length + 1); // posting entries of plan[i..]
    for (let j = plan.length - 1; j >= 0; j--) unread[j] = unread[j + 1]! + plan[j]!.chunks;
    let read = 0;
    let i = 0;
    for (; i < plan.length; i++) {
      const term = plan[i]!;
      if (prune && i > 0) {
        // Stop when it is safe and re-tokenizing the live chunks costs less than reading on
        // (the k-th best is selected every few terms only: it costs a pass over the scores).
        const live = i % 4 === 0 ? safeStop(acc, rest[i]!, limit, poolMax) : null;
        if (live && live.length * POOL_COST < unread[i]!) {
          const late = plan.slice(i);
          await addLateTerms(ctx, acc, late, live);
          return { acc, complete: live, late, exact: true, postingsRead: read };
        }
        if (read + term.chunks > budget) {
          const complete = topByScore(acc.scores, acc.scored, poolMax);
          const late = plan.slice(i);
          await addLateTerms(ctx, acc, late, complete);
          return { acc, complete, late, exact: false, postingsRead: read };
        }
      }
      addStemScores(ctx, acc, term, await postings(term.stem, acc, batch), allowed);
      read += term.chunks;
    }
    return { acc, complete: acc.scored, late: [], exact: true, postingsRead: read };
  }

  const cacheEntries = deps.postingCacheEntries ?? POSTING_CACHE_ENTRIES;
  const postingCache =
    deps.version && cacheEntries > 0
      ? new PostingCache(cacheEntries, deps.postingCacheMin ?? POSTING_CACHE_MIN)
      : null;

  // Stems per word, kept across queries (they depend on the tokenizer only, not the library).
  const stemCache = new Map<string, string[]>();
  async function cachedStems(words: string[]): Promise<Map<string, string[]>> {
    let missing = [...new Set(words.filter((w) => !stemCache.has(w)))];
    if (stemCache.size + missing.length > (deps.stemCacheMax ?? STEM_CACHE_MAX)) {
      stemCache.clear(); // every word is missing now, not only the new ones
      missing = [...new Set(words)];
    }
    const stems = await stemsNow(missing);
    missing.forEach((w, i) => stemCache.set(w, stems[i] ?? []));
    return stemCache;
  }

  /** For each word that stems to late terms, their indices in `late` (one per stem it yields). */
  async function lateTermsOfWords(
    words: Set<string>,
    late: TermPlan[],
  ): Promise<Map<string, number[]>> {
    const stems = await cachedStems([...words]);
    const index = new Map(late.map((t, i) => [t.stem, i]));
    const out = new Map<string, number[]>();
    for (const w of words) {
      const ts: number[] = [];
      for (const stem of stems.get(w) ?? []) {
        const t = index.get(stem);
        if (t !== undefined) ts.push(t);
      }
      if (ts.length > 0) out.set(w, ts);
    }
    return out;
  }

  /**
   * Adds terms whose posting lists were not read to a few chunks. Their title and body are cut at
   * every character the tokenizer never keeps and each piece is stemmed by the index's own
   * tokenizer, which gives the term counts the index holds. Terms are added in plan order, so
   * each sum is the one the exhaustive ranking computes.
   */
  async function addLateTerms(
    ctx: Bm25Context,
    acc: Accumulator,
    late: TermPlan[],
    chunks: number[],
  ): Promise<void> {
    if (chunks.length === 0 || late.length === 0) return;
    const rows = await sql.all<{ id: number; title: string; body: string }>(
      'SELECT id, title, body FROM chunks_fts_source WHERE id IN (SELECT value FROM json_each(?))',
      [JSON.stringify(chunks)],
    );
    const pieces = rows.map((r) => [
      String(r.title).match(TOKEN_RUN_RE) ?? [],
      String(r.body).match(TOKEN_RUN_RE) ?? [],
    ]);
    const lateOf = await lateTermsOfWords(new Set(pieces.flat(2)), late);
    const tf = new Map<number, Int32Array>(); // chunk -> [title, body] count per late term
    rows.forEach((r, i) => {
      const counts = new Int32Array(late.length * 2);
      pieces[i]!.forEach((words, col) => {
        for (const w of words)
          for (const t of lateOf.get(w) ?? []) counts[t * 2 + col] = counts[t * 2 + col]! + 1;
      });
      tf.set(Number(r.id), counts);
    });
    late.forEach((term, t) => {
      for (const id of chunks) {
        const counts = tf.get(id);
        if (!counts || counts[t * 2]! + counts[t * 2 + 1]! === 0) continue;
        acc.scores[id] =
          acc.scores[id]! + bm25Term(ctx, term, counts[t * 2]!, counts[t * 2 + 1]!, id);
      }
    });
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
      `SELECT c.id AS id, c.document_id AS document_id, c.seq AS seq, d.path AS path
       FROM chunks c JOIN documents d ON d.id = c.document_id
       WHERE c.id IN (SELECT value FROM json_each(?))`,
      [JSON.stringify([...byId.keys()])],
      (row) => {
        for (const cand of byId.get(Number(row.id)) ?? []) {
          cand.documentId = Number(row.document_id);
          cand.seq = Number(row.seq);
          cand.path = String(row.path);
        }
      },
    );
  }

  /** A placed pool's top `limit`, ties by path and sequence; chunks deleted meanwhile left out. */
  const topOfPool = (pool: ScoredChunk[], limit: number): ScoredChunk[] =>
    pool
      .filter((c) => c.documentId >= 0)
      .sort(compareRanked)
      .slice(0, limit);

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
      { ...parsed, match: parsed.match },
      options.filters,
      singleStems,
      ctx.snap,
    );
    if (allowed === 'none') return none;
    const plan = termPlan(weights, reads);
    const maxScore = queryMaxScore(weights, plan, ctx.nUnits, params.k1);
    const scoring = await scoreChunks(ctx, plan, allowed, limit, reads.lists);
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

  /** Highlights every word whose stem is a query stem; trims long chunks to a window. */
  async function snippets(texts: string[], queryStems: Set<string>): Promise<HighlightedText[]> {
    const perText = texts.map((text) =>
      [...text.matchAll(WORD_RE)].map((m) => ({
        start: m.index,
        end: m.index + m[0].length,
        word: m[0].toLowerCase(),
      })),
    );
    const distinct = [...new Set(perText.flat().map((w) => w.word))];
    const stemmed = await stemsNow(distinct);
    const hit = new Set(
      distinct.filter((_, i) => (stemmed[i] ?? []).some((s) => queryStems.has(s))),
    );
    return texts.map((text, i) => {
      const ranges = (perText[i] ?? [])
        .filter((w) => hit.has(w.word))
        .map((w): [number, number] => [w.start, w.end]);
      if (text.length <= SNIPPET_MAX) return { text, highlights: ranges };
      let from = Math.max(0, (ranges[0]?.[0] ?? 0) - SNIPPET_LEAD);
      if (from > 0) {
        const space = text.indexOf(' ', from);
        from = space >= 0 && space < (ranges[0]?.[0] ?? 0) ? space + 1 : from;
      }
      let to = Math.min(text.length, from + SNIPPET_MAX);
      if (to < text.length) {
        const space = text.lastIndexOf(' ', to);
        if (space > from) to = space;
      }
      const prefix = from > 0 ? '\u2026' : '';
      const suffix = to < text.length ? '\u2026' : '';
      const shift = prefix.length - from;
      return {
        text: prefix + text.slice(from, to) + suffix,
        highlights: ranges
          .filter(([s, e]) => s >= from && e <= to)
          .map(([s, e]): [number, number] => [s + shift, e + shift]),
      };
    });
  }

  /** Hits for already-ranked chunks, in order, with snippets highlighting the query's terms. */
  async function buildHitsNow(
    parsed: ParsedQuery,
    ranked: ReadonlyArray<RankedForHits>,
  ): Promise<SearchHit[]> {
    if (ranked.length === 0) return [];
    const rows = await sql.all<{
      id: number;
      document_id: number;
      seq: number;
      path: string;
      start: number;
      end: number;
      text: string;
      title: string;
      mime: string;
    }>(
      `SELECT c.id, c.document_id, c.seq, d.path, c.start, c."end" AS "end", c.text, d.title, d.mime
       FROM chunks c JOIN documents d ON d.id = c.document_id
       WHERE c.id IN (SELECT value FROM json_each(?))`,
      [JSON.stringify(ranked.map((r) => r.chunkId))],
    );
    const byId = new Map(rows.map((r) => [Number(r.id), r]));
    const queryStems = new Set(
      (await stemsNow([...parsed.terms, ...parsed.phrases.flat()])).flat(),
    );
    const present = ranked.filter((r) => byId.has(r.chunkId)); // deleted since it was ranked
    const snips = await snippets(
      present.map((r) => String(byId.get(r.chunkId)?.text ?? '')),
      queryStems,
    );
    return present.map((r, i) => {
      const row = byId.get(r.chunkId)!;
      return {
        chunkId: r.chunkId,
        documentId: Number(row.document_id),
        path: String(row.path),
        title: String(row.title),
        mime: String(row.mime),
        seq: Number(row.seq),
        start: Number(row.start),
        end: Number(row.end),
        score: r.score,
        snippet: snips[i] ?? { text: '', highlights: [] },
        ranks: r.ranks,
        ...(r.relevance !== undefined ? { relevance: r.relevance } : {}),
      };
    });
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
    const hits = await buildHitsNow(
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
    buildHits: (query, ranked) => sql.serialized(() => buildHitsNow(parseQuery(query), ranked)),
  };
}
