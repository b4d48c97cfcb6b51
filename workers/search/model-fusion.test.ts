// The fusion per embedding model: lexical order first for the shipped USE-lite, adaptive for
// anything unknown, plain RRF for every BERT-family profile (chosen on SciFact train; see
// model-fusion.ts).
import { describe, expect, it } from 'vitest';
import { BERT_PROFILES } from '../embed/model-profiles';
import { fusionForModel } from './model-fusion';
import { fuseHybrid } from './rrf';

describe('fusionForModel', () => {
  it('keeps the lexical order first for USE-lite, its list adding only what lexical missed', () => {
    expect(fusionForModel('use-lite')).toEqual({
      kind: 'weighted-rrf',
      weights: { semantic: 0.001, lexical: 1 },
    });
  });

  it('keeps the conservative adaptive fusion for no model and unknown models', () => {
    for (const id of [undefined, 'my-own-model', 'constructor', '__proto__'])
      expect(fusionForModel(id), String(id)).toEqual({ kind: 'adaptive' });
  });

  it('uses plain RRF for every BERT-family model', () => {
    expect(Object.keys(BERT_PROFILES).length).toBeGreaterThanOrEqual(4);
    for (const id of Object.keys(BERT_PROFILES))
      expect(fusionForModel(id), id).toEqual({ kind: 'rrf' });
  });
});

describe("USE-lite's lexical-first fusion", () => {
  const c = (path: string, score: number) => ({ chunkId: path.charCodeAt(0), path, seq: 0, score });
  it('keeps the lexical order and puts dense-only finds after it, in semantic order', () => {
    const lexical = ['a', 'b', 'c', 'd'].map((p, i) => c(p, 10 - i));
    const semantic = ['z', 'd', 'y', 'a'].map((p, i) => c(p, 1 - i / 10));
    const fused = fuseHybrid(semantic, lexical, fusionForModel('use-lite')).items;
    expect(fused.map((f) => f.path)).toEqual(['a', 'b', 'c', 'd', 'z', 'y']);
  });
});
