// BERT_CANON_REVISION canon.3 against canon.2 (all-MiniLM-L6-v2, every golden text): canon.2 is
// rebuilt from the kernels that remain (canon2.testkit.ts: f32 dense layers on matmulPacked) and must
// still reproduce its golden file byte for byte (wasm/golden/minilm-int16-sha256.canon.2.json), so
// the comparison is with the real previous vectors; canon.3 must stay within cosine 0.9999 of them
// on every text. canon.1 (canon1.testkit.ts under canon2.testkit.ts) must likewise still reproduce its
// own golden file. Skipped without the weights (`node tools/copy-model.mjs --fetch-minilm`).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createNodeKernel, loadBertFolder, MINILM_DIR, REPO_ROOT } from './node-kernel';
import { haveRealWeights } from './real-weights.testkit';
import { canon1Kernel, compareRevisions } from './canon1.testkit';
import { hashVectors, sha256Hex } from './self-test';
import { canon2Kernel } from './canon2.testkit';

interface BertGolden {
  modelVersion: string;
  entries: Array<{ text: string; sha256: string; floatSha256: string }>;
}

const read = (name: string) =>
  JSON.parse(readFileSync(join(REPO_ROOT, 'wasm/golden', name), 'utf8')) as BertGolden;
const haveWeights = haveRealWeights();

describe.skipIf(!haveWeights)('all-MiniLM-L6-v2 canon.3 against the previous revisions', () => {
  it('canon.2 is reproduced exactly and canon.3 stays within cosine 0.9999 of it', async () => {
    const old = read('minilm-int16-sha256.canon.2.json');
    const current = read('minilm-int16-sha256.json');
    expect(old.modelVersion).toMatch(/\+canon\.2$/);
    expect(current.modelVersion).toMatch(/\+canon\.3$/);
    expect(current.entries.map((e) => e.text)).toEqual(old.entries.map((e) => e.text));
    const kernel = await createNodeKernel();
    const canon2 = loadBertFolder(canon2Kernel(kernel), MINILM_DIR);
    const canon3 = loadBertFolder(kernel, MINILM_DIR);
    const r = await compareRevisions(
      canon2,
      canon3,
      old.entries.map((e) => e.text),
    );
    expect(r.oldSha256).toEqual(old.entries.map((e) => e.sha256));
    expect(r.oldFloatSha256).toEqual(old.entries.map((e) => e.floatSha256));
    for (const c of r.cosine) expect(c).toBeGreaterThanOrEqual(0.9999);
    for (const c of r.cosineInt16) expect(c).toBeGreaterThanOrEqual(0.9999);
  });

  it('canon.1 is still reproduced exactly from the remaining kernels', async () => {
    const old = read('minilm-int16-sha256.canon.1.json');
    expect(old.modelVersion).toMatch(/\+canon\.1$/);
    const kernel = await createNodeKernel();
    const canon1 = loadBertFolder(canon2Kernel(canon1Kernel(kernel)), MINILM_DIR);
    const vectors = old.entries.map((e) => canon1.embedIds(canon1.tokenize(e.text)));
    expect(await hashVectors(vectors.map((v) => v.int16))).toEqual(
      old.entries.map((e) => e.sha256),
    );
    const floatHashes = await Promise.all(
      vectors.map((v) =>
        sha256Hex(new Uint8Array(v.float.buffer, v.float.byteOffset, v.float.byteLength)),
      ),
    );
    expect(floatHashes).toEqual(old.entries.map((e) => e.floatSha256));
  });
});
