// Chunk keys of concurrent look-ups (a plan's semantic sides) come from one query, and each call
// gets exactly the keys it would get alone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChunkLookup } from './chunk-lookup';
import type { Sql } from './sql';
import { doc, openTestLibrary, put, type TestLibrary } from './store.testkit';

let lib: TestLibrary;
beforeAll(async () => {
  lib = await openTestLibrary();
  for (const name of ['b', 'a', 'c']) await put(lib.store, doc(`${name}.txt`, 'word '.repeat(90)));
});
afterAll(async () => {
  await lib.close();
});

/** A look-up whose queries are counted. */
function countingLookup() {
  const counts = { queries: 0 };
  const sql = Object.create(lib.db.sql) as Sql;
  sql.all = (text, params) => {
    counts.queries++;
    return lib.db.sql.all(text, params);
  };
  return { lookup: createChunkLookup(sql), counts };
}

describe('chunkKeys', () => {
  it('answers concurrent calls from one query, each with its own chunks only', async () => {
    const ids = (await lib.db.sql.all<{ id: number }>('SELECT id FROM chunks ORDER BY id')).map(
      (r) => r.id,
    );
    expect(ids.length).toBeGreaterThan(4);
    const calls = [ids.slice(0, 3), ids.slice(2), [ids[1]!, 99_999], [99_998]];
    const { lookup, counts } = countingLookup();
    const together = await Promise.all(calls.map((c) => lookup.chunkKeys(c)));
    expect(counts.queries).toBe(1);
    const alone = countingLookup().lookup;
    for (const [i, c] of calls.entries()) {
      const one = await alone.chunkKeys(c);
      expect([...together[i]!].sort((x, y) => x[0] - y[0])).toEqual(
        [...one].sort((x, y) => x[0] - y[0]),
      );
    }
    expect(together[2]!.has(99_999)).toBe(false);
    expect(together[3]!.size).toBe(0);
    expect(together[0]!.get(ids[0]!)).toEqual({ path: 'b.txt', seq: 0 });
  });
});

describe('allowedChunkIds', () => {
  it('scans once for concurrent calls with the same filters, each as if alone', async () => {
    const { lookup, counts } = countingLookup();
    const filters = [{ pathGlob: 'a.*' }, { pathGlob: 'a.*' }, { pathGlob: 'c.*' }, {}];
    const together = await Promise.all(filters.map((f) => lookup.allowedChunkIds(f)));
    expect(counts.queries).toBe(2); // one scan per distinct filter; none without a filter
    const alone = countingLookup().lookup;
    for (const [i, f] of filters.entries())
      expect(together[i]).toEqual(await alone.allowedChunkIds(f));
    expect(together[3]).toBeNull();
    expect(together[0]!.size).toBeGreaterThan(0);
    const paths = await lookup.chunkKeys([...together[2]!]);
    expect([...paths.values()].every((k) => k.path === 'c.txt')).toBe(true);
  });
});
