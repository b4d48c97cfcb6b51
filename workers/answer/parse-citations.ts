// Citations in a generated answer: splits the model's text into sentences (Intl.Segmenter), takes
// the [n] markers after each one (a marker written after the full stop belongs to the sentence
// before it), and drops numbers that were not in the context. Pure.
import type { AnswerReference, Strip } from '../shared/answer-api';

export interface ParsedSentence {
  /** The sentence without its citation markers. */
  text: string;
  /** Context numbers cited (1-based into the prompt's sources), in order, no repeats. */
  numbers: number[];
  /** Numbers written but not in the context (a made-up source): dropped. */
  dropped: number[];
}

/** `[1]`, `[1, 3]`, `[2-4]`, `[Source 2]`, `[S2; S5]`; consecutive groups are read one by one. */
const GROUP =
  /\[\s*((?:(?:source|src|s|ref)\s*)?\d+(?:\s*(?:[-–,;]|and)\s*(?:(?:source|src|s|ref)\s*)?\d+)*)\s*\]/gi;
/** A range wider than this is read as its two ends only (a model writing [1-999] cites nothing). */
const MAX_RANGE = 10;

const SEGMENTER = new Intl.Segmenter('en', { granularity: 'sentence' });

function numbersIn(group: string): number[] {
  const out: number[] = [];
  const body = group.replace(/(?:source|src|s|ref)\s*/gi, '');
  for (const part of body.split(/\s*(?:[,;]|and)\s*/i)) {
    const range = /^(\d+)\s*[-–]\s*(\d+)$/.exec(part);
    if (range) {
      const a = Number(range[1]);
      const b = Number(range[2]);
      if (b >= a && b - a <= MAX_RANGE) for (let n = a; n <= b; n++) out.push(n);
      else out.push(a, b);
    } else if (/^\d+$/.test(part)) out.push(Number(part));
  }
  return out;
}

/** Every number in the citation groups of `text`, and the text with the groups removed. */
function takeCitations(text: string): { rest: string; numbers: number[] } {
  const numbers: number[] = [];
  const rest = text.replace(GROUP, (_m, group: string) => {
    numbers.push(...numbersIn(group));
    return '';
  });
  return { rest: tidy(rest), numbers };
}

/** Removes the spaces a removed marker leaves before punctuation or at the ends. */
function tidy(text: string): string {
  return text
    .replace(/\s+([.,;:!?)])/g, '$1')
    .replace(/\s{2,}/g, ' ')
    .trim();
}

/**
 * Parses a generated answer.
 * @param contextSize how many numbered sources the prompt gave (valid numbers are 1..contextSize)
 */
export function parseCitations(text: string, contextSize: number): ParsedSentence[] {
  const raw: Array<{ text: string; numbers: number[] }> = [];
  for (const segment of sentenceSegments(text)) {
    const { rest, numbers } = takeCitations(segment);
    const prev = raw[raw.length - 1];
    if (!/[\p{L}\p{N}]/u.test(rest)) {
      // Markers alone (after a full stop the segmenter kept apart) cite the sentence before.
      prev?.numbers.push(...numbers);
      continue;
    }
    raw.push({ text: rest, numbers });
  }
  return raw.map((s) => {
    const seen = [...new Set(s.numbers)];
    return {
      text: s.text,
      numbers: seen.filter((n) => n >= 1 && n <= contextSize),
      dropped: seen.filter((n) => n < 1 || n > contextSize),
    };
  });
}

/** Abbreviations that end a segment without ending the sentence. */
const ABBREVIATION = /\b(?:e\.g|i\.e|et al|etc|vs|cf|fig|no|approx)\.\s*$/i;

/**
 * Sentences of a generated text. Markers written after the full stop ("fever.[1]") are moved
 * before it first, so the segmenter keeps them with their sentence.
 */
function sentenceSegments(text: string): string[] {
  const moved = text.replace(
    /([.!?]["”’)]?)((?:\s*\[[^\]\n]{1,40}\])+)/g,
    (_m, stop: string, groups: string) => ` ${groups.trim()}${stop}`,
  );
  const out: string[] = [];
  let carry = '';
  for (const { segment } of SEGMENTER.segment(moved)) {
    const joined = carry + segment;
    if (ABBREVIATION.test(joined)) {
      carry = joined;
      continue;
    }
    carry = '';
    if (joined.trim()) out.push(joined.trim());
  }
  if (carry.trim()) out.push(carry.trim());
  return out;
}

/** A generated answer's sentences tied to strips, and its reference list (in citation order). */
export interface CitedDraft {
  sentences: Array<{
    text: string;
    /** 1-based into `references`. */
    citations: number[];
    stripIds: string[];
    /** Context numbers the model wrote that were not in the context. */
    dropped: number[];
  }>;
  references: AnswerReference[];
}

/**
 * Turns parsed sentences into references: each cited document (a library document, or a web
 * page by URL) gets one reference number, in order of first citation, so [n] in the answer counts
 * 1, 2, 3... whatever numbers the prompt used, and the list never names one document twice
 * (the reference points at the first strip cited from it; each sentence keeps its own strips).
 * @param toReference builds a reference for a strip (the extractive answer's own builder)
 */
export function citedDraft(
  parsed: ParsedSentence[],
  strips: Strip[],
  toReference: (strip: Strip, n: number) => AnswerReference,
): CitedDraft {
  const refOf = new Map<string, number>(); // document key -> reference number
  const references: AnswerReference[] = [];
  const sentences = parsed.map((p) => {
    const citations: number[] = [];
    const stripIds: string[] = [];
    for (const k of p.numbers) {
      const strip = strips[k - 1];
      if (!strip) continue;
      const key = documentKey(strip);
      let n = refOf.get(key);
      if (n === undefined) {
        n = references.length + 1;
        refOf.set(key, n);
        references.push(toReference(strip, n));
      }
      if (!citations.includes(n)) citations.push(n);
      stripIds.push(strip.id);
    }
    return { text: p.text, citations, stripIds, dropped: p.dropped };
  });
  return { sentences, references };
}

/** What makes two strips one source in the reference list. */
function documentKey(strip: Strip): string {
  if (strip.source === 'web') return `w:${strip.url ?? strip.id}`;
  return strip.documentId === null ? `s:${strip.id}` : `d:${strip.documentId}`;
}
