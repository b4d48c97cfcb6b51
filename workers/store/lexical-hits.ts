// Hits for chunks ranked by any path: their rows (chunks deleted since the ranking are left out)
// and snippets highlighting every word whose stem is a query stem, trimmed to a window around
// the first. Stems come from the caller (the index's own tokenizer).
import { pagesOf, parsePageStarts, type PageStarts } from '../shared/pages';
import { parseSections, sectionAt, type SectionStarts } from '../shared/sections';
import type { HighlightedText, SearchHit } from '../shared/types';
import { WORD_RE, type ParsedQuery } from './lexical-query';
import type { Sql } from './sql';

const SNIPPET_MAX = 280;
const SNIPPET_LEAD = 60;

/** A chunk ranked elsewhere, to become a hit (its band, when rated, is carried over). */
export type RankedForHits = Pick<SearchHit, 'chunkId' | 'score' | 'ranks' | 'relevance'>;

/** Stems of words as the index sees them; one list per input word. */
type StemsFn = (words: string[]) => Promise<string[][]>;

/** Highlights every word whose stem is a query stem; trims long chunks to a window. */
async function snippets(
  stems: StemsFn,
  texts: string[],
  queryStems: Set<string>,
): Promise<HighlightedText[]> {
  const perText = texts.map((text) =>
    [...text.matchAll(WORD_RE)].map((m) => ({
      start: m.index,
      end: m.index + m[0].length,
      word: m[0].toLowerCase(),
    })),
  );
  const distinct = [...new Set(perText.flat().map((w) => w.word))];
  const stemmed = await stems(distinct);
  const hit = new Set(distinct.filter((_, i) => (stemmed[i] ?? []).some((s) => queryStems.has(s))));
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
export async function buildHits(
  sql: Sql,
  stems: StemsFn,
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
    page_starts: string | null;
    sections: string | null;
  }>(
    `SELECT c.id, c.document_id, c.seq, d.path, c.start, c."end" AS "end", c.text, d.title, d.mime,
            d.page_starts, d.sections
     FROM chunks c JOIN documents d ON d.id = c.document_id
     WHERE c.id IN (SELECT value FROM json_each(?))`,
    [JSON.stringify(ranked.map((r) => r.chunkId))],
  );
  const byId = new Map(rows.map((r) => [Number(r.id), r]));
  const queryStems = new Set((await stems([...parsed.terms, ...parsed.phrases.flat()])).flat());
  const present = ranked.filter((r) => byId.has(r.chunkId)); // deleted since it was ranked
  const snips = await snippets(
    stems,
    present.map((r) => String(byId.get(r.chunkId)?.text ?? '')),
    queryStems,
  );
  const pageMaps = new Map<number, PageStarts | null>(); // each document's parsed once
  const pageMap = (row: { document_id: number; page_starts: string | null }) => {
    const id = Number(row.document_id);
    if (!pageMaps.has(id)) pageMaps.set(id, parsePageStarts(row.page_starts));
    return pageMaps.get(id)!;
  };
  const sectionMaps = new Map<number, SectionStarts | null>();
  const sectionMap = (row: { document_id: number; sections: string | null }) => {
    const id = Number(row.document_id);
    if (!sectionMaps.has(id)) sectionMaps.set(id, parseSections(row.sections));
    return sectionMaps.get(id)!;
  };
  return present.map((r, i) => {
    const row = byId.get(r.chunkId)!;
    const pages = pagesOf(pageMap(row), Number(row.start), Number(row.end));
    const section = sectionAt(sectionMap(row), Number(row.start));
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
      ...(pages ? { pages } : {}),
      ...(section ? { section } : {}),
      ...(r.relevance !== undefined ? { relevance: r.relevance } : {}),
    };
  });
}
