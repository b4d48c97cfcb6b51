// The fusion per embedding model: adaptive for the shipped USE-lite and anything unknown, plain
// RRF for every BERT-family profile (chosen on SciFact train; see model-fusion.ts).
import { describe, expect, it } from 'vitest';
import { BERT_PROFILES } from '../embed/model-profiles';
import { fusionForModel } from './model-fusion';

describe('fusionForModel', () => {
  it('keeps the conservative adaptive fusion for USE-lite, no model and unknown models', () => {
    for (const id of ['use-lite', undefined, 'my-own-model', 'constructor', '__proto__'])
      expect(fusionForModel(id), String(id)).toEqual({ kind: 'adaptive' });
  });

  it('uses plain RRF for every BERT-family model', () => {
    expect(Object.keys(BERT_PROFILES).length).toBeGreaterThanOrEqual(4);
    for (const id of Object.keys(BERT_PROFILES))
      expect(fusionForModel(id), id).toEqual({ kind: 'rrf' });
  });
});
