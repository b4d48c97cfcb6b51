// Regenerates wasm/golden/minilm-int16-sha256.json: SHA-256 of the canonical all-MiniLM-L6-v2
// vectors (int16 little-endian, and the pooled float32 vector's bytes, stricter) for the
// edge-case texts. Kernel work must reproduce it byte for byte (workers/embed/bert-golden.test.ts);
// run only on purpose, when the bytes change on purpose (then bump BERT_CANON_REVISION):
// `npx tsx tools/gen-minilm-golden.ts` (needs `node tools/copy-model.mjs --fetch-minilm`).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { format } from 'prettier';
import {
  createNodeKernel,
  loadBertFolder,
  MINILM_DIR,
  REPO_ROOT,
} from '../workers/embed/node-kernel';
import { hashVectors, sha256Hex } from '../workers/embed/self-test';
import { EDGE_TEXTS } from './reference-texts';

const model = loadBertFolder(await createNodeKernel(), MINILM_DIR);
const vectors = EDGE_TEXTS.map((t) => model.embedIds(model.tokenize(t)));
const hashes = await hashVectors(vectors.map((v) => v.int16));
const floatHashes = await Promise.all(
  vectors.map((v) =>
    sha256Hex(new Uint8Array(v.float.buffer, v.float.byteOffset, v.float.byteLength)),
  ),
);
const golden = {
  modelId: model.id,
  modelVersion: model.version,
  dim: model.dim,
  entries: EDGE_TEXTS.map((text, i) => ({
    text,
    sha256: hashes[i]!,
    floatSha256: floatHashes[i]!,
  })),
};
writeFileSync(
  join(REPO_ROOT, 'wasm/golden/minilm-int16-sha256.json'),
  await format(JSON.stringify(golden), { parser: 'json' }),
);
console.warn(`wrote ${EDGE_TEXTS.length} golden hashes`);
