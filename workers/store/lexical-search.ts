// Lexical search over the chunk index (CFS-012 section 3): parse, match with FTS5, rank with
// BM25 computed from FTS5's own statistics (tunable k1, b and column weights, which the
// built-in bm25() fixes at 1.2/0.75), filter, order deterministically, normalise, snippet.
// Speed: crossing from SQLite into JS per row dominates, so each stem's postings arrive as two id
// lists in one row, and per-chunk lengths and documents come from a snapshot kept until the
// library changes (100k chunks: rankChunks p50 about 24 ms, from 141 ms per-row; bench/README.md).
// Must not import any layer but workers/shared/.
import { createError } from '../shared/errors';
import type {
  HighlightedText,
  SearchFilters,
  SearchHit,
  SearchRequest,
  SearchResponse,
} from '../shared/types';
import { globToRegExp } from './glob';
import { gradesAtLeast } from '../shared/types';
import { parseQuery, WORD_RE, type ParsedQuery } from './lexical-query';
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
}

export interface LexicalSearch {
  /** The UI search: top hits with snippets and normalised scores. @throws AppError INVALID_ARGUMENT */
  search(request: SearchRequest): Promise<SearchResponse>;
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
  buildHits(
    query: string,
    ranked: ReadonlyArray<{ chunkId: number; score: number; ranks: SearchHit['ranks'] }>,
  ): Promise<SearchHit[]>;
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
  /** Number of documents (N for document-level IDF). */
  documents: number;
}

