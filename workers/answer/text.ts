// Text units of the answer pipeline: content terms with a light stem (for overlap features,
// independent of any corpus vocabulary), sentences with exact offsets (Intl.Segmenter), long
// sentences split at clause boundaries (CRAG-004), term weights from library statistics.
// Pure.
import { STOPWORDS, tokenize } from '../query-plan/text';

/** A light English stem: plural, -ing, -ed, -ly (enough to match "inhibits" with "inhibited"). */
export function stem(word: string): string {
  let w = word;
  if (w.length > 4 && w.endsWith('ies')) w = `${w.slice(0, -3)}y`;
  else if (w.length > 4 && /(sses|xes|ches|shes)$/.test(w)) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith('s') && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);
  if (w.length > 5 && w.endsWith('ing')) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith('ed')) w = w.slice(0, -2);
  else if (w.length > 5 && w.endsWith('ly')) w = w.slice(0, -2);
  if (w.length > 4 && w.endsWith('e')) w = w.slice(0, -1);
  return w;
}

/** Content words (stop words and 1-letter tokens dropped), in order. */
export function contentWords(text: string): string[] {
  return tokenize(text).filter((t) => !STOPWORDS.has(t) && t.length > 1);
}

/** Stems of the content words, in order (duplicates kept). */
export function contentStems(text: string): string[] {
  return contentWords(text).map(stem);
}

/** Number tokens of a text ("32,441" -> "32441", "0.5"). */
export function numbersOf(text: string): string[] {
  return (text.match(/\d+(?:[.,]\d+)*/g) ?? []).map((n) => n.replace(/,(?=\d{3}\b)/g, ''));
}

/** BM25's IDF from chunk counts. */
export function idf(total: number, df: number): number {
  return Math.log(1 + (total - df + 0.5) / (df + 0.5));
}

/** A text span with exact UTF-16 offsets into the text it came from. */
export interface Span {
  start: number;
  end: number;
  text: string;
}

const SEGMENTER = new Intl.Segmenter('en', { granularity: 'sentence' });

/** A segment that ends with a page reference's "p." or "pp.": the page number follows. */
const PAGE_REFERENCE_END = /(?:^|[\s(])pp?\.$/u;

/**
 * Sentences of `text[from, to)` by Intl.Segmenter, trimmed, offsets into `text`; a break between
 * "p." and its page number ("see pause mouse close (p. 102).") is not a sentence's end.
 */
export function sentences(text: string, from = 0, to = text.length): Span[] {
  const out: Span[] = [];
  let joinNext = false;
  for (const s of SEGMENTER.segment(text.slice(from, to))) {
    const lead = s.segment.length - s.segment.trimStart().length;
    const body = s.segment.trim();
    if (!body) continue;
    const start = from + s.index + lead;
    const end = start + body.length;
    const last = out[out.length - 1];
    if (joinNext && last && /^\d/u.test(body)) {
      last.end = end;
      last.text = text.slice(last.start, end);
    } else out.push({ start, end, text: body });
    joinNext = PAGE_REFERENCE_END.test(body);
  }
  return out;
}

export const LONG_SENTENCE_WORDS = 25;

/** Clause boundaries: after ; or : or a comma followed by a conjunction / relative word. */
const CLAUSE =
  /(?:[;:]\s+)|(?:,\s+(?=(?:and|but|or|whereas|while|although|though|which|whereas|however|because|since|so|yet|thus|whereby)\b))/g;

function wordCount(text: string): number {
  return text.match(/[\p{L}\p{N}]+/gu)?.length ?? 0;
}

/**
 * CRAG-004 strips: sentences; a sentence over 25 words split at clause boundaries (pieces of at
 * least 6 words, so a boundary never leaves a fragment). Offsets exact into `text`.
 */
export function strips(text: string, from = 0, to = text.length): Span[] {
  const out: Span[] = [];
  for (const s of sentences(text, from, to)) {
    if (wordCount(s.text) <= LONG_SENTENCE_WORDS) {
      out.push(s);
      continue;
    }
    let pieceStart = 0;
    CLAUSE.lastIndex = 0;
    for (let m = CLAUSE.exec(s.text); m; m = CLAUSE.exec(s.text)) {
      const cut = m.index + 1; // keep the punctuation with the left piece
      if (wordCount(s.text.slice(pieceStart, cut)) < 6) continue;
      if (wordCount(s.text.slice(m.index + m[0].length)) < 6) break;
      pushTrimmed(out, text, s.start + pieceStart, s.start + cut);
      pieceStart = m.index + m[0].length;
    }
    pushTrimmed(out, text, s.start + pieceStart, s.end);
  }
  return out;
}

function pushTrimmed(out: Span[], text: string, start: number, end: number): void {
  const raw = text.slice(start, end);
  const lead = raw.length - raw.trimStart().length;
  const body = raw.trim();
  if (body) out.push({ start: start + lead, end: start + lead + body.length, text: body });
}

/** Query terms: distinct content stems with their IDF weight (unknown: the rarest weight). */
export interface WeightedTerms {
  stems: string[];
  weights: number[];
  total: number;
}

/** Share of the query's term weight present in `stemSet`, and the unweighted share. */
export function coverage(
  q: WeightedTerms,
  stemSet: Set<string>,
): { weighted: number; plain: number } {
  if (q.stems.length === 0) return { weighted: 0, plain: 0 };
  let w = 0;
  let n = 0;
  q.stems.forEach((s, i) => {
    if (stemSet.has(s)) {
      w += q.weights[i]!;
      n++;
    }
  });
  return { weighted: q.total > 0 ? w / q.total : 0, plain: n / q.stems.length };
}

/** Share of adjacent query term pairs that occur within `window` tokens of each other. */
export function pairCoverage(queryStems: string[], textStems: string[], window = 4): number {
  const pairs: Array<[string, string]> = [];
  for (let i = 0; i + 1 < queryStems.length; i++)
    if (queryStems[i] !== queryStems[i + 1]) pairs.push([queryStems[i]!, queryStems[i + 1]!]);
  if (pairs.length === 0) return 0;
  const pos = new Map<string, number[]>();
  textStems.forEach((s, i) => {
    const l = pos.get(s);
    if (l) l.push(i);
    else pos.set(s, [i]);
  });
  let hit = 0;
  for (const [a, b] of pairs) {
    const pa = pos.get(a);
    const pb = pos.get(b);
    if (!pa || !pb) continue;
    if (pa.some((x) => pb.some((y) => Math.abs(x - y) <= window))) hit++;
  }
  return hit / pairs.length;
}
