// Paragraph-aware chunking of a document's plain text into overlapping passages.
// Owns: where chunks start and end (offsets into the exact input string, UTF-16 code units).
// The store and the UI rely on `chunk.text === text.slice(chunk.start, chunk.end)` to show a hit
// in place.
import { createError } from '../shared/errors';
import type { ChunkInput } from '../shared/types';

export interface ChunkOptions {
  /** Target maximum chunk length in UTF-16 code units (the spec's "about 500 characters"). */
  size?: number;
  /** Characters the next chunk repeats from the end of the previous one (about 50). */
  overlap?: number;
}

export const DEFAULT_CHUNK_SIZE = 500;
export const DEFAULT_CHUNK_OVERLAP = 50;

// A break is only taken if the chunk is at least this full; otherwise a worse-ranked
// break later in the window wins (packs small paragraphs together instead of one per chunk).
const MIN_FILL_PARAGRAPH = 0.3;
const MIN_FILL_OTHER = 0.5;

const SENTENCE_END = new Set(['.', '!', '?', '\u2026', '\u3002', '\uff01', '\uff1f']);
// Closing quotes/brackets that may sit between a sentence end and the following space.
const CLOSERS = new Set(['"', "'", ')', ']', '}', '\u201d', '\u2019', '\u00bb', '\u300d']);

function isWs(ch: string | undefined): boolean {
  // Covers ASCII whitespace, NBSP, Unicode spaces, line/paragraph separators, BOM.
  return ch !== undefined && /\s/.test(ch);
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** Whether the whitespace run starting at `i` contains a blank line (two line breaks). */
function runHasBlankLine(text: string, i: number): boolean {
  let newlines = 0;
  for (let j = i; j < text.length; j++) {
    const ch = text[j];
    if (!isWs(ch)) return false;
    if (ch === '\n' || ch === '\u2029') newlines++;
    else if (ch === '\r' && text[j + 1] !== '\n') newlines++; // lone CR (old Mac) ends a line
    if (newlines >= 2) return true;
  }
  return false;
}

function isSentenceEnd(text: string, b: number, pos: number): boolean {
  let k = b - 1;
  while (k > pos && CLOSERS.has(text[k] ?? '')) k--;
  return SENTENCE_END.has(text[k] ?? '');
}

/**
 * Chooses where the chunk starting at `pos` ends (exclusive, before trimming), for a chunk that
 * cannot take the rest of the text. Preference: blank line, sentence end, any whitespace, and
 * only then a hard cut (a single word longer than `size`), never inside a surrogate pair.
 * `floor` (>= pos) is the previous chunk's end: the break must lie after it. Returns -1 when
 * the chunk starts in the overlap and no break after `floor` exists short of cutting a word.
 */
function findBreak(text: string, pos: number, size: number, floor: number): number {
  const limit = Math.min(pos + size, text.length - 1);
  let para = -1;
  let sentence = -1;
  let space = -1;
  // Scan backwards for ends of words (whitespace after non-whitespace); first hit per class is the latest.
  // Breaks at or before `floor` (the previous chunk's end) would make no progress.
  for (let b = limit; b > floor; b--) {
    if (!isWs(text[b]) || isWs(text[b - 1])) continue;
    if (para < 0 && runHasBlankLine(text, b)) para = b;
    else if (sentence < 0 && isSentenceEnd(text, b, pos)) sentence = b;
    if (space < 0) space = b;
    if (para >= 0 && para - pos >= size * MIN_FILL_PARAGRAPH) return para;
  }
  const fill = pos + size * MIN_FILL_OTHER;
  if (sentence >= fill) return sentence;
  if (space >= fill) return space;
  if (para > floor) return para;
  if (sentence > floor) return sentence;
  if (space > floor) return space;
  if (floor > pos) return -1; // only a cut inside a word would make progress: caller drops the overlap
  // One word longer than the window: cut it, but keep a surrogate pair together.
  let b = pos + size;
  if (isHighSurrogate(text.charCodeAt(b - 1)) && isLowSurrogate(text.charCodeAt(b))) b--;
  if (b <= pos) b = pos + 2; // size 1 and an astral character: exceed rather than split it
  return b;
}

/**
 * Splits `text` into overlapping, paragraph-aware chunks.
 *
 * Invariants (checked by the fuzz test): `chunk.text === text.slice(start, end)`; chunks are
 * non-empty and trimmed; starts and ends strictly increase; every non-whitespace character is in
 * some chunk; a chunk is at most `size` code units (unless `size` < 2 meets an astral character);
 * a chunk boundary falls inside a word only when that word is longer than `size`; surrogate pairs
 * are never split. Deterministic: the same input always gives the same chunks.
 *
 * @throws AppError INVALID_ARGUMENT if `size` is not a positive integer or `overlap` is negative.
 */
export function chunkText(text: string, opts: ChunkOptions = {}): ChunkInput[] {
  const size = opts.size ?? DEFAULT_CHUNK_SIZE;
  const requestedOverlap = opts.overlap ?? DEFAULT_CHUNK_OVERLAP;
  if (!Number.isInteger(size) || size < 1) {
    throw createError('INVALID_ARGUMENT', {
      reason: `Chunk size must be a positive integer, got ${size}.`,
    });
  }
  if (!Number.isInteger(requestedOverlap) || requestedOverlap < 0) {
    throw createError('INVALID_ARGUMENT', {
      reason: `Chunk overlap must be a non-negative integer, got ${requestedOverlap}.`,
    });
  }
  // More than half a chunk of overlap would make every character indexed 2+ times over.
  const overlap = Math.min(requestedOverlap, Math.floor(size / 2));

  let last = text.length;
  while (last > 0 && isWs(text[last - 1])) last--;
  const chunks: ChunkInput[] = [];
  let pos = 0;
  let prevEnd = 0;
  let fresh = 0; // where the next chunk would start without overlap
  while (pos < last && isWs(text[pos])) pos++;

  while (pos < last) {
    let b: number;
    if (last - pos <= size) {
      b = last;
    } else {
      b = findBreak(text, pos, size, Math.max(pos, prevEnd));
      if (b < 0) {
        // The overlap left no room for a clean break: start this chunk without overlap instead.
        pos = fresh;
        b = last - pos <= size ? last : findBreak(text, pos, size, pos);
      }
    }
    let end = b;
    while (end > pos && isWs(text[end - 1])) end--;
    chunks.push({ seq: chunks.length, start: pos, end, text: text.slice(pos, end) });
    if (b >= last) break;
    prevEnd = end;

    // Next chunk starts at the first word start inside the overlap window, so the overlap never
    // begins mid-word; without one (a hard cut in a long word) it simply continues after `b`.
    let next = -1;
    if (overlap > 0) {
      for (let i = Math.max(end - overlap, pos + 1); i < end; i++) {
        if (isWs(text[i - 1]) && !isWs(text[i])) {
          next = i;
          break;
        }
      }
    }
    fresh = b;
    while (fresh < last && isWs(text[fresh])) fresh++;
    pos = next < 0 ? fresh : next;
  }
  return chunks;
}