/** Ordering of CFS-012 section 6: score desc, document path asc, chunk sequence asc. */
export function compareHits(
  a: { score: number; path: string; seq: number },
  b: { score: number; path: string; seq: number },
): number {
  if (a.score !== b.score) return b.score - a.score;
  if (a.path !== b.path) return a.path < b.path ? -1 : 1;
  return a.seq - b.seq;
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
              (SELECT count(*) FROM documents) AS d`,
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

  async function rankChunksNow(
    query: string | ParsedQuery,
    options: { filters?: SearchFilters; limit?: number } = {},
  ): Promise<ScoredChunk[]> {
    const parsed = typeof query === 'string' ? parseQuery(query) : query;
    const filters = options.filters;
    validateFilters(filters);
    const limit = Math.max(1, Math.min(MAX_LIMIT, Math.floor(options.limit ?? DEFAULT_LIMIT)));
    if (!parsed.match) return [];

    // Query-term weights per stem (a repeated query word counts more, as in Anserini).
    const words = [...parsed.terms, ...parsed.phrases.flat()];
    const counts = [...parsed.termCounts, ...parsed.phrases.flat().map(() => 1)];
    const stemLists = await stemsNow(words);
    const qWeight = new Map<string, number>();
    stemLists.forEach((list, i) => {
      for (const stem of list) qWeight.set(stem, (qWeight.get(stem) ?? 0) + (counts[i] ?? 1));
    });

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
      where.push(`d.quality_grade IN (${grades.map(() => '?').join(', ')})`);
      binds.push(...grades);
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

    // Candidates: chunks matching the query. Without filters or phrases they are exactly the
    // chunks holding one of the query stems, which the postings below list anyway; otherwise
    // FTS5 MATCH (with the documents join for filters) decides.
    const singleStems = stemLists.every((l) => l.length === 1);
    const needsJoin = where.length > 1 || pathRe !== null || unicodeNeedle !== null;
    let allowed: Set<number> | null = null;
    if (needsJoin || parsed.phrases.length > 0 || !singleStems) {
      allowed = new Set<number>();
      const set = allowed;
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
          set.add(Number(row.id));
        },
      );
      if (allowed.size === 0) return [];
    }

    const snap = await indexSnapshot();
    const [n, totalTitle, totalBody] = await totals();
    const { k1, b, titleWeight: wT, bodyWeight: wB } = params;
    const avgdl = n > 0 ? (wT * totalTitle + wB * totalBody) / n : 1;
    const byDocument = params.idfUnit === 'document';
    const nUnits = byDocument ? snap.documents : n;
    const scores = new Float64Array(snap.size);
    const scored: number[] = [];
    const isScored = new Uint8Array(snap.size);
    const tfTitle = new Int32Array(snap.size);
    const tfBody = new Int32Array(snap.size);
    const docStamp = new Int32Array(snap.size + 1);
    const touched: number[] = [];
    let stamp = 0;
    for (const [stem, q] of qWeight) {
      // Every occurrence of the stem (fts5vocab 'instance'), as two id lists in one row each:
      // counted here, which is several times faster than one row per chunk.
      const post = await sql.get<{ t: string | null; b: string | null }>(
        `SELECT group_concat(CASE WHEN col = 'title' THEN doc END) AS t,
                group_concat(CASE WHEN col = 'title' THEN NULL ELSE doc END) AS b
         FROM temp.sift_chunks_vi WHERE term = ?`,
        [stem],
      );
      touched.length = 0;
      let outside = false; // an id beyond the snapshot: counted for df as an unknown document
      const count = (tf: Int32Array, other: Int32Array) => (id: number) => {
        if (id >= snap.size) outside = true;
        else {
          if (tf[id] === 0 && other[id] === 0) touched.push(id);
          tf[id] = tf[id]! + 1;
        }
      };
      forEachInt(post?.t ?? null, count(tfTitle, tfBody));
      forEachInt(post?.b ?? null, count(tfBody, tfTitle));
      let df = touched.length + (outside ? 1 : 0);
      if (byDocument) {
        stamp++;
        df = 0;
        let unknown = outside;
        for (const id of touched) {
          const d = snap.docOf[id]!;
          if (d < 0) unknown = true;
          else if (docStamp[d] !== stamp) {
            docStamp[d] = stamp;
            df++;
          }
        }
        if (unknown) df++;
      }
      if (df === 0) continue;
      const idf = Math.log(1 + (nUnits - df + 0.5) / (df + 0.5));
      for (const id of touched) {
        const f = wT * tfTitle[id]! + wB * tfBody[id]!;
        tfTitle[id] = 0;
        tfBody[id] = 0;
        // Not in the index's size table (not a live row), or not a candidate.
        if (f <= 0 || snap.lenBody[id]! < 0 || (allowed && !allowed.has(id))) continue;
        const dl = wT * snap.lenTitle[id]! + wB * snap.lenBody[id]!;
        if (!isScored[id]) {
          isScored[id] = 1;
          scored.push(id);
        }
        scores[id] =
          scores[id]! + (q * idf * (f * (k1 + 1))) / (f + k1 * (1 - b + (b * dl) / avgdl));
      }
    }
    if (scored.length === 0) return [];

    // Cut by score first, keeping every chunk tied with the last place, then fetch path and
    // sequence for those few so the tie-break (path, seq) is exact.
    const ranked = Float64Array.from(scored, (id) => scores[id]!).sort();
    const floor = ranked[Math.max(0, ranked.length - limit)]!;
    const pool = scored
      .filter((id) => scores[id]! >= floor)
      .map((id) => ({ id, documentId: -1, path: '', seq: 0, score: scores[id]! }));
    const byId = new Map(pool.map((c) => [c.id, c]));
    await sql.each(
      `SELECT c.id AS id, c.document_id AS document_id, c.seq AS seq, d.path AS path
       FROM chunks c JOIN documents d ON d.id = c.document_id
       WHERE c.id IN (SELECT value FROM json_each(?))`,
      [JSON.stringify(pool.map((c) => c.id))],
      (row) => {
        const cand = byId.get(Number(row.id));
        if (!cand) return;
        cand.documentId = Number(row.document_id);
        cand.seq = Number(row.seq);
        cand.path = String(row.path);
      },
    );
    return pool
      .filter((c) => c.documentId >= 0) // deleted meanwhile
      .sort(compareHits)
      .slice(0, limit)
      .map((c) => ({
        chunkId: c.id,
        documentId: c.documentId,
        path: c.path,
        seq: c.seq,
        score: c.score,
      }));
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
    ranked: ReadonlyArray<{ chunkId: number; score: number; ranks: SearchHit['ranks'] }>,
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
      };
    });
  }

  async function searchNow(request: SearchRequest): Promise<SearchResponse> {
    const started = now();
    const parsed = parseQuery(request.query);
    const terms = [...parsed.terms, ...parsed.phrases.map((p) => p.join(' '))];
    const ranked = await rankChunksNow(parsed, {
      ...(request.filters ? { filters: request.filters } : {}),
      limit: Math.min(request.limit ?? DEFAULT_LIMIT, 100),
    });
    if (ranked.length === 0) return { hits: [], mode: 'lexical', tookMs: now() - started, terms };
    const scores = normaliseScores(ranked.map((r) => r.score));
    const hits = await buildHitsNow(
      parsed,
      ranked.map((r, i) => ({
        chunkId: r.chunkId,
        score: scores[i] ?? 0,
        ranks: { lexical: i + 1 },
      })),
    );
    return { hits, mode: 'lexical', tookMs: now() - started, terms };
  }

  // Every call runs in the connection's queue (Sql.serialized): it then never sees another
  // call's uncommitted transaction, and overlapping searches (search-as-you-type) take turns
  // on the shared tokenizer scratch table instead of reading each other's words.
  return {
    search: (request) => sql.serialized(() => searchNow(request)),
    rankChunks: (query, options) => sql.serialized(() => rankChunksNow(query, options)),
    stems: (words) => sql.serialized(() => stemsNow(words)),
    buildHits: (query, ranked) => sql.serialized(() => buildHitsNow(parseQuery(query), ranked)),
  };
}
