// Contents and index pages: lines that name a topic and the page it is on ("3.4 Indexing . . . 12",
// "Print 127", "asn1Coding program, 12, 15"), not prose. One place for the rule that keeps them out
// of answers (a line) and ranks their chunks below other matches in search (a chunk).

/** Dot leaders (five dots or more, spaced or not): a line of a contents or index page. */
const DOT_LEADER = /(?:\.\s?){5,}/u;

/** A line that ends with page numbers after a word: "Print 127", "scope, 12, 15-17". */
const ENTRY = /\p{L}.*?(?:(?:\.\s?){2,}|[\s,])\s*\d{1,4}(?:\s*[,–-]\s*\d{1,4})*\s*$/u;

/** Whether a strip or line is a line of a contents or index page rather than prose. */
export function isContentsLine(text: string): boolean {
  return DOT_LEADER.test(text);
}

/** Lines a chunk needs before it can read as a contents or index page. */
export const CONTENTS_MIN_LINES = 4;
/** Share of its lines that must be entries (or dot leaders). */
export const CONTENTS_ENTRY_SHARE = 0.6;

/**
 * Whether a chunk reads as part of a contents or index page: at least CONTENTS_MIN_LINES short
 * lines, most of them entries that end with page numbers or run dot leaders.
 */
export function isContentsChunk(text: string): boolean {
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  if (lines.length < CONTENTS_MIN_LINES) return false;
  const entries = lines.filter(
    (l) => DOT_LEADER.test(l) || (l.length <= 100 && ENTRY.test(l)),
  ).length;
  return entries / lines.length >= CONTENTS_ENTRY_SHARE;
}
