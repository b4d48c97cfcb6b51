// BM25 over FTS5's own statistics (CFS-012 section 3): the parameters (tunable k1, b and column
// weights, which the built-in bm25() fixes at 1.2/0.75), the index-wide inputs of a ranking
// (per-chunk lengths and documents from a snapshot kept until the library changes, the average
// length, N for the IDF) and one term's contribution to a chunk.
import type { TermPlan } from './lexical-prune';
import type { Sql } from './sql';

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
 * Defaults chosen on SciFact (see eval/README.md): k1/b from Anserini's tuned BEIR baseline;
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
export interface IndexSnapshot {
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
export interface Bm25Context {
  snap: IndexSnapshot;
  avgdl: number;
  /** N of the IDF: documents or chunks (`Bm25Params.idfUnit`). */
  nUnits: number;
}

/**
 * The index's BM25 inputs, read from FTS5's averages record and size table. `deps.version` (the
 * store's change counter) lets the per-chunk snapshot be kept between rankings.
 */
export function createIndexStatistics(
  sql: Sql,
  params: Bm25Params,
  deps: { version?: () => number },
): { bm25Context(): Promise<Bm25Context> } {
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

  /** The index-wide BM25 inputs of one ranking: snapshot, average length, N for IDF. */
  async function bm25Context(): Promise<Bm25Context> {
    const snap = await indexSnapshot();
    const [n, totalTitle, totalBody] = await totals();
    const avgdl = n > 0 ? (params.titleWeight * totalTitle + params.bodyWeight * totalBody) / n : 1;
    return { snap, avgdl, nUnits: params.idfUnit === 'document' ? snap.documents : n };
  }

  return { bm25Context };
}

/** One term's BM25 contribution to chunk `id` (0 when it does not occur). */
export function bm25Term(
  params: Bm25Params,
  ctx: Bm25Context,
  term: TermPlan,
  tfT: number,
  tfB: number,
  id: number,
): number {
  const { k1, b, titleWeight: wT, bodyWeight: wB } = params;
  const f = wT * tfT + wB * tfB;
  if (f <= 0) return 0;
  const dl = wT * ctx.snap.lenTitle[id]! + wB * ctx.snap.lenBody[id]!;
  return (term.q * term.idf * (f * (k1 + 1))) / (f + k1 * (1 - b + (b * dl) / ctx.avgdl));
}
