import { describe, expect, it } from 'vitest';
import { chunkText } from './chunk';
import type { ChunkInput } from '../shared/types';
import { mulberry32 } from '../shared/rng.testkit';

const WS = /\s/;

/** For each index, the length of the maximal non-whitespace run containing it (0 on whitespace). */
function wordLengths(text: string): Uint32Array {
  const out = new Uint32Array(text.length);
  let i = 0;
  while (i < text.length) {
    if (WS.test(text[i]!)) {
      i++;
      continue;
    }
    let j = i;
    while (j < text.length && !WS.test(text[j]!)) j++;
    out.fill(j - i, i, j);
    i = j;
  }
  return out;
}

/** Asserts every documented invariant; returns a description of the first violation or null. */
function checkInvariants(
  text: string,
  chunks: ChunkInput[],
  size: number,
  maxLength = size,
): string | null {
  const covered = new Uint8Array(text.length);
  const wordLength = wordLengths(text);
  for (let k = 0; k < chunks.length; k++) {
    const c = chunks[k]!;
    if (c.seq !== k) return `chunk ${k}: seq ${c.seq}`;
    if (c.text !== text.slice(c.start, c.end)) return `chunk ${k}: text != slice`;
    if (c.text.length === 0 || c.text.trim().length === 0) return `chunk ${k}: empty`;
    if (WS.test(c.text[0]!) || WS.test(c.text[c.text.length - 1]!))
      return `chunk ${k}: not trimmed`;
    if (c.end - c.start > maxLength) return `chunk ${k}: length ${c.end - c.start} > ${maxLength}`;
    const prev = chunks[k - 1];
    if (prev && !(c.start > prev.start && c.end > prev.end)) return `chunk ${k}: not increasing`;
    for (const edge of [c.start, c.end]) {
      const hi = text.charCodeAt(edge - 1);
      const lo = text.charCodeAt(edge);
      if (hi >= 0xd800 && hi <= 0xdbff && lo >= 0xdc00 && lo <= 0xdfff) {
        return `chunk ${k}: splits a surrogate pair at ${edge}`;
      }
      // A boundary inside a word is allowed only when that word cannot fit in one chunk.
      if (edge > 0 && edge < text.length && !WS.test(text[edge - 1]!) && !WS.test(text[edge]!)) {
        if (wordLength[edge]! <= size) return `chunk ${k}: boundary ${edge} splits a short word`;
      }
    }
    covered.fill(1, c.start, c.end);
  }
  for (let i = 0; i < text.length; i++) {
    if (!covered[i] && !WS.test(text[i]!))
      return `char ${i} (${JSON.stringify(text[i])}) not covered`;
  }
  return null;
}

const WORDS = [
  'alpha',
  'beta',
  'gamma',
  'delta',
  'epsilon',
  'zeta',
  'eta',
  'theta',
  'iota',
  'kappa',
];
const PIECES = [
  ' ',
  ' ',
  ' ',
  '\n',
  '\r\n',
  '\n\n',
  '\r\n\r\n',
  '. ',
  '! ',
  '? ',
  '\t',
  '\u00a0',
  ' \n \n ',
];
const EMOJI = ['😀', '👍🏽', '👨‍👩‍👧', '🇫🇷', 'é', 'e\u0301', '中文', '\u2029'];

function randomText(rand: () => number): string {
  const n = Math.floor(rand() * 400);
  let s = '';
  for (let i = 0; i < n; i++) {
    const r = rand();
    if (r < 0.55) s += WORDS[Math.floor(rand() * WORDS.length)];
    else if (r < 0.85) s += PIECES[Math.floor(rand() * PIECES.length)];
    else if (r < 0.95) s += EMOJI[Math.floor(rand() * EMOJI.length)];
    else if (r < 0.98)
      s += 'x'.repeat(Math.floor(rand() * 900)); // a word longer than a chunk
    else s += '😀'.repeat(Math.floor(rand() * 400)); // astral run with no whitespace
  }
  return s;
}

