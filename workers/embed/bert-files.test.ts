// parseBertConfig: which BERT configs the canonical runtime accepts (the int16 dense layers need
// input widths that are multiples of 32, so a model that would fail at load is refused when it is
// imported, with a reason); pickBertFiles: which files of a picked folder are the model's.
import { describe, expect, it } from 'vitest';
import { parseBertConfig, pickBertFiles } from './bert-files';

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

describe('pickBertFiles', () => {
  const names = ['config.json', 'tokenizer.json', 'model.safetensors'];
  const st = [
    'm/1_Pooling/config.json',
    'm/config.json',
    'm/tokenizer.json',
    'm/model.safetensors',
    'm/modules.json',
  ];
  it('takes the top-level config.json, not 1_Pooling/config.json, in either order', () => {
    for (const order of [st, [...st].reverse()]) {
      const r = pickBertFiles(order.map((name) => ({ name, data: name })));
      expect(r).toEqual({
        picked: Object.fromEntries(names.map((n) => [n, `m/${n}`])),
      });
    }
  });
  it('reads an older layout whose model lives in 0_Transformer/', () => {
    const files = ['m/1_Pooling/config.json', ...names.map((n) => `m/0_Transformer/${n}`)];
    const r = pickBertFiles(files.map((name) => ({ name, data: name })));
    expect(r).toEqual({
      picked: Object.fromEntries(names.map((n) => [n, `m/0_Transformer/${n}`])),
    });
  });
  it('names what the most complete directory lacks', () => {
    const r = pickBertFiles(
      ['m\\config.json', 'm\\tokenizer.json', 'm/1_Pooling/config.json'].map((name) => ({
        name,
        data: 1,
      })),
    );
    expect(r).toEqual({ missing: ['model.safetensors'] });
  });
});
