// Byte-level golden file of the canonical BERT path: SHA-256 of all-MiniLM-L6-v2's int16 vectors
// and of the pooled float32 vectors for the edge-case texts (wasm/golden/minilm-int16-sha256.json,
// written by tools/gen-minilm-golden.ts with the kernels of BERT_CANON_REVISION). Faster kernels
// must reproduce it byte for byte, or bump the revision on purpose. Skipped without the weights.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createNodeKernel, loadBertFolder, MINILM_DIR, REPO_ROOT } from './node-kernel';
import { haveRealWeights } from './real-weights.testkit';
import { hashVectors, sha256Hex } from './self-test';

interface BertGolden {
  modelId: string;
  modelVersion: string;
  dim: number;
  entries: Array<{ text: string; sha256: string; floatSha256: string }>;
}

const golden = JSON.parse(
  readFileSync(join(REPO_ROOT, 'wasm/golden/minilm-int16-sha256.json'), 'utf8'),
) as BertGolden;
const haveWeights = haveRealWeights();

describe.skipIf(!haveWeights)('all-MiniLM-L6-v2 golden hashes (canonical bytes)', () => {
  it('reproduces every int16 and float32 vector byte for byte', async () => {
    const model = loadBertFolder(await createNodeKernel(), MINILM_DIR);
    expect(model.version).toBe(golden.modelVersion);
    expect(golden.entries.length).toBeGreaterThanOrEqual(50);
    const vectors = golden.entries.map((e) => model.embedIds(model.tokenize(e.text)));
    const hashes = await hashVectors(vectors.map((v) => v.int16));
    const floatHashes = await Promise.all(
      vectors.map((v) =>
        sha256Hex(new Uint8Array(v.float.buffer, v.float.byteOffset, v.float.byteLength)),
      ),
    );
    expect(hashes).toEqual(golden.entries.map((e) => e.sha256));
    expect(floatHashes).toEqual(golden.entries.map((e) => e.floatSha256));
  });
});
