import { describe, expect, it } from 'vitest';
import { createHnswIndex, deserializeHnsw } from './hnsw';
import { loadOrRebuildVectorIndex, rebuildVectorIndex, type VectorSourceRow } from './persistence';
import { clusteredUnits, createRandom } from './vectors.testkit';
import type { RebuildProgress } from './types';

const dim = 24;
const data = clusteredUnits(createRandom(3), dim, 700);
const rows: VectorSourceRow[] = data.map((vector, i) => ({ id: 10 + i, vector }));
const make = () => createHnswIndex({ dim, M: 8, efConstruction: 40 });

async function* paged(): AsyncGenerator<VectorSourceRow> {
  for (let i = 0; i < rows.length; i += 100) {
    await Promise.resolve(); // like one SELECT ... LIMIT 100 per page
    yield* rows.slice(i, i + 100);
  }
}

describe('vector index persistence and rebuild', () => {
  it('rebuilds from an async source with progress, giving the same graph as direct inserts', async () => {
    const seen: RebuildProgress[] = [];
    const rebuilt = await rebuildVectorIndex(make, paged(), {
      total: rows.length,
      progressEvery: 128,
      onProgress: (p) => seen.push(p),
    });
    const direct = make();
    for (const r of rows) direct.add(r.id, r.vector);
    expect(rebuilt.serialize()).toEqual(direct.serialize());
    expect(seen.map((p) => p.done)).toEqual([128, 256, 384, 512, 640, 700]);
    expect(seen.every((p) => p.total === 700)).toBe(true);
  });

  it('gives the bytes of serialize() in parts of any size (with tombstones and upper levels)', async () => {
    const index = await rebuildVectorIndex(make, rows);
    for (const id of [10, 11, 300, 709]) index.remove(id);
    const whole = index.serialize();
    for (const size of [1, 7, 80, 1000, whole.length - 1, whole.length, 1 << 20]) {
      const parts = [...index.serializeParts!(size)];
      expect(parts.slice(0, -1).every((p) => p.length === size)).toBe(true);
      expect(parts.at(-1)!.length).toBe(whole.length - size * (parts.length - 1));
      expect(Buffer.compare(Buffer.concat(parts), whole)).toBe(0);
    }
    const out = await loadOrRebuildVectorIndex(
      Buffer.concat([...index.serializeParts!()]),
      make,
      () => {
        throw new Error('must not rebuild');
      },
    );
    expect(out.rebuilt).toBe(false);
    expect(out.index.ids()).toEqual(index.ids());
  });

  it('adopts handed-over bytes as storage (no copy) and then behaves as a copied index', async () => {
    const original = await rebuildVectorIndex(make, rows.slice(0, 500));
    const bytes = original.serialize();
    const pristine = bytes.slice();
    const copied = deserializeHnsw(bytes.slice());
    const adopted = deserializeHnsw(bytes, {}, { adopt: true });
    // A change to the adopted index lands in the handed-over bytes: they are its storage.
    expect(adopted.remove(12)).toBe(true);
    expect(copied.remove(12)).toBe(true);
    expect(Buffer.compare(Buffer.from(bytes), Buffer.from(pristine))).not.toBe(0);
    // Growing past the loaded rows (new arrays), upper levels included: the same graph.
    for (const r of rows.slice(500)) {
      adopted.add(r.id, r.vector);
      copied.add(r.id, r.vector);
    }
    expect(Buffer.compare(Buffer.from(adopted.serialize()), Buffer.from(copied.serialize()))).toBe(
      0,
    );
    for (const q of data.slice(0, 20)) expect(adopted.search(q, 10)).toEqual(copied.search(q, 10));
    // Without adopt the bytes are only read.
    const again = original.serialize();
    const kept = again.slice();
    deserializeHnsw(again).remove(12);
    expect(Buffer.compare(Buffer.from(again), Buffer.from(kept))).toBe(0);
  });

  it('loads valid bytes without rebuilding', async () => {
    const original = await rebuildVectorIndex(make, rows);
    let sourced = false;
    const out = await loadOrRebuildVectorIndex(original.serialize(), make, () => {
      sourced = true;
      return rows;
    });
    expect(out.rebuilt).toBe(false);
    expect(sourced).toBe(false);
    expect(out.index.serialize()).toEqual(original.serialize());
  });

  it('rebuilds a missing, damaged or wrong-dimension index and says why', async () => {
    const original = await rebuildVectorIndex(make, rows);
    const damaged = original.serialize();
    damaged[damaged.length - 100] = damaged[damaged.length - 100]! ^ 1;
    for (const [bytes, expectDim] of [
      [null, undefined],
      [damaged, undefined],
      [original.serialize(), 384],
    ] as const) {
      const progress: number[] = [];
      const out = await loadOrRebuildVectorIndex(bytes, make, () => paged(), {
        expectDim,
        total: rows.length,
        onProgress: (p) => progress.push(p.done),
      });
      expect(out.rebuilt).toBe(true);
      if (out.rebuilt) expect(out.reason.code).toBe('INDEX_CORRUPT');
      expect(progress.at(-1)).toBe(700);
      expect(out.index.serialize()).toEqual(original.serialize());
    }
  });

  it('stops a rebuild when aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      rebuildVectorIndex(make, rows, { signal: controller.signal }),
    ).rejects.toMatchObject({ code: 'ABORTED' });
  });
});
