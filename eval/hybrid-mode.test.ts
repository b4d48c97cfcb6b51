// The hybrid eval mode's pure parts: CLI flags to a FusionMethod, and fused chunks to documents.
import { describe, expect, it } from 'vitest';
import { fuseToDocs, fusionFromOptions, hybridSettings, type HybridLists } from './hybrid-mode';

const c = (chunkId: number, path: string, seq: number, score: number) => ({
  chunkId,
  path,
  seq,
  score,
});

describe('fusionFromOptions', () => {
  it("defaults to the app's choice for the model, and plain RRF on request", () => {
    const lexicalFirst = { kind: 'weighted-rrf', weights: { semantic: 0.001, lexical: 1 } };
    expect(fusionFromOptions({})).toEqual(lexicalFirst);
    // Without --fusion the app's choice for the model: plain RRF for BERT-family models.
    expect(fusionFromOptions({ model: 'all-MiniLM-L6-v2' })).toEqual({ kind: 'rrf' });
    expect(fusionFromOptions({ model: '/models/use-lite/' })).toEqual(lexicalFirst);
    expect(fusionFromOptions({ model: 'my-own-model' }).kind).toBe('adaptive');
    expect(fusionFromOptions({ fusion: 'rrf' })).toEqual({ kind: 'rrf', k: undefined });
  });
  it("reads the lexical list as deep as the app does for the model's fusion", () => {
    expect(hybridSettings({}).lexicalK).toBe(100);
    expect(hybridSettings({ model: 'all-MiniLM-L6-v2' }).lexicalK).toBe(20);
    expect(hybridSettings({ fusion: 'adaptive' }).lexicalK).toBe(20);
    expect(hybridSettings({ lexicalK: '40' }).lexicalK).toBe(40);
  });
  it('reads weights for weighted RRF and min-max', () => {
    expect(fusionFromOptions({ fusion: 'weighted-rrf', wSemantic: '0.2' })).toEqual({
      kind: 'weighted-rrf',
      k: undefined,
      weights: { semantic: 0.2, lexical: 1 },
    });
    expect(fusionFromOptions({ fusion: 'minmax', wLexical: '2', wSemantic: '0.5' })).toEqual({
      kind: 'minmax',
      weights: { semantic: 0.5, lexical: 2 },
    });
  });
  it('passes adaptive parameters and the prior through', () => {
    expect(
      fusionFromOptions({ fusion: 'adaptive', agreementGain: '1', wSemantic: '0.5', rrfK: '30' }),
    ).toEqual({
      kind: 'adaptive',
      combine: 'rrf',
      k: 30,
      params: { agreementGain: 1, prior: { semantic: 0.5, lexical: 1 } },
    });
  });
  it('rejects an unknown fusion', () => {
    expect(() => fusionFromOptions({ fusion: 'combsum' })).toThrow(/--fusion/);
  });
});

describe('fuseToDocs', () => {
  const lists: HybridLists = {
    // d1 has two chunks; d2 is found by both lists.
    semantic: [c(1, 'd1', 0, 0.9), c(3, 'd2', 0, 0.8), c(2, 'd1', 1, 0.7)],
    lexical: [c(3, 'd2', 0, 12), c(4, 'd3', 0, 10)],
  };
  it('scores a document by its best fused chunk and keeps each document once', () => {
    const docs = fuseToDocs(lists, { kind: 'rrf' }, 10);
    expect(docs.map((d) => d.docId)).toEqual(['d2', 'd1', 'd3']);
    // d2: semantic rank 2 + lexical rank 1; d1: its best chunk, semantic rank 1 only.
    expect(docs[0]!.score).toBeCloseTo(1 / 62 + 1 / 61, 12);
    expect(docs[1]!.score).toBeCloseTo(1 / 61, 12);
  });
  it('a zero semantic weight gives the lexical order, semantic-only documents after', () => {
    const docs = fuseToDocs(
      lists,
      { kind: 'weighted-rrf', weights: { semantic: 0, lexical: 1 } },
      10,
    );
    expect(docs.slice(0, 2).map((d) => d.docId)).toEqual(['d2', 'd3']);
  });
  it('cuts at k', () => {
    expect(fuseToDocs(lists, { kind: 'rrf' }, 2)).toHaveLength(2);
  });
});
