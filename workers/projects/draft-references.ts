// A pasted draft's own reference list: lines such as "[1] notes/a.txt", "1. https://x.org/a" or
// "[2]: Vitamin D trial" name the source behind each citation number. The body (without those
// lines) is what claims are extracted from; a label is matched to a library document by path,
// URL or title. Pure.
import type { DocumentSummary } from '../shared/types';

export interface DraftReferences {
  /** The draft without its reference lines (and without a "References" heading). */
  body: string;
  /** Citation number -> the label as written. */
  references: Map<string, string>;
}

/** The marker of a reference line; the label is the trimmed rest (no lazy `.*?` then `\s*$`:
 * that pair backtracks quadratically over a long run of inner spaces). */
const REF_MARKER = /^\s*(?:\[(\d+)\]:?|(\d+)[.)])\s/;

/** A reference line's number and label, or null. */
function refLine(line: string): { n: string; label: string } | null {
  const m = REF_MARKER.exec(line);
  if (!m) return null;
  const label = line.slice(m[0].length).trim();
  return label ? { n: m[1] ?? m[2]!, label } : null;
}
const HEADING = /^\s*(?:#{1,6}\s*)?(references|sources|bibliography|works cited)\s*:?\s*$/i;

export function parseDraftReferences(draft: string): DraftReferences {
  const references = new Map<string, string>();
  const lines = draft.split('\n');
  // Reference lines count only in the trailing block (after the last line of prose), so a
  // numbered list inside the text stays text.
  let start = lines.length;
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]!;
    if (line.trim() === '' || refLine(line) || HEADING.test(line)) start = i;
    else break;
  }
  for (const line of lines.slice(start)) {
    const ref = refLine(line);
    if (ref) references.set(ref.n, ref.label);
  }
  if (references.size === 0) return { body: draft, references };
  return { body: lines.slice(0, start).join('\n'), references };
}

/**
 * The draft with the citation `n` of the sentence at `at` pointing to `label` instead: that
 * marker gets a new number (one past the highest in the draft) and the reference block a line
 * for it, so the same number cited elsewhere keeps its source.
 * @returns the draft unchanged when the sentence has no marker `n`.
 */
export function replaceCitation(
  draft: string,
  at: { start: number; end: number },
  n: string,
  label: string,
): string {
  const numbers = [...draft.matchAll(/\[(\d+(?:\s*[,–-]\s*\d+)*)\]|^\s*(\d+)[.)]\s/gm)].flatMap(
    (m) => (m[1] ?? m[2]!).split(/\s*[,–-]\s*/).map(Number),
  );
  const next = String(Math.max(0, ...numbers) + 1);
  const sentence = draft.slice(at.start, at.end);
  let done = false;
  const replaced = sentence.replace(/\[(\d+(?:\s*[,–-]\s*\d+)*)\]/g, (whole, inner: string) => {
    if (done) return whole;
    const parts = inner.split(/(\s*,\s*)/);
    const i = parts.findIndex((p) => p.trim() === n);
    if (i < 0) return whole;
    done = true;
    parts[i] = next;
    return `[${parts.join('')}]`;
  });
  if (!done) return draft;
  const body = draft.slice(0, at.start) + replaced + draft.slice(at.end);
  const { references } = parseDraftReferences(draft);
  const line = `[${next}] ${label}`;
  if (references.size > 0) return `${body.replace(/\s*$/, '')}\n${line}\n`;
  return `${body.replace(/\s*$/, '')}\n\nReferences\n${line}\n`;
}

/** The library document a reference label names (path, URL, title; then a path suffix), or null. */
export function matchReference(
  label: string,
  documents: DocumentSummary[],
): DocumentSummary | null {
  const want = label.trim().toLowerCase();
  if (!want) return null;
  const exact = documents.find(
    (d) =>
      d.path.toLowerCase() === want ||
      d.sourceUrl?.toLowerCase() === want ||
      d.title.trim().toLowerCase() === want,
  );
  if (exact) return exact;
  return documents.find((d) => d.path.toLowerCase().endsWith(`/${want}`)) ?? null;
}
