// Term statistics on a real library: chunk counts per word through the index's own stemmer.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTermStats } from './term-stats';
import { doc, openTestLibrary, put, type TestLibrary } from './store.testkit';

let lib: TestLibrary;
beforeEach(async () => {
  lib = await openTestLibrary();
});
afterEach(async () => {
  await lib.close();
});

describe('createTermStats', () => {
  it('counts the chunks holding each word, stemmed as the index stems it', async () => {
    await put(lib.store, doc('a.md', 'Pelicans nesting on cliffs.'));
    await put(lib.store, doc('b.md', 'A pelican nests alone.'));
    await put(lib.store, doc('c.md', 'Narwhals swim.'));
    const stats = await createTermStats(lib.db.sql, lib.search.stems);
    expect(await stats.docFreq(['pelican', 'nested', 'narwhal', 'zebra'])).toEqual({
      total: 3,
      df: [2, 2, 1, 0],
    });
    expect(await stats.docFreq([])).toEqual({ total: 3, df: [] });
  });
});
