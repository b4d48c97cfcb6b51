// Test support: a BERT-family model folder with the real all-MiniLM-L6-v2 tokenizer and seeded
// random weights written as F32 safetensors (no real weights are reachable offline). `reduced`
// keeps the real vocabulary and positions but shrinks the encoder (2 layers, hidden 64) so unit
// and e2e tests stay fast. Used by *.test.ts and e2e/models.spec.ts only; no product code imports it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BertConfig } from './bert';
import { expectedBertTensors } from './bert-files';
import { REPO_ROOT } from './node-kernel';
import { mulberry32 } from './rng.testkit';

export const MINILM_TOKENIZER_DIR = join(REPO_ROOT, '../shared/models/all-MiniLM-L6-v2-tokenizer');

export interface BertFolder {
  'config.json': Uint8Array;
  'tokenizer.json': Uint8Array;
  'model.safetensors': Uint8Array;
}

export function minilmConfig(reduced: boolean): BertConfig & Record<string, unknown> {
  const real = JSON.parse(
    readFileSync(join(MINILM_TOKENIZER_DIR, 'config.json'), 'utf8'),
  ) as BertConfig & Record<string, unknown>;
  return reduced
    ? {
        ...real,
        hidden_size: 64,
        num_hidden_layers: 2,
        num_attention_heads: 4,
        intermediate_size: 128,
      }
    : real;
}

/** F32 safetensors with every tensor loadBert needs, seeded (same seed, same bytes). */
export function seededSafetensors(config: BertConfig, seed: number): Uint8Array {
  const rand = mulberry32(seed);
  const spec = expectedBertTensors(config);
  const header: Record<string, unknown> = { __metadata__: { format: 'pt' } };
  let offset = 0;
  for (const [name, shape] of spec) {
    const bytes = shape.reduce((a, b) => a * b, 1) * 4;
    header[name] = { dtype: 'F32', shape, data_offsets: [offset, offset + bytes] };
    offset += bytes;
  }
  const json = new TextEncoder().encode(JSON.stringify(header));
  const out = new Uint8Array(8 + json.length + offset);
  new DataView(out.buffer).setBigUint64(0, BigInt(json.length), true);
  out.set(json, 8);
  const view = new DataView(out.buffer, 8 + json.length);
  let o = 0;
  for (const [name, shape] of spec) {
    const n = shape.reduce((a, b) => a * b, 1);
    // LayerNorm gains near 1, everything else small around 0.
    const base = name.endsWith('LayerNorm.weight') ? 1 : 0;
    const scale = name.includes('LayerNorm') ? 0.1 : 0.05;
    for (let i = 0; i < n; i++, o += 4) view.setFloat32(o, base + (rand() * 2 - 1) * scale, true);
  }
  return out;
}

export function bertFolder(seed: number, reduced = true): BertFolder {
  const config = minilmConfig(reduced);
  return {
    'config.json': new TextEncoder().encode(JSON.stringify(config, null, 2)),
    'tokenizer.json': new Uint8Array(readFileSync(join(MINILM_TOKENIZER_DIR, 'tokenizer.json'))),
    'model.safetensors': seededSafetensors(config, seed),
  };
}
