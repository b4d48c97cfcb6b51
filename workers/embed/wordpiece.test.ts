import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './node-kernel';
import { createWordPieceTokenizer } from './wordpiece';

const TOKENIZER = join(REPO_ROOT, '../shared/models/all-MiniLM-L6-v2-tokenizer/tokenizer.json');
const fixture = JSON.parse(
  readFileSync(join(REPO_ROOT, 'wasm/golden/minilm-wordpiece-ids.json'), 'utf8'),
) as { texts: string[]; ids: number[][] };

describe('WordPiece (all-MiniLM-L6-v2 tokenizer.json)', () => {
  const tok = createWordPieceTokenizer(
    JSON.parse(readFileSync(TOKENIZER, 'utf8')) as Parameters<typeof createWordPieceTokenizer>[0],
  );

  it('gives the ids of the Rust tokenizers reference on every fixture text', () => {
    expect(fixture.texts.length).toBeGreaterThanOrEqual(200);
    for (let i = 0; i < fixture.texts.length; i++) {
      expect(tok.encode(fixture.texts[i]!, 100_000).ids, JSON.stringify(fixture.texts[i])).toEqual(
        fixture.ids[i],
      );
    }
  });

  it('truncates to maxLength keeping [CLS] and [SEP]', () => {
    const ids = tok.encode('word '.repeat(600), 128).ids;
    expect(ids).toHaveLength(128);
    expect(ids[0]).toBe(tok.clsId);
    expect(ids.at(-1)).toBe(tok.sepId);
    expect(tok.vocabSize).toBe(30522);
  });
});