describe('chunkText', () => {
  it('returns no chunks for empty or whitespace-only text', () => {
    expect(chunkText('')).toEqual([]);
    expect(chunkText(' \n\r\n\t ')).toEqual([]);
  });

  it('keeps short text as one trimmed chunk with exact offsets', () => {
    const text = '\n  Hello world.  \n';
    expect(chunkText(text)).toEqual([{ seq: 0, start: 3, end: 15, text: 'Hello world.' }]);
  });

  it('prefers a paragraph break over a later sentence end', () => {
    const p1 = 'First paragraph words here. '.repeat(8).trim(); // ~223 chars
    const p2 = 'Second paragraph words. '.repeat(20).trim(); // ~479 chars
    const text = `${p1}\n\n${p2}`;
    const chunks = chunkText(text);
    expect(chunks[0]!.text).toBe(p1);
    expect(chunks.length).toBeGreaterThan(1);
    expect(checkInvariants(text, chunks, 500)).toBeNull();
  });

  it('packs several small paragraphs into one chunk', () => {
    const paras = Array.from({ length: 12 }, (_, i) => `Paragraph number ${i} is short.`);
    const chunks = chunkText(paras.join('\n\n'));
    expect(chunks.length).toBe(1);
  });

  it('ends chunks at sentence ends when a paragraph is longer than a chunk', () => {
    const sentence = 'The quick brown fox jumps over the lazy dog. ';
    const text = sentence.repeat(40);
    const chunks = chunkText(text);
    expect(chunks.length).toBeGreaterThan(3);
    for (const c of chunks.slice(0, -1)) expect(c.text.endsWith('.')).toBe(true);
    expect(checkInvariants(text, chunks, 500)).toBeNull();
  });

  it('overlaps consecutive chunks by about the requested amount, starting at a word', () => {
    const text = Array.from({ length: 300 }, (_, i) => `w${i}`).join(' ');
    const chunks = chunkText(text, { size: 100, overlap: 20 });
    for (let k = 1; k < chunks.length; k++) {
      const overlap = chunks[k - 1]!.end - chunks[k]!.start;
      expect(overlap).toBeGreaterThan(0);
      expect(overlap).toBeLessThanOrEqual(20);
      expect(text[chunks[k]!.start - 1]).toBe(' ');
    }
  });

  it('handles CRLF line endings and blank lines made of CRLF', () => {
    const para = 'Line one of a paragraph.\r\nLine two of the same paragraph.';
    const text = Array.from({ length: 20 }, () => para).join('\r\n\r\n');
    const chunks = chunkText(text);
    expect(checkInvariants(text, chunks, 500)).toBeNull();
    for (const c of chunks) expect(c.text.endsWith('\r')).toBe(false);
    // Breaks land on paragraph ends, so each chunk ends with the paragraph's last line.
    for (const c of chunks.slice(0, -1)) expect(c.text.endsWith('same paragraph.')).toBe(true);
  });

  it('cuts text without whitespace into size-bounded chunks and never splits an emoji', () => {
    const text = 'a' + '😀'.repeat(1000); // odd offset so naive cuts would land mid-pair
    const chunks = chunkText(text, { size: 100, overlap: 10 });
    expect(checkInvariants(text, chunks, 100)).toBeNull();
    expect(chunks.map((c) => c.text).join('')).toBe(text); // no overlap possible inside one word
  });

  it('splits a huge single paragraph in linear-ish time with bounded chunks', () => {
    const text = 'lorem ipsum dolor sit amet '.repeat(40_000); // ~1 MB, no blank lines
    const chunks = chunkText(text);
    expect(chunks.length).toBeGreaterThan(2000);
    expect(checkInvariants(text, chunks, 500)).toBeNull();
  });

  it('is deterministic', () => {
    const text = randomText(mulberry32(42));
    expect(chunkText(text)).toEqual(chunkText(text));
  });

  it('rejects invalid options with INVALID_ARGUMENT', () => {
    expect(() => chunkText('x', { size: 0 })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
    );
    expect(() => chunkText('x', { overlap: -1 })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
    );
  });

  // Regression seeds found by the fuzz test are added here by name.
  const REGRESSION_SEEDS: number[] = [];

  it('keeps every invariant on random text (seeded fuzz)', () => {
    const base = Number(process.env.CHUNK_FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
    const seeds = [...REGRESSION_SEEDS, ...Array.from({ length: 300 }, (_, i) => base + i)];
    for (const seed of seeds) {
      const rand = mulberry32(seed);
      const text = randomText(rand);
      const size = [500, 500, 100, 37, 8, 2, 1][Math.floor(rand() * 7)]!;
      const overlap = [50, 0, 10, 200][Math.floor(rand() * 4)]!;
      const problem = checkInvariants(
        text,
        chunkText(text, { size, overlap }),
        size,
        Math.max(size, 2),
      );
      if (problem) {
        throw new Error(
          `fuzz seed ${seed} (size ${size}, overlap ${overlap}): ${problem}. Replay with CHUNK_FUZZ_SEED=${seed}`,
        );
      }
    }
  });
});
