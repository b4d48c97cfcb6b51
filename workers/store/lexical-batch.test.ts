// Rankings that wait in the connection's queue together run as one batch (a query plan's
// retrievals, RAGF-006): shared reads, and every ranking exactly as if it had run alone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLexicalSearch, type LexicalSearch } from './lexical-search';
import type { Sql } from './sql';
import {
  doc,
  mulberry32,
  openTestLibrary,
  put,
  zipfWords,
  type TestLibrary,
} from './store.testkit';

let lib: TestLibrary;
const rand = mulberry32(6006);

beforeAll(async () => {
  lib = await openTestLibrary();
  for (let i = 0; i < 200; i++) {
    const words = zipfWords(rand, 40 + Math.floor(rand() * 120), 600);
    await put(lib.store, doc(`${i % 2 ? 'odd' : 'even'}/d${i}.txt`, words.join(' ')));
  }
});
afterAll(async () => {
  await lib.close();
});

/** A lexical search over the test library that counts its term_stats lookups. */
async function countingSearch(options: { prune?: boolean } = {}) {
  const counts = { termStats: 0 };
  const sql = Object.create(lib.db.sql) as Sql;
  sql.all = (text, params) => {
    if (text.includes('FROM term_stats')) counts.termStats++;
    return lib.db.sql.all(text, params);
  };
  const search = await createLexicalSearch(sql, { version: lib.store.version, ...options });
  return { search, counts };
}

/** A plan's queries: an original and variants sharing its last words, plus harder cases. */
function planQueries(): string[] {
  const original = zipfWords(rand, 12, 600);
  const tail = original.slice(-3);
  const variants = [0, 1, 2, 3].map(() => [...zipfWords(rand, 3, 600), ...tail].join(' '));
  return [
    original.join(' '),
    ...variants,
    `"${original.slice(0, 2).join(' ')}" ${tail[0]}`, // a phrase
    zipfWords(rand, 300, 600).join(' '), // long: pruned, late terms
    original.join(' '), // the same query twice
    'zzzunknownzzz', // matches nothing
    '', // empty
  ];
}

async function oneAtATime(search: LexicalSearch, queries: string[], limit: number) {
  const out = [];
  for (const q of queries) out.push(await search.rank(q, { limit }));
  return out;
}

describe('batched rankings', () => {
  it('rank concurrent queries exactly as one at a time (chunks, scores, notices, work)', async () => {
    for (let round = 0; round < 4; round++) {
      const queries = planQueries();
      const limit = [5, 20][round % 2]!;
      const { search, counts } = await countingSearch();
      const batched = await Promise.all(queries.map((q) => search.rank(q, { limit })));
      // One term_stats lookup served every query: they ran as one batch.
      expect(counts.termStats).toBe(1);
      const alone = await oneAtATime((await countingSearch()).search, queries, limit);
      expect(batched).toEqual(alone);
      const exhaustive = await countingSearch({ prune: false });
      const full = await Promise.all(queries.map((q) => exhaustive.search.rank(q, { limit })));
      expect(full.map((r) => r.chunks)).toEqual(alone.map((r) => r.chunks));
      expect(batched.some((r) => r.work.lateTerms > 0)).toBe(true); // pruning took part
    }
  });

  it('applies each query its own filters, and a bad filter fails only its own call', async () => {
    const [a, b] = planQueries();
    const { search } = await countingSearch();
    const calls = [
      search.rank(a!, { limit: 10, filters: { pathGlob: 'odd/**' } }),
      search.rank(a!, { limit: 10 }),
      search.rank(b!, { limit: 10, filters: { modifiedAfter: Number.NaN } }),
      search.rank(b!, { limit: 10, filters: { pathGlob: 'even/**' } }),
    ];
    const settled = await Promise.allSettled(calls);
    expect(settled[2]).toMatchObject({ status: 'rejected', reason: { code: 'INVALID_ARGUMENT' } });
    const ok = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    expect(ok).toHaveLength(3);
    expect(ok[0]!.chunks.every((c) => c.path.startsWith('odd/'))).toBe(true);
    expect(ok[2]!.chunks.every((c) => c.path.startsWith('even/'))).toBe(true);
    const alone = (await countingSearch()).search;
    expect(ok).toEqual([
      await alone.rank(a!, { limit: 10, filters: { pathGlob: 'odd/**' } }),
      await alone.rank(a!, { limit: 10 }),
      await alone.rank(b!, { limit: 10, filters: { pathGlob: 'even/**' } }),
    ]);
  });

  it('sees a write that completed before the call (never joins a job that started)', async () => {
    const { search } = await countingSearch();
    const word = 'batchfreshword';
    const before = search.rank(word);
    await put(lib.store, doc('late/fresh.txt', `${word} appears here`));
    const after = await search.rank(word);
    expect((await before).chunks).toEqual([]);
    expect(after.chunks.map((c) => c.path)).toEqual(['late/fresh.txt']);
  });
});
