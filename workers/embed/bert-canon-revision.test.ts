// BERT_CANON_REVISION canon.2 against canon.1 (all-MiniLM-L6-v2, every golden text): canon.1 is
// rebuilt from the kernels that remain (test-canon1.ts) and must still reproduce its golden file
// byte for byte (wasm/golden/minilm-int16-sha256.canon.1.json), so the comparison is with the
// real previous vectors; canon.2 must stay within cosine 0.9999 of them on every text. Skipped
// without the weights (`node scripts/copy-model.mjs --fetch-minilm`).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createNodeKernel, loadBertFolder, MINILM_DIR, REPO_ROOT } from './node-kernel';
import { canon1Kernel, compareRevisions } from './test-canon1';

interface BertGolden {
  modelVersion: string;
  entries: Array<{ text: string; sha256: string; floatSha256: string }>;
}

const read = (name: string) =>
  JSON.parse(readFileSync(join(REPO_ROOT, 'wasm/golden', name), 'utf8')) as BertGolden;
const haveWeights = existsSync(join(MINILM_DIR, 'model.safetensors'));

describe.skipIf(!haveWeights)('all-MiniLM-L6-v2 canon.2 against canon.1', () => {
  it('canon.1 is reproduced exactly and canon.2 stays within cosine 0.9999 of it', async () => {
    const old = read('minilm-int16-sha256.canon.1.json');
    const current = read('minilm-int16-sha256.json');
    expect(old.modelVersion).toMatch(/\+canon\.1$/);
    expect(current.modelVersion).toMatch(/\+canon\.2$/);
    expect(current.entries.map((e) => e.text)).toEqual(old.entries.map((e) => e.text));
    const kernel = await createNodeKernel();
    const canon1 = loadBertFolder(canon1Kernel(kernel), MINILM_DIR);
    const canon2 = loadBertFolder(kernel, MINILM_DIR);
    const r = await compareRevisions(
      canon1,
      canon2,
      old.entries.map((e) => e.text),
    );
    expect(r.oldSha256).toEqual(old.entries.map((e) => e.sha256));
    expect(r.oldFloatSha256).toEqual(old.entries.map((e) => e.floatSha256));
    for (const c of r.cosine) expect(c).toBeGreaterThanOrEqual(0.9999);
    for (const c of r.cosineInt16) expect(c).toBeGreaterThanOrEqual(0.9999);
  });
});
