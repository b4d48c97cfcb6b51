// The BERT self-test's comparison with an independent runtime: through the embedder on stored
// models (mean pooling for MiniLM, CLS pooling and a query instruction for bge), with the Node
// reference (onnxruntime-web on the ONNX export, tokens from @huggingface/tokenizers). It must
// pass on the same weights, fail when the reference runs other weights, and report (not throw)
// when the reference runtime cannot run.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEmbedder } from './embedder';
import { createMemoryStorage, createModelStore } from './model-store';
import { createNodeKernel, readUseLiteFile, REPO_ROOT } from './node-kernel';
import {
  compareWithReference,
  REFERENCE_MIN_COSINE,
  REFERENCE_TEXTS,
  referenceRequest,
  type ReferenceEmbed,
} from './reference-check';
import type { GoldenFile } from './self-test';
import { bertFolder, type BertFolder } from './bert-weights.testkit';
import { ortReference } from './ort-reference.testkit';

const golden = JSON.parse(
  readFileSync(join(REPO_ROOT, 'wasm/golden/use-lite-int16-sha256.json'), 'utf8'),
) as GoldenFile;
const files = (f: BertFolder) =>
  Object.entries(f).map(([name, v]) => ({ name, data: new Blob([v as BlobPart]) }));

async function setup(referenceEmbed: ReferenceEmbed, profiles: Record<string, BertFolder>) {
  const models = createModelStore({ storage: createMemoryStorage() });
  for (const [id, folder] of Object.entries(profiles)) await models.importFiles(id, files(folder));
  const embedder = createEmbedder({
    loadKernel: createNodeKernel,
    fetchModelFile: readUseLiteFile,
    loadGolden: async () => golden,
    models,
    referenceEmbed,
    yieldToEvents: async () => undefined,
  });
  return { embedder, models };
}

describe('BERT self-test against the reference runtime', () => {
  it('agrees on the same weights, sentence by sentence, with the same token ids', async () => {
    const requests: string[][] = [];
    const spy: ReferenceEmbed = (r) => {
      requests.push(r.texts);
      return ortReference(r);
    };
    const { embedder } = await setup(spy, {
      'all-MiniLM-L6-v2': bertFolder(31),
      'bge-small-en-v1.5': bertFolder(32),
    });
    const minilm = await embedder.selfTest('all-MiniLM-L6-v2');
    expect(minilm).toMatchObject({ ok: true, check: 'repeat' });
    expect(minilm.referenceError).toBeUndefined();
    expect(minilm.reference?.ok).toBe(true);
    expect(minilm.reference?.rows.map((r) => r.text)).toEqual(REFERENCE_TEXTS);
    expect(minilm.reference?.rows.every((r) => r.sameTokens)).toBe(true);
    expect(minilm.reference!.minCosine).toBeGreaterThanOrEqual(REFERENCE_MIN_COSINE);
    expect(minilm.reference!.runtime).toMatch(/^onnxruntime-web /);
    // bge: CLS pooling, and the passage side (no prefix) is what the test compares.
    const bge = await embedder.selfTest('bge-small-en-v1.5');
    expect(bge.reference?.ok).toBe(true);
    expect(bge.reference!.minCosine).toBeGreaterThanOrEqual(REFERENCE_MIN_COSINE);
    expect(requests).toEqual([REFERENCE_TEXTS, REFERENCE_TEXTS]);
  }, 60_000);

  it('fails when the reference computes with other weights', async () => {
    const other = bertFolder(99);
    const { embedder, models } = await setup(ortReference, { 'all-MiniLM-L6-v2': bertFolder(31) });
    const otherModels = createModelStore({ storage: createMemoryStorage() });
    await otherModels.importFiles('all-MiniLM-L6-v2', files(other));
    const otherFiles = await otherModels.load('all-MiniLM-L6-v2');
    // Same tokenizer and request shape, the other folder's graph.
    const swapped: ReferenceEmbed = (r) =>
      ortReference({
        ...r,
        onnx: referenceRequest(otherFiles, {
          maxTokens: r.maxTokens,
          pooling: r.pooling,
          prefix: '',
        }).onnx,
      });
    const embedder2 = createEmbedder({
      loadKernel: createNodeKernel,
      fetchModelFile: readUseLiteFile,
      loadGolden: async () => golden,
      models,
      referenceEmbed: swapped,
      yieldToEvents: async () => undefined,
    });
    const result = await embedder2.selfTest('all-MiniLM-L6-v2');
    expect(result.ok).toBe(false);
    expect(result.mismatches).toEqual([]); // still deterministic: only the comparison fails
    expect(result.reference?.ok).toBe(false);
    expect(result.reference!.minCosine).toBeLessThan(REFERENCE_MIN_COSINE);
    expect((await embedder.selfTest('all-MiniLM-L6-v2')).ok).toBe(true);
  }, 60_000);

  it('reports a reference that cannot run without failing the determinism check', async () => {
    const { embedder } = await setup(
      async () => {
        throw new Error('onnxruntime WASM could not be fetched');
      },
      { 'all-MiniLM-L6-v2': bertFolder(31) },
    );
    const result = await embedder.selfTest('all-MiniLM-L6-v2');
    expect(result).toMatchObject({ ok: true, check: 'repeat' });
    expect(result.reference).toBeUndefined();
    expect(result.referenceError).toBe('onnxruntime WASM could not be fetched');
  });

  it('does not call the reference for USE-lite (it has its golden file)', async () => {
    let calls = 0;
    const { embedder } = await setup(async (r) => {
      calls++;
      return ortReference(r);
    }, {});
    expect(await embedder.selfTest()).toMatchObject({ ok: true, check: 'golden' });
    expect(calls).toBe(0);
  });
});

describe('compareWithReference', () => {
  const unit = (i: number, n = 4) => Float32Array.from({ length: n }, (_, k) => (k === i ? 1 : 0));
  const q = (v: Float32Array) => Int16Array.from(v, (x) => Math.round(x * 32767));

  it('fails a sentence whose token ids differ even when its vector agrees', () => {
    const check = compareWithReference(
      {
        vectors: [q(unit(0)), q(unit(1))],
        ids: [
          [101, 7, 102],
          [101, 8, 102],
        ],
      },
      {
        runtime: 'r',
        vectors: [unit(0), unit(1)],
        ids: [
          [101, 7, 102],
          [101, 9, 102],
        ],
      },
      ['a', 'b'],
    );
    expect(check.rows.map((r) => r.sameTokens)).toEqual([true, false]);
    expect(check.minCosine).toBeCloseTo(1, 9);
    expect(check.ok).toBe(false);
  });

  it('reports a missing reference vector as NaN and fails', () => {
    const check = compareWithReference(
      { vectors: [q(unit(0)), q(unit(1))], ids: [[1], [2]] },
      { runtime: 'r', vectors: [unit(0)], ids: [[1], [2]] },
      ['a', 'b'],
    );
    expect(check.rows[1]!.cosine).toBeNaN();
    expect(check.minCosine).toBeNaN();
    expect(check.ok).toBe(false);
  });
});
