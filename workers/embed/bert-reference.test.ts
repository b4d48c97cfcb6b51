// The canonical BERT path on the real all-MiniLM-L6-v2 weights against golden float32 vectors of
// PyTorch + transformers (mean pooling + L2 normalisation as sentence-transformers), written once
// by tools/gen-minilm-reference.py into wasm/golden/minilm-reference.{json,f32}. Compares the float
// vector before int16 quantisation (BertModel.embedIds(...).float). Skipped without the weights.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createNodeKernel, loadBertFolder, MINILM_DIR, REPO_ROOT } from './node-kernel';
import { haveRealWeights } from './real-weights.testkit';

interface Reference {
  source: string;
  modelSha256: string;
  maxTokens: number;
  dim: number;
  texts: string[];
  ids: number[][];
}

const GOLDEN = join(REPO_ROOT, 'wasm/golden');
const ref = JSON.parse(readFileSync(join(GOLDEN, 'minilm-reference.json'), 'utf8')) as Reference;
const f32 = readFileSync(join(GOLDEN, 'minilm-reference.f32'));
const refVecs = new Float32Array(f32.buffer.slice(f32.byteOffset, f32.byteOffset + f32.byteLength));
const haveWeights = haveRealWeights();
if (!haveWeights) {
  console.warn(
    `bert-reference.test.ts skipped: no ${MINILM_DIR}/model.safetensors. ` +
      'Run `node tools/copy-model.mjs --fetch-minilm` to compare with the PyTorch reference.',
  );
}

describe('golden fixture', () => {
  it('holds one unit float32 vector per text', () => {
    expect(ref.texts.length).toBeGreaterThanOrEqual(50);
    expect(ref.ids).toHaveLength(ref.texts.length);
    expect(refVecs).toHaveLength(ref.texts.length * ref.dim);
    for (let t = 0; t < ref.texts.length; t++) {
      let s = 0;
      for (let i = 0; i < ref.dim; i++) s += refVecs[t * ref.dim + i]! ** 2;
      expect(Math.abs(Math.sqrt(s) - 1), ref.texts[t]).toBeLessThan(1e-5);
    }
  });
});

describe.skipIf(!haveWeights)(
  'all-MiniLM-L6-v2 (real weights) against PyTorch + transformers',
  () => {
    it('reaches cosine >= 0.9999 on every golden text, with the same token ids', async () => {
      const bytes = readFileSync(join(MINILM_DIR, 'model.safetensors'));
      // Other weights would make the comparison meaningless: regenerate the fixture instead.
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(ref.modelSha256);
      const model = loadBertFolder(await createNodeKernel(), MINILM_DIR);
      let min = Infinity;
      let minText = '';
      for (let t = 0; t < ref.texts.length; t++) {
        const text = ref.texts[t]!;
        const ids = model.tokenize(text);
        // Same truncation window as sentence-transformers (max_seq_length), same word pieces.
        expect(ids, JSON.stringify(text)).toEqual(ref.ids[t]);
        const ours = model.embedIds(ids).float;
        expect(ours).toHaveLength(ref.dim);
        let dot = 0;
        let nn = 0;
        for (let i = 0; i < ref.dim; i++) {
          dot += ours[i]! * refVecs[t * ref.dim + i]!;
          nn += ours[i]! ** 2;
        }
        const cos = dot / Math.sqrt(nn); // the reference rows are unit vectors (checked above)
        if (cos < min) [min, minText] = [cos, text];
        expect(cos, JSON.stringify(text)).toBeGreaterThanOrEqual(0.9999);
      }
      console.log(
        `minimum cosine vs PyTorch reference over ${ref.texts.length} texts: ${min.toFixed(9)} ` +
          `(${JSON.stringify(minText.slice(0, 40))}); reference: ${ref.source}`,
      );
    });
  },
);
