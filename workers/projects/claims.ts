// Claims from an answer or a pasted draft without an LLM: split into sentences, drop what is not
// a checkable statement (questions, headings, very short fragments), strip citation markers
// ("[1]", "(Smith 2020)") but remember them, and cap the list (500 pasted claims are processed in
// batches by the caller). The user edits the list afterwards.
import { splitSentences, type SentenceSpan } from './sentences';

export interface ExtractedClaim {
  text: string;
  /** Citation markers found in the sentence, e.g. ["1", "3"] for "[1][3]". */
  citations: string[];
  start: number;
  end: number;
}

export const MAX_CLAIMS = 500;
const LEADING_MARKERS = /^(?:\s*\[\d+(?:\s*[,–-]\s*\d+)*\])+\s*/;
const MIN_WORDS = 4;

export function extractClaims(draft: string, max = MAX_CLAIMS): ExtractedClaim[] {
  const out: ExtractedClaim[] = [];
  for (const line of lineSpans(draft)) {
    if (/^\s*(#{1,6}\s|[-*]\s*$)/.test(line.text)) continue; // Markdown heading or empty bullet
    const body = line.text.replace(/^\s*(?:[-*+]|\d+[.)])\s+/, (m) => ' '.repeat(m.length));
    let previous: ExtractedClaim | null = null;
    for (const span of splitSentences(body)) {
      // Markers written after the full stop ("... fever. [1] Next ...") belong to the sentence
      // before: the splitter starts the next sentence with them.
      const lead = LEADING_MARKERS.exec(span.text)?.[0] ?? '';
      if (previous && lead) {
        previous.citations.push(...markers(lead));
        previous.end = line.start + span.start + lead.trimEnd().length;
      }
      const s: SentenceSpan =
        previous && lead
          ? { ...span, text: span.text.slice(lead.length), start: span.start + lead.length }
          : span;
      previous = null;
      if (out.length >= max) return out;
      const citations = markers(s.text);
      const text = s.text
        .replace(/\s*\[\d+(?:\s*[,–-]\s*\d+)*\]/g, '')
        .replace(/\s+/g, ' ')
        .trim();
      if (text.endsWith('?') || text.endsWith(':')) continue;
      if ((text.match(/[\p{L}\p{N}]+/gu) ?? []).length < MIN_WORDS) continue;
      previous = { text, citations, start: line.start + s.start, end: line.start + s.end };
      out.push(previous);
    }
  }
  return out;
}

/** The citation numbers of "[1]", "[1, 3]" markers, as written. */
function markers(text: string): string[] {
  return [...text.matchAll(/\[(\d+(?:\s*[,–-]\s*\d+)*)\]/g)].flatMap((m) => m[1]!.split(/\s*,\s*/));
}

function lineSpans(text: string): Array<{ text: string; start: number }> {
  const out: Array<{ text: string; start: number }> = [];
  let start = 0;
  for (const part of text.split('\n')) {
    out.push({ text: part, start });
    start += part.length + 1;
  }
  return out;
}
