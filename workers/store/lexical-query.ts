// Turns any user input into a safe FTS5 MATCH expression (CFS-012 section 3): words and quoted
// phrases, stop words dropped, words OR-joined, phrases required. Every token is re-emitted as a
// double-quoted FTS5 string, so FTS5 syntax typed by the user is only ever searched as text.
// Pure.

/**
 * Lucene's English stop set (EnglishAnalyzer.ENGLISH_STOP_WORDS_SET, 33 words), the list
 * Anserini's BM25 baselines use; kept short on purpose so queries like "to be or not to be" or
 * "The Who" still find something (see `parseQuery`: all-stop-word queries keep their words).
 */
export const STOP_WORDS: ReadonlySet<string> = new Set([
  'a',
  'an',
  'and',
  'are',
  'as',
  'at',
  'be',
  'but',
  'by',
  'for',
  'if',
  'in',
  'into',
  'is',
  'it',
  'no',
  'not',
  'of',
  'on',
  'or',
  'such',
  'that',
  'the',
  'their',
  'then',
  'there',
  'these',
  'they',
  'this',
  'to',
  'was',
  'will',
  'with',
]);

/**
 * Input beyond this many UTF-16 code units is not read (`ParsedQuery.truncated` says so, and the
 * search shows a notice). 20,000 holds a pasted page ("find passages like this one", about 3,000
 * words); every word within it counts. Lexical search bounds the work of long queries itself
 * (lexical-search.ts), so this only bounds the tokenizer's input.
 */
export const MAX_QUERY_LENGTH = 20_000;

/** A run of letters/digits: the characters FTS5's unicode61 tokenizer keeps (L*, N*, Co). */
export const WORD_RE = /[\p{L}\p{N}\p{Co}]+/gu;

export interface ParsedQuery {
  /** Distinct lower-cased words to OR together (stop words removed). */
  terms: string[];
  /** How often each term occurred in the query (BM25 query-term weight, as Anserini does). */
  termCounts: number[];
  /** Quoted phrases as lists of lower-cased words; each must occur. */
  phrases: string[][];
  /** The FTS5 MATCH expression, or null when nothing is left to search. */
  match: string | null;
  /** Characters of the input beyond MAX_QUERY_LENGTH that were not read (0 when none). */
  truncated: number;
}

function words(text: string): string[] {
  return (text.match(WORD_RE) ?? []).map((w) => w.toLowerCase());
}

/** An FTS5 string literal: quoted, inner quotes doubled (the only escape FTS5 strings need). */
export function ftsString(text: string): string {
  return `"${text.replace(/"/g, '""')}"`;
}

/**
 * Parses a user query. Never throws; hostile input only changes what is searched.
 * Phrases: text between double quotes; an unbalanced quote is treated as a separator.
 */
export function parseQuery(input: string): ParsedQuery {
  const full = String(input ?? '');
  const text = full.slice(0, MAX_QUERY_LENGTH);
  const phrases: string[][] = [];
  const loose: string[] = [];
  const parts = text.split('"');
  // Even parts are outside quotes; odd parts are inside. With an odd number of quotes the
  // last part has no closing quote: its words count as loose words.
  parts.forEach((part, i) => {
    const inside = i % 2 === 1 && i < parts.length - 1;
    const ws = words(part);
    if (inside && ws.length > 1) phrases.push(ws);
    else loose.push(...ws);
  });

  let kept = loose.filter((w) => !STOP_WORDS.has(w));
  if (kept.length === 0 && phrases.length === 0) kept = loose; // "the who": search the words anyway

  const counts = new Map<string, number>();
  for (const w of kept) counts.set(w, (counts.get(w) ?? 0) + 1);
  const terms = [...counts.keys()];
  const termCounts = terms.map((t) => counts.get(t) ?? 1);
  const seen = new Set<string>();
  const uniquePhrases = phrases.filter((p) => {
    const key = p.join(' ');
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });

  let match: string | null = null;
  const ors = terms.map(ftsString).join(' OR ');
  const ands = uniquePhrases.map((p) => ftsString(p.join(' '))).join(' AND ');
  if (ands && ors) match = `${ands} AND (${ors})`;
  else if (ands) match = ands;
  else if (ors) match = ors;
  return {
    terms,
    termCounts,
    phrases: uniquePhrases,
    match,
    truncated: full.length - text.length,
  };
}
