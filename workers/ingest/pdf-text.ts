// A PDF's page texts as a reader sees them: running headers and footers and bare page numbers
// taken out, words split at a line end joined, wrapped lines joined into paragraphs, and where
// each page starts in the joined text. Pure functions over the lines pdfjs gives per page.
import { normaliseText } from './normalise';

/** The document text and the offset of each page that has text (`[page number, start]`). */
export interface PdfPages {
  text: string;
  pageStarts: Array<[number, number]>;
}

/**
 * A line at a page's top or bottom seen at the edges of at least this share of pages (and of three
 * pages) is running matter: running heads are often per chapter, so the share is low.
 */
const RUNNING_SHARE = 0.15;
/** How many lines at each end of a page can be running matter. */
const EDGE_LINES = 2;

const PAGE_NUMBER = /^(page\s+)?(\d{1,4}|[ivxlcdm]{1,7})(\s*(of|\/)\s*\d{1,4})?$/i;

/** A line's shape for spotting repeats: digits folded (page numbers change), spaces collapsed. */
const shape = (line: string) => line.trim().toLowerCase().replace(/\d+/g, '#').replace(/\s+/g, ' ');

/** The lines of each page at its top and bottom (their indexes), where running matter sits. */
function edgeIndexes(lines: string[]): number[] {
  const filled = lines.map((l, i) => (l.trim() ? i : -1)).filter((i) => i >= 0);
  return [...new Set([...filled.slice(0, EDGE_LINES), ...filled.slice(-EDGE_LINES)])];
}

/**
 * Removes running headers and footers (a line at a page's edge whose shape, digits folded, recurs
 * at the edges of 15% of the pages and of three pages or more) and bare page numbers at an edge.
 */
export function dropRunningLines(pages: string[][]): string[][] {
  const seen = new Map<string, number>();
  for (const lines of pages) {
    const shapes = new Set(edgeIndexes(lines).map((i) => shape(lines[i]!)));
    for (const s of shapes) seen.set(s, (seen.get(s) ?? 0) + 1);
  }
  const needed = Math.max(3, Math.ceil(pages.length * RUNNING_SHARE));
  const offset = pageLabelOffset(pages);
  return pages.map((lines, p) => {
    const drop = new Set(
      edgeIndexes(lines).filter((i) => {
        const line = lines[i]!.trim();
        if (PAGE_NUMBER.test(line) || (seen.get(shape(line)) ?? 0) >= needed) return true;
        // "Chapter 2: Structures 14": a head that carries the printed page number.
        const n = edgeNumber(line);
        return offset !== null && n !== null && p - n === offset;
      }),
    );
    return lines.filter((_, i) => !drop.has(i));
  });
}

/**
 * The number a line ends with after text (a printed page number in a running head), or null. A
 * leading number is left alone: it is how numbered section headings start ("2 Structures").
 */
function edgeNumber(line: string): number | null {
  const m = /\p{L}\S*\s+(\d{1,4})$/u.exec(line);
  return m ? Number(m[1]) : null;
}

/**
 * The constant difference between a page's index and the number printed in its running head, when
 * at least three pages agree on one (the front matter shifts printed numbers against the file's).
 */
function pageLabelOffset(pages: string[][]): number | null {
  const votes = new Map<number, number>();
  pages.forEach((lines, p) => {
    const offsets = new Set<number>();
    for (const i of edgeIndexes(lines)) {
      const n = edgeNumber(lines[i]!.trim());
      if (n !== null) offsets.add(p - n);
    }
    for (const d of offsets) votes.set(d, (votes.get(d) ?? 0) + 1);
  });
  let best: number | null = null;
  for (const [d, n] of votes) if (n >= 3 && (best === null || n > votes.get(best)!)) best = d;
  return best;
}

/** A line that reads as code or a table row: kept on its own line. */
const CODE_LIKE = /[{};=<>]|^\s{2,}\S|\.{4,}|\s{3,}/;

/**
 * Joins wrapped lines: a word split by a hyphen at the line end ("evalu-" + "ation") becomes one
 * word, and a line that does not end a sentence runs on into a next line that starts in lower
 * case. Blank lines, list items, headings, code-like lines and contents lines stay as they are.
 */
export function joinWrappedLines(lines: string[]): string[] {
  const out: string[] = [];
  for (const raw of lines) {
    const line = raw.replace(/\s+$/, '');
    const prev = out.length ? out[out.length - 1]! : null;
    const next = line.trimStart();
    if (prev !== null && prev.trim() && next && !CODE_LIKE.test(prev) && !CODE_LIKE.test(line)) {
      if (/[a-z]{2}-$/.test(prev) && /^[a-z]/.test(next)) {
        out[out.length - 1] = prev.slice(0, -1) + next;
        continue;
      }
      if (/[\p{L}\p{N}),]$/u.test(prev) && /^[a-z(]/.test(next)) {
        out[out.length - 1] = `${prev} ${next}`;
        continue;
      }
    }
    out.push(line);
  }
  return out;
}

/**
 * The document text of pages given as lines (pdfjs's text layer, one entry per page), cleaned as
 * above and normalised page by page (so `normaliseText(text) === text` and the page offsets hold
 * after the importer's normalisation). Pages without text are left out of `pageStarts`.
 */
export function readPdfPages(pages: string[][]): PdfPages {
  const cleaned = dropRunningLines(pages).map((lines) =>
    normaliseText(joinWrappedLines(lines).join('\n')),
  );
  let text = '';
  const pageStarts: Array<[number, number]> = [];
  cleaned.forEach((page, i) => {
    if (!page) return;
    if (text) text += '\n\n';
    pageStarts.push([i + 1, text.length]);
    text += page;
  });
  return { text, pageStarts };
}
