import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { AppError } from '../shared/errors';
import {
  blobToVector,
  runEmbedBacklog,
  vectorToBlob,
  type BacklogStore,
  type VectorRow,
} from './backlog';

/** An in-memory BacklogStore with the semantics of the chunk_vectors table (PK chunk+model+version). */
function memoryStore(chunks: Array<{ chunkId: number; text: string }>) {
  const rows = new Map<string, VectorRow>();
  const key = (r: { chunkId: number; modelId: string; modelVersion: string }) =>
    `${r.chunkId}|${r.modelId}|${r.modelVersion}`;
  const pendingFor = (id: string, v: string) =>
    chunks.filter((c) => !rows.has(key({ chunkId: c.chunkId, modelId: id, modelVersion: v })));
  const store: BacklogStore = {
    pending: async (id, v, limit) => pendingFor(id, v).slice(0, limit),
    countPending: async (id, v) => pendingFor(id, v).length,
    findByHash: async (id, v, hashes) => {
      const out = new Map<string, Int16Array>();
      for (const r of rows.values())
        if (r.modelId === id && r.modelVersion === v && hashes.includes(r.textHash))
          out.set(r.textHash, r.vector);
      return out;
    },
    save: async (batch) => batch.forEach((r) => rows.set(key(r), r)),
  };
  return { store, rows };
}

const sha = async (t: string) => createHash('sha256').update(t).digest('hex');
const fakeVector = (t: string) =>
  Int16Array.from({ length: 4 }, (_, i) => (t.length * 31 + i) % 32767);

describe('embedding backlog', () => {
  const chunks = ['alpha', 'beta', 'alpha', 'gamma', 'beta', 'delta', 'alpha'].map((text, i) => ({
    chunkId: i + 1,
    text,
  }));
  const model = { id: 'use-lite', version: 'v1', dim: 4 };

  it('embeds each distinct text once, reuses vectors, and resumes after an abort', async () => {
    const { store, rows } = memoryStore(chunks);
    const embedded: string[] = [];
    const embed = async (texts: string[]) => {
      embedded.push(...texts);
      return texts.map(fakeVector);
    };
    // First run: abort after the first batch is saved.
    const controller = new AbortController();
    const err = await runEmbedBacklog(
      { store, model, embed, sha256Hex: sha, batchSize: 3 },
      { signal: controller.signal, onProgress: (p) => p.done >= 3 && controller.abort() },
    ).catch((e: unknown) => e);
    expect((err as AppError).code).toBe('ABORTED');
    expect(rows.size).toBe(3);
    // Second run resumes with the rest.
    const result = await runEmbedBacklog({ store, model, embed, sha256Hex: sha, batchSize: 3 });
    expect(rows.size).toBe(7);
    expect([...embedded].sort()).toEqual(['alpha', 'beta', 'delta', 'gamma']);
    expect(result).toEqual({ embedded: 2, reused: 2 });
    for (const c of chunks) {
      expect(Array.from(rows.get(`${c.chunkId}|use-lite|v1`)!.vector)).toEqual(
        Array.from(fakeVector(c.text)),
      );
    }
  });

  it('never reuses vectors of another model version', async () => {
    const { store, rows } = memoryStore(chunks.slice(0, 2));
    const embed = async (texts: string[]) => texts.map(fakeVector);
    await runEmbedBacklog({ store, model, embed, sha256Hex: sha });
    let calls = 0;
    await runEmbedBacklog({
      store,
      model: { ...model, version: 'v2' },
      embed: async (t) => {
        calls += t.length;
        return t.map(fakeVector);
      },
      sha256Hex: sha,
    });
    expect(calls).toBe(2);
    expect(rows.size).toBe(4);
  });

  it('round-trips vectors through the little-endian BLOB form and rejects bad lengths', () => {
    const v = Int16Array.from([1, -1, 32767, -32767]);
    const blob = vectorToBlob(v);
    expect(Array.from(blob.slice(0, 4))).toEqual([1, 0, 255, 255]);
    expect(Array.from(blobToVector(blob, 4))).toEqual(Array.from(v));
    expect(() => blobToVector(blob, 5)).toThrow(expect.objectContaining({ code: 'DB_CORRUPT' }));
  });
});
