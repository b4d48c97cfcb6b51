// Bad input the embedders must survive (issue 13): text in scripts their vocabularies lack becomes
// unknown tokens ([UNK] for WordPiece, id 0 for SentencePiece) and still gives a deterministic unit
// vector, never a crash; a 1 MB single paragraph is bounded by the chunker before it is embedded.
import { beforeAll, describe, expect, it } from 'vitest';
import { chunkText } from '../ingest/chunk';
import { loadBert, type BertModel } from './bert';
import { parseBertConfig, parseWordPieceTokenizer } from './bert-files';
import { BERT_PROFILES } from './model-profiles';
import { createNodeKernel, readUseLiteFile } from './node-kernel';
import { parseSafetensors } from './safetensors';
import { bertFolder } from './bert-weights.testkit';
import { loadUseLite, type UseLiteModel } from './use-lite';

const UNKNOWN = [
  '𐀀𐀁𐀂 𐀃𐀄', // Linear B
  '𒀀𒀁𒀂𒀃', // cuneiform
  'ⵜⵉⴼⵉⵏⴰⵖ ⴰⵎⴰⵣⵉⵖ', // Tifinagh
  'ᱚᱞ ᱪᱤᱠᱤ', // Ol Chiki
  '\uE000\uE001\uF8FF', // private use
  '\uD800 lone \uDFFF surrogates',
  '\u0301\u0302\u0303', // combining marks with no base
  '\u200D\u200C\u2060\uFEFF', // joiners and invisible characters only
  '\u0000\u0007\u001B[31m', // control characters
  '🜁🜂🜃🜄 🝖', // alchemical symbols
];

/** Squared length of an int16 vector over 32767^2: 1 for a unit vector (rounding aside). */
function unitLength(v: Int16Array): number {
  let s = 0;
  for (const x of v) s += x * x;
  return s / 32767 ** 2;
}

let bert: BertModel;
let unkId: number;
let use: UseLiteModel;
beforeAll(async () => {
  const folder = bertFolder(31);
  const td = new TextDecoder();
  const tokenizer = parseWordPieceTokenizer(td.decode(folder['tokenizer.json']));
  const json = JSON.parse(td.decode(folder['tokenizer.json'])) as {
    model: { vocab: Record<string, number> };
  };
  unkId = json.model.vocab['[UNK]']!;
  bert = loadBert(
    await createNodeKernel(),
    parseBertConfig(td.decode(folder['config.json'])),
    parseSafetensors(folder['model.safetensors'].slice().buffer),
    tokenizer,
    { ...BERT_PROFILES['all-MiniLM-L6-v2']!, version: 'test' },
  );
  use = await loadUseLite(await createNodeKernel(), readUseLiteFile);
});

describe('text in scripts the vocabulary lacks', () => {
  it('BERT (WordPiece): [UNK] tokens and a deterministic unit vector', () => {
    for (const text of UNKNOWN) {
      const ids = bert.tokenize(text);
      expect(ids.length, text).toBeGreaterThanOrEqual(2); // at least [CLS] [SEP]
      const v = bert.embedInt16(text);
      expect(Array.from(v).every(Number.isFinite), text).toBe(true);
      expect(Array.from(bert.embedInt16(text)), text).toEqual(Array.from(v));
      if (ids.length > 2) expect(unitLength(v), text).toBeCloseTo(1, 3);
    }
    expect(bert.tokenize(UNKNOWN[0]!)).toContain(unkId);
    expect(bert.tokenize(UNKNOWN[2]!)).toContain(unkId);
  });

  it('USE-lite (SentencePiece): unknown id 0 and a deterministic unit vector', () => {
    for (const text of UNKNOWN) {
      const v = use.embedInt16(text);
      expect(v.length, text).toBe(512);
      expect(Array.from(use.embedInt16(text)), text).toEqual(Array.from(v));
      expect(unitLength(v), text).toBeCloseTo(1, 3);
    }
    expect(use.tokenize(UNKNOWN[0]!)).toContain(0);
  });

  it('a 1 MB single paragraph of an unknown script is chunked small and every chunk embeds', () => {
    const text = 'ⵜⵉⴼⵉⵏⴰⵖ ⴰⵎⴰⵣⵉⵖ 𐀀𐀁 '.repeat(55_000); // about 1 MB, no blank lines
    expect(text.length).toBeGreaterThan(1_000_000);
    const chunks = chunkText(text);
    expect(Math.max(...chunks.map((c) => c.text.length))).toBeLessThanOrEqual(500);
    // A sample across the paragraph (embedding all ~2,500 chunks would only repeat this).
    for (const c of chunks.filter((_, i) => i % 250 === 0)) {
      expect(unitLength(use.embedInt16(c.text))).toBeCloseTo(1, 3);
      expect(Array.from(bert.embedInt16(c.text)).every(Number.isFinite)).toBe(true);
    }
  });
});
