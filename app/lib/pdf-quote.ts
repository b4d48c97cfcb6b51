// Finding a cited quote in a PDF's text: which page holds it, and the rectangles (PDF user space)
// to highlight on that page. Pure: pdf.js text items in, numbers out; the page view draws them.
// Matching ignores case, whitespace, hyphens and dashes, so line breaks and "hyphen-\nated"
// words in the PDF still match the stored (normalised) text.

/** The part of a pdf.js text item (`page.getTextContent().items`) the matcher reads. */
export interface PdfTextItem {
  str: string;
  /** [a, b, c, d, e, f]: the glyph run's transform; (e, f) is its baseline origin. */
  transform: number[];
  width: number;
  height: number;
}

/** A highlight rectangle in PDF user space (origin bottom-left, y up), as pdf.js viewports take. */
export interface QuoteRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface QuoteMatch {
  rects: QuoteRect[];
  /** The whole quote was found; false: only its longest beginning or end (it crosses a page). */
  whole: boolean;
}

/** A partial match shorter than this (canonical characters) is no match at all. */
export const MIN_PARTIAL_CHARS = 24;

// Dropped when matching: whitespace, soft hyphen, hyphens and dashes (U+2010..U+2015, '-').
const IGNORED = /[\s\u00ad\u2010-\u2015-]/u;
const QUOTES: Record<string, string> = {
  '\u2018': "'",
  '\u2019': "'",
  '\u201c': '"',
  '\u201d': '"',
};

/** The matching form of one code point: NFKC, lower case, ignored characters gone. */
function canonicalChars(ch: string): string {
  let out = '';
  for (const c of ch.normalize('NFKC').toLowerCase()) {
    if (!IGNORED.test(c)) out += QUOTES[c] ?? c;
  }
  return out;
}

/** Text in matching form. */
export function canonicalText(text: string): string {
  let out = '';
  for (const ch of text) out += canonicalChars(ch);
  return out;
}

/** A page's text in matching form, each character traced back to its item and offset. */
interface CanonicalPage {
  text: string;
  item: number[];
  offset: number[];
}

function canonicalPage(items: PdfTextItem[]): CanonicalPage {
  const page: CanonicalPage = { text: '', item: [], offset: [] };
  items.forEach((it, i) => {
    let offset = 0;
    for (const ch of it.str) {
      for (const c of canonicalChars(ch)) {
        page.text += c;
        page.item.push(i);
        page.offset.push(offset);
      }
      offset += ch.length;
    }
  });
  return page;
}

/** Where `quote` (matching form) sits in `hay`: whole, else its longest beginning or end. */
function locate(
  hay: string,
  quote: string,
): { start: number; length: number; whole: boolean } | null {
  if (!quote) return null;
  const at = hay.indexOf(quote);
  if (at >= 0) return { start: at, length: quote.length, whole: true };
  const min = Math.min(MIN_PARTIAL_CHARS, quote.length);
  const head = longest(min, quote.length - 1, (n) => hay.indexOf(quote.slice(0, n)));
  const tail = longest(min, quote.length - 1, (n) => hay.indexOf(quote.slice(quote.length - n)));
  const best = head && (!tail || head.length >= tail.length) ? head : tail;
  return best ? { ...best, whole: false } : null;
}

/** The largest n in [lo, hi] with find(n) >= 0 (found prefixes/suffixes shrink monotonically). */
function longest(
  lo: number,
  hi: number,
  find: (n: number) => number,
): { start: number; length: number } | null {
  if (lo > hi || find(lo) < 0) return null;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (find(mid) >= 0) lo = mid;
    else hi = mid - 1;
  }
  return { start: find(lo), length: lo };
}

/** One rectangle per text item the span [start, start + length) touches. */
function spanRects(page: CanonicalPage, items: PdfTextItem[], start: number, length: number) {
  const byItem = new Map<number, { from: number; to: number }>();
  for (let k = start; k < start + length; k++) {
    const i = page.item[k]!;
    const o = page.offset[k]!;
    const seen = byItem.get(i);
    byItem.set(
      i,
      seen ? { from: Math.min(seen.from, o), to: Math.max(seen.to, o) } : { from: o, to: o },
    );
  }
  const rects: QuoteRect[] = [];
  for (const [i, { from, to }] of byItem) {
    const it = items[i]!;
    const [, , c = 0, d = 0, e = 0, f = 0] = it.transform;
    const size = Math.hypot(c, d) || it.height;
    const chars = Math.max(1, it.str.length);
    rects.push({
      x: e + (it.width * from) / chars,
      // From below the baseline (descenders) to above the cap height.
      y: f - size * 0.25,
      width: (it.width * (to + 1 - from)) / chars,
      height: size * 1.2,
    });
  }
  return rects;
}

/**
 * The highlight for `quote` on a page with these text items, or null when neither the quote nor a
 * long enough beginning or end of it is on the page.
 */
export function matchQuote(items: PdfTextItem[], quote: string): QuoteMatch | null {
  const page = canonicalPage(items);
  const found = locate(page.text, canonicalText(quote));
  if (!found) return null;
  return { rects: spanRects(page, items, found.start, found.length), whole: found.whole };
}

/** A page's text as the matcher sees it (the items' strings run together). */
export function pageText(items: ReadonlyArray<object>): string {
  let text = '';
  for (const it of items) if ('str' in it && typeof it.str === 'string') text += it.str;
  return text;
}

/**
 * The page (1-based) that holds `quote`, given every page's text in order: a whole match beats a
 * partial one, a longer partial beats a shorter, and among equals the page nearest `hint` (else
 * the first) wins. Null when no page holds it.
 */
export function findQuotePage(
  pages: string[],
  quote: string,
  hint?: number,
): { page: number; whole: boolean } | null {
  const q = canonicalText(quote);
  let best: { page: number; whole: boolean; length: number } | null = null;
  const distance = (p: number) => (hint === undefined ? p : Math.abs(p - hint));
  pages.forEach((text, i) => {
    const found = locate(canonicalText(text), q);
    if (!found) return;
    const page = i + 1;
    const better =
      !best ||
      found.length > best.length ||
      (found.length === best.length && distance(page) < distance(best.page));
    if (better) best = { page, whole: found.whole, length: found.length };
  });
  if (!best) return null;
  const { page, whole } = best;
  return { page, whole };
}
