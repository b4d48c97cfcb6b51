// Batched forward passes (embedIdsBatch: the rows of several sequences through each dense layer
// together, attention per sequence) must give every text the bytes it gets alone: checked against
// the golden files themselves (wasm/golden), for USE-lite and for all-MiniLM-L6-v2 (skipped
// without its weights), in one batch of every golden text and in small mixed groups.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  createNodeKernel,
  loadBertFolder,
  MINILM_DIR,
  readUseLiteFile,
  REPO_ROOT,
} from './node-kernel';
import { haveRealWeights } from './real-weights.testkit';
import { hashVectors, sha256Hex, type GoldenFile } from './self-test';
import { loadUseLite } from './use-lite';

interface Golden {
  entries: Array<{ text: string; sha256: string; floatSha256?: string }>;
}
const read = (name: string) =>
  JSON.parse(readFileSync(join(REPO_ROOT, 'wasm/golden', name), 'utf8')) as Golden;

const floatBytes = (v: Float32Array) => new Uint8Array(v.buffer, v.byteOffset, v.byteLength);

/** Groups of 1..5 consecutive items (sizes cycle), so every batch shape from one to five occurs. */
function groups<T>(items: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0, size = 1; i < items.length; i += size, size = (size % 5) + 1)
    out.push(items.slice(i, i + size));
  return out;
}

describe('embedIdsBatch gives each sequence the bytes it gets alone', () => {
  it('USE-lite: every golden text, in one batch and in groups of 1-5, with an empty text', async () => {
    const golden = read('use-lite-int16-sha256.json') as GoldenFile;
    const model = await loadUseLite(await createNodeKernel(), readUseLiteFile);
    const ids = golden.entries.map((e) => model.tokenize(e.text));
    expect(ids.length).toBeGreaterThanOrEqual(50);
    const all = model.embedIdsBatch(ids);
    expect(await hashVectors(all.map((v) => v.int16))).toEqual(golden.entries.map((e) => e.sha256));
    // Empty sequences take no rows but keep their place (the zero mean of the graph).
    const withEmpty = [[], ...ids.slice(0, 4), []];
    const mixed = groups(withEmpty).flatMap((g) => model.embedIdsBatch(g));
    const alone = withEmpty.map((s) => model.embedIds(s));
    for (const [i, v] of mixed.entries()) {
      expect(floatBytes(v.float), `text ${i}`).toEqual(floatBytes(alone[i]!.float));
      expect(v.int16, `text ${i}`).toEqual(alone[i]!.int16);
    }
    const grouped = groups(ids).flatMap((g) => model.embedIdsBatch(g));
    for (const [i, v] of grouped.entries())
      expect(floatBytes(v.float), `text ${i}`).toEqual(floatBytes(all[i]!.float));
    expect(model.embedInt16Batch(['a query', 'another one'])).toEqual([
      model.embedInt16('a query'),
      model.embedInt16('another one'),
    ]);
    expect(model.embedIdsBatch([])).toEqual([]);
  });

  it.skipIf(!haveRealWeights())(
    'all-MiniLM-L6-v2: every golden text (int16 and float32 bytes), in one batch and in groups of 1-5',
    async () => {
      const golden = read('minilm-int16-sha256.json');
      const model = loadBertFolder(await createNodeKernel(), MINILM_DIR);
      const ids = golden.entries.map((e) => model.tokenize(e.text));
      for (const vectors of [
        model.embedIdsBatch(ids),
        groups(ids).flatMap((g) => model.embedIdsBatch(g)),
      ]) {
        expect(await hashVectors(vectors.map((v) => v.int16))).toEqual(
          golden.entries.map((e) => e.sha256),
        );
        const floats = await Promise.all(vectors.map((v) => sha256Hex(floatBytes(v.float))));
        expect(floats).toEqual(golden.entries.map((e) => e.floatSha256));
      }
      expect(() => model.embedIdsBatch([[101, 102], []])).toThrow(/tokens/);
    },
  );
});
