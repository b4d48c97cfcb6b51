// Regenerates wasm/golden/use-lite-int16-sha256.json, the determinism golden file: SHA-256 of the
// canonical int16 vector bytes of USE-lite for the edge-case texts. Run only on purpose, when a
// kernel or the model version changes: `npx tsx tools/gen-golden.ts` (then bump the version).
import { writeFileSync } from 'node:fs';
import { format } from 'prettier';
import { join } from 'node:path';
import { createNodeKernel, readUseLiteFile, REPO_ROOT } from '../workers/embed/node-kernel';
import { hashVectors, type GoldenFile } from '../workers/embed/self-test';
import { loadUseLite } from '../workers/embed/use-lite';
import { EDGE_TEXTS } from './reference-texts';

const model = await loadUseLite(await createNodeKernel(), readUseLiteFile);
const texts = EDGE_TEXTS;
const hashes = await hashVectors(texts.map((t) => model.embedInt16(t)));
const golden: GoldenFile = {
  modelId: model.id,
  modelVersion: model.version,
  dim: model.dim,
  entries: texts.map((text, i) => ({ text, sha256: hashes[i]! })),
};
writeFileSync(
  join(REPO_ROOT, 'wasm/golden/use-lite-int16-sha256.json'),
  // prettier-formatted, so `npm run lint` (prettier --check .) accepts the golden file
  await format(JSON.stringify(golden), { parser: 'json' }),
);
console.warn(`wrote ${texts.length} golden hashes`);
