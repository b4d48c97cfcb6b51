// parseBertConfig: which BERT configs the canonical runtime accepts. The int16 dense layers
// (matmulI16) need input widths that are multiples of 32, so a model that would fail at load
// is refused when it is imported, with a reason.
import { describe, expect, it } from 'vitest';
import { parseBertConfig } from './bert-files';

const MINILM = {
  model_type: 'bert',
  vocab_size: 30522,
  hidden_size: 384,
  num_hidden_layers: 6,
  num_attention_heads: 12,
  intermediate_size: 1536,
  max_position_embeddings: 512,
  type_vocab_size: 2,
  layer_norm_eps: 1e-12,
  hidden_act: 'gelu',
};

describe('parseBertConfig', () => {
  it("accepts all-MiniLM-L6-v2's config", () => {
    expect(parseBertConfig(JSON.stringify(MINILM))).toMatchObject({ hidden_size: 384 });
  });

  it('refuses widths the int16 dense layers cannot run, saying which', () => {
    // TinyBERT-4: hidden 312 (12 heads of 26), intermediate 1200.
    const tiny = { ...MINILM, hidden_size: 312, intermediate_size: 1200 };
    expect(() => parseBertConfig(JSON.stringify(tiny))).toThrow(/hidden size \(312\)/);
    const inter = { ...MINILM, intermediate_size: 1544 };
    expect(() => parseBertConfig(JSON.stringify(inter))).toThrow(/intermediate size \(1544\)/);
  });
});
