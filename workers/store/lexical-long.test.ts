// Long queries (issue 15 item 4): every term counts. Safe pruning must give exactly the
// exhaustive ranking and scores; the postings budget must bound the work and say so.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLexicalSearch, type LexicalSearch } from './lexical-search';
import { MAX_QUERY_LENGTH } from './lexical-query';
import {
  doc,
  mulberry32,
  openTestLibrary,
  put,
  zipfWords,
  type TestLibrary,
} from './store.testkit';

let lib: TestLibrary;
let exhaustive: LexicalSearch;
const rand = mulberry32(1515);
const query = (n: number) => zipfWords(rand, n).join(' ');

beforeAll(async () => {
  lib = await openTestLibrary();
  for (let i = 0; i < 300; i++) {
    const words = zipfWords(rand, 60 + Math.floor(rand() * 120));
    await put(lib.store, doc(`d${String(i).padStart(3, '0')}.txt`, words.join(' ')));
  }
  exhaustive = await createLexicalSearch(lib.db.sql, { version: lib.store.version, prune: false });
});
afterAll(async () => {
  await lib.close();
});

describe('long queries', () => {
  it('ranks 300-word queries exactly as reading every posting list does (ranks and scores)', async () => {
    let pruned = 0;
    for (let q = 0; q < 6; q++) {
      const text = query(300);
      for (const limit of [5, 20]) {
        const fast = await lib.search.rank(text, { limit });
        const full = await exhaustive.rank(text, { limit });
        expect(fast.notice).toBeNull();
        expect(fast.chunks).toEqual(full.chunks);
        expect(full.work.lateTerms).toBe(0);
        if (fast.work.lateTerms > 0) pruned++;
        expect(fast.work.postingsRead).toBeLessThanOrEqual(full.work.postingsRead);
      }
    }
    // The bound must actually skip work here, or this test would prove nothing.
    expect(pruned).toBeGreaterThan(0);
  });

  it('ranks the same with posting lists held in memory, before and after the library changes', async () => {
    const cached = await createLexicalSearch(lib.db.sql, {
      version: lib.store.version,
      postingCacheMin: 1, // every list is kept: the test library's lists are short
    });
    const plain = await createLexicalSearch(lib.db.sql, {
      version: lib.store.version,
      postingCacheEntries: 0,
    });
    const budgeted = (entries: number) =>
      createLexicalSearch(lib.db.sql, {
        version: lib.store.version,
        postingsBudget: 300,
        postingCacheEntries: entries,
        postingCacheMin: 1,
      });
    const [tightCached, tightPlain] = [await budgeted(1_000_000), await budgeted(0)];
    const texts = Array.from({ length: 4 }, () => query(300));
    const check = async () => {
      for (const text of [...texts, ...texts]) {
        const [fast, full] = [await cached.rank(text, { limit: 10 }), await exhaustive.rank(text)];
        expect(fast.chunks).toEqual(full.chunks);
        expect(fast.notice).toBeNull();
        expect(fast).toEqual(await plain.rank(text, { limit: 10 }));
        // Where the budget stops reading never depends on what the cache holds.
        expect(await tightCached.rank(text, { limit: 10 })).toEqual(
          await tightPlain.rank(text, { limit: 10 }),
        );
      }
    };
    await check();
    const top = (await exhaustive.rank(texts[0]!, { limit: 1 })).chunks[0]!;
    await lib.store.deleteDocument(top.documentId);
    await put(lib.store, doc('changed.txt', texts[1]!));
    await check();
  });

  it('keeps terms beyond the old 32-term limit: a rare 40th word decides the ranking', async () => {
    await put(lib.store, doc('needle.txt', 'zzneedlezz appears here only'));
    const filler = Array.from({ length: 39 }, (_, i) => `filler${i}x`).join(' ');
    const hits = await lib.search.rankChunks(`${filler} zzneedlezz`, { limit: 3 });
    expect(hits[0]?.path).toBe('needle.txt');
  });

  it('bounds the work with a postings budget, says which terms only re-ranked, keeps scores exact', async () => {
    const tight = await createLexicalSearch(lib.db.sql, {
      version: lib.store.version,
      postingsBudget: 200,
    });
    const text = query(300);
    const cheap = await tight.rank(text, { limit: 10 });
    expect(cheap.work.postingsRead).toBeLessThanOrEqual(200);
    expect(cheap.notice?.rankOnlyTerms.length).toBeGreaterThan(0);
    expect(cheap.notice?.message).toMatch(/only re-ranked/);
    // Every passage it returns carries its full score (all terms), as the exhaustive ranking has it.
    const full = await exhaustive.rank(text, { limit: 1000 });
    const scoreOf = new Map(full.chunks.map((c) => [c.chunkId, c.score]));
    for (const c of cheap.chunks) expect(c.score).toBe(scoreOf.get(c.chunkId));
  });

  it('keeps scores exact when the stem cache overflows while re-ranking', async () => {
    const small = await createLexicalSearch(lib.db.sql, {
      version: lib.store.version,
      postingsBudget: 200,
      stemCacheMax: 50, // far fewer than the words of the re-ranked chunks
    });
    for (let q = 0; q < 3; q++) {
      const text = query(300);
      const cheap = await small.rank(text, { limit: 10 });
      expect(cheap.work.lateTerms).toBeGreaterThan(0);
      const all = await exhaustive.rank(text, { limit: 1000 });
      const scoreOf = new Map(all.chunks.map((c) => [c.chunkId, c.score]));
      for (const c of cheap.chunks) expect(c.score).toBe(scoreOf.get(c.chunkId));
    }
  });

  it('reads a 10 KB paste within bounds and says what it did not read beyond the limit', async () => {
    const paste = query(3_000); // about 15,000 characters
    expect(paste.length).toBeLessThan(MAX_QUERY_LENGTH);
    const res = await lib.search.search({ query: paste + ' ' + 'x'.repeat(MAX_QUERY_LENGTH) });
    expect(res.hits.length).toBeGreaterThan(0);
    expect(res.notice?.truncatedChars).toBeGreaterThan(0);
    expect(res.notice?.message).toMatch(/characters of the query were not read/);
    const plain = await lib.search.search({ query: 'w1q w2q' });
    expect(plain.notice).toBeUndefined();
  });

  it('gives the best attainable score of a query: above every chunk, higher with a word the library lacks', async () => {
    for (const n of [3, 30, 300]) {
      const text = query(n);
      const r = await lib.search.rank(text, { limit: 50 });
      expect(r.chunks.length).toBeGreaterThan(0);
      for (const c of r.chunks) expect(c.score).toBeLessThan(r.maxScore);
      const missing = await lib.search.rank(`${text} zzyzxnotaword`, { limit: 50 });
      expect(missing.maxScore).toBeGreaterThan(r.maxScore);
      expect(missing.chunks.map((c) => c.score)).toEqual(r.chunks.map((c) => c.score));
    }
    expect((await lib.search.rank('zzyzxnotaword', { limit: 5 })).chunks).toEqual([]);
  });
});
