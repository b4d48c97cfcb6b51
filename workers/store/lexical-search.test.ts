import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createLexicalSearch,
  forEachInt,
  likeContains,
  normaliseScores,
  readVarints,
} from './lexical-search';
import { compareRanked } from '../shared/ranking';
import { chunksOf, doc, openTestLibrary, put, type TestLibrary } from './store.testkit';

let lib: TestLibrary;
beforeEach(async () => {
  lib = await openTestLibrary();
});
afterEach(async () => {
  await lib.close();
});

describe('ranking', () => {
  it('ranks more matching and rarer terms higher (BM25)', async () => {
    await put(lib.store, doc('one.txt', 'the merkle tree is a structure'));
    await put(lib.store, doc('two.txt', 'merkle tree verification with merkle proofs'));
    await put(lib.store, doc('three.txt', 'a tree in the garden'));
    await put(lib.store, doc('four.txt', 'nothing relevant here'));
    const hits = await lib.search.rankChunks('merkle tree verification');
    expect(hits.map((h) => h.path)).toEqual(['two.txt', 'one.txt', 'three.txt']);
    expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
  });

  it('matches stems: "running" finds "runs"', async () => {
    await put(lib.store, doc('r.txt', 'She runs every day'));
    expect((await lib.search.rankChunks('running')).map((h) => h.path)).toEqual(['r.txt']);
    expect(await lib.search.stems(['Running', 'CAFÉ'])).toEqual([['run'], ['cafe']]);
    // Overlapping calls share one scratch table and must not see each other's words.
    const words = ['running', 'cats', 'flies', 'happily', 'generously'];
    const each = await Promise.all(words.map((w) => lib.search.stems([w, w])));
    expect(each.map((r) => r[0])).toEqual([['run'], ['cat'], ['fli'], ['happili'], ['gener']]);
  });

  it('counts title words', async () => {
    await put(lib.store, doc('t.txt', 'body text only', { title: 'Zeppelin history' }));
    expect((await lib.search.rankChunks('zeppelin')).map((h) => h.path)).toEqual(['t.txt']);
  });

  it('breaks score ties by path ascending, then chunk sequence ascending', async () => {
    // Identical texts under different paths score exactly the same.
    for (const path of ['b.txt', 'c.txt', 'a.txt'])
      await put(lib.store, doc(path, 'identical alpha text', { title: 'same' }));
    expect((await lib.search.rankChunks('alpha')).map((h) => h.path)).toEqual([
      'a.txt',
      'b.txt',
      'c.txt',
    ]);
    // A tie at the cut is broken by path too, not by index order (b and c were stored first).
    expect((await lib.search.rankChunks('alpha', { limit: 2 })).map((h) => h.path)).toEqual([
      'a.txt',
      'b.txt',
    ]);
    expect(
      [
        { score: 1, path: 'b', seq: 2 },
        { score: 1, path: 'b', seq: 0 },
        { score: 2, path: 'z', seq: 5 },
        { score: 1, path: 'a', seq: 9 },
      ].sort(compareRanked),
    ).toEqual([
      { score: 2, path: 'z', seq: 5 },
      { score: 1, path: 'a', seq: 9 },
      { score: 1, path: 'b', seq: 0 },
      { score: 1, path: 'b', seq: 2 },
    ]);
  });

  it('is deterministic across calls', async () => {
    for (let i = 0; i < 20; i++)
      await put(lib.store, doc(`d${i % 7}/${i}.txt`, `alpha ${'beta '.repeat(i % 4)} gamma ${i}`));
    const a = await lib.search.search({ query: 'alpha beta' });
    const b = await lib.search.search({ query: 'alpha beta' });
    expect(a).toEqual(b);
    // The joined path (any filter) and the fast path (no filter) rank identically.
    const fast = await lib.search.rankChunks('alpha beta gamma', { limit: 7 });
    const joined = await lib.search.rankChunks('alpha beta gamma', {
      limit: 7,
      filters: { pathGlob: '**' },
    });
    expect(fast).toEqual(joined);
    expect(fast).toHaveLength(7);
  });

  it('keeps cached statistics in step with changes (same scores as an uncached search)', async () => {
    const uncached = await createLexicalSearch(lib.db.sql);
    await put(lib.store, doc('a.txt', 'alpha beta'));
    await put(lib.store, doc('b.txt', 'alpha gamma'));
    expect(await lib.search.rankChunks('alpha beta')).toEqual(
      await uncached.rankChunks('alpha beta'),
    );
    const { documentId } = await put(lib.store, doc('c.txt', 'beta beta delta'));
    await put(lib.store, doc('d.txt', 'beta'));
    expect(await lib.search.rankChunks('alpha beta')).toEqual(
      await uncached.rankChunks('alpha beta'),
    );
    await lib.store.deleteDocument(documentId);
    expect(await lib.search.rankChunks('alpha beta')).toEqual(
      await uncached.rankChunks('alpha beta'),
    );
  });

  it('shares postings between rankings only while the library is unchanged', async () => {
    const uncached = await createLexicalSearch(lib.db.sql);
    for (let i = 0; i < 12; i++)
      await put(lib.store, doc(`v${i}.txt`, `lack inductive ${'properties '.repeat(i % 3)} ${i}`));
    // A plan's variants, ranked together: they share stems (read once, then from the cache).
    const variants = [
      'lack inductive properties',
      'definition of lack inductive properties',
      'evidence about inductive properties',
      'mechanisms behind lack',
      'recent findings on properties',
    ];
    const together = await Promise.all(variants.map((v) => lib.search.rankChunks(v)));
    for (const [i, v] of variants.entries())
      expect(together[i]).toEqual(await uncached.rankChunks(v));
    // An edit changes a shared stem's postings: the next ranking reads them again.
    await put(lib.store, doc('v0.txt', 'properties properties properties inductive'));
    await put(lib.store, doc('new.txt', 'lack lack lack'));
    for (const v of variants)
      expect(await lib.search.rankChunks(v)).toEqual(await uncached.rankChunks(v));
  });

  it('uses document-level IDF: a title repeated in many chunks counts once', async () => {
    const chunked = await createLexicalSearch(lib.db.sql, { bm25: { idfUnit: 'chunk' } });
    const long = 'filler '.repeat(300);
    await lib.store.putDocument(
      doc('long.txt', long, { title: 'zebra' }),
      chunksOf(long, 100),
      'h1',
    );
    await put(lib.store, doc('short.txt', 'zebra crossing'));
    await put(lib.store, doc('other.txt', 'nothing here'));
    const byDoc = await lib.search.rankChunks('zebra', { limit: 100 });
    const byChunk = await chunked.rankChunks('zebra', { limit: 100 });
    // Same order, but the word is rarer per document than per chunk: higher IDF.
    expect(byDoc.map((h) => h.path)).toEqual(byChunk.map((h) => h.path));
    expect(byDoc[0]!.score).toBeGreaterThan(byChunk[0]!.score);
  });

  it('requires quoted phrases', async () => {
    await put(lib.store, doc('p.txt', 'merkle tree here'));
    await put(lib.store, doc('q.txt', 'tree of merkle'));
    expect((await lib.search.rankChunks('"merkle tree"')).map((h) => h.path)).toEqual(['p.txt']);
  });
});

describe('search response', () => {
  it('normalises scores to 0..1 over the returned hits and fills ranks.lexical', async () => {
    await put(lib.store, doc('one.txt', 'alpha'));
    await put(lib.store, doc('two.txt', 'alpha alpha beta'));
    await put(lib.store, doc('three.txt', 'beta gamma delta epsilon'));
    const res = await lib.search.search({ query: 'alpha beta' });
    expect(res.mode).toBe('lexical');
    expect(res.terms).toEqual(['alpha', 'beta']);
    expect(res.hits.map((h) => h.ranks.lexical)).toEqual([1, 2, 3]);
    expect(res.hits[0]!.score).toBe(1);
    expect(res.hits[2]!.score).toBe(0);
    expect(normaliseScores([3, 3])).toEqual([1, 1]);
    expect(normaliseScores([-2, 0, 2])).toEqual([0, 0.5, 1]);
    const hit = res.hits[0]!;
    expect(hit).toMatchObject({
      path: 'two.txt',
      title: 'two.txt',
      mime: 'text/plain',
      seq: 0,
      start: 0,
    });
  });

  it('returns nothing for a query with no searchable words', async () => {
    await put(lib.store, doc('one.txt', 'alpha'));
    expect((await lib.search.search({ query: '"" *** :' })).hits).toEqual([]);
  });

  it('honours the limit', async () => {
    for (let i = 0; i < 15; i++) await put(lib.store, doc(`${i}.txt`, `alpha ${i}`));
    expect((await lib.search.search({ query: 'alpha' })).hits).toHaveLength(10);
    expect((await lib.search.search({ query: 'alpha', limit: 3 })).hits).toHaveLength(3);
  });
});

describe('snippets', () => {
  it('highlights every word whose stem matches, as ranges into the text', async () => {
    await put(lib.store, doc('s.txt', 'Runners were running; the RUN ended. Café!'));
    const [hit] = (await lib.search.search({ query: 'run cafe' })).hits;
    const { text, highlights } = hit!.snippet;
    expect(highlights.map(([s, e]) => text.slice(s, e))).toEqual(['running', 'RUN', 'Café']);
  });

  it('windows long chunks around the first match with ellipses', async () => {
    const text = `${'filler words here. '.repeat(20)}the needle sits here ${'more filler words. '.repeat(10)}`;
    const long = text.slice(0, 480);
    await lib.store.putDocument(doc('long.txt', long), chunksOf(long, 1000), 'h');
    const [hit] = (await lib.search.search({ query: 'needle' })).hits;
    const { text: snip, highlights } = hit!.snippet;
    expect(snip.startsWith('\u2026')).toBe(true);
    expect(snip.length).toBeLessThanOrEqual(282);
    expect(highlights).toHaveLength(1);
    expect(snip.slice(highlights[0]![0], highlights[0]![1])).toBe('needle');
  });

  it('never contains markup it did not get (text, not HTML)', async () => {
    await put(lib.store, doc('x.html', 'alpha <script>alert(1)</script>'));
    const [hit] = (await lib.search.search({ query: 'alpha' })).hits;
    expect(hit!.snippet.text).toBe('alpha <script>alert(1)</script>');
  });
});

describe('filters', () => {
  beforeEach(async () => {
    await put(lib.store, doc('notes/a.md', 'alpha one', { mime: 'text/markdown', modified: 100 }));
    await put(
      lib.store,
      doc('notes/deep/b.md', 'alpha two 100%_done', { mime: 'text/markdown', modified: 200 }),
    );
    await put(
      lib.store,
      doc('c.txt', 'alpha three Ünïcode', { mime: 'text/plain', modified: 300 }),
    );
    await put(lib.store, doc('d.pdf', 'alpha four', { mime: 'application/pdf', modified: 400 }));
  });
  const paths = async (filters: object) =>
    (await lib.search.rankChunks('alpha', { filters, limit: 100 })).map((h) => h.path).sort();

  it('path glob: * stays in a folder, ** crosses folders, ? is one character', async () => {
    expect(await paths({ pathGlob: 'notes/*.md' })).toEqual(['notes/a.md']);
    expect(await paths({ pathGlob: 'notes/**/*.md' })).toEqual(['notes/a.md', 'notes/deep/b.md']);
    expect(await paths({ pathGlob: '?.txt' })).toEqual(['c.txt']);
    expect(await paths({ pathGlob: '*' })).toEqual(['c.txt', 'd.pdf']);
  });

  it('mime list', async () => {
    expect(await paths({ mime: ['text/plain', 'application/pdf'] })).toEqual(['c.txt', 'd.pdf']);
    expect(await paths({ mime: [] })).toHaveLength(4);
  });

  it('modified after (inclusive) and before (exclusive)', async () => {
    expect(await paths({ modifiedAfter: 200, modifiedBefore: 400 })).toEqual([
      'c.txt',
      'notes/deep/b.md',
    ]);
  });

  it('content contains: case-insensitive, literal % and _', async () => {
    expect(await paths({ contains: 'THREE' })).toEqual(['c.txt']);
    expect(await paths({ contains: '100%_' })).toEqual(['notes/deep/b.md']);
    expect(await paths({ contains: '%' })).toEqual(['notes/deep/b.md']);
    expect(await paths({ contains: 'üNÏ' })).toEqual(['c.txt']);
    expect(likeContains('a%b_c\\')).toBe('%a\\%b\\_c\\\\%');
  });

  it('rejects malformed filters', async () => {
    await expect(
      lib.search.rankChunks('alpha', { filters: { modifiedAfter: Number.NaN } }),
    ).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(
      lib.search.rankChunks('alpha', { filters: { mime: 'text/plain' as never } }),
    ).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});

describe('readVarints', () => {
  it('decodes SQLite varints', () => {
    expect(readVarints(new Uint8Array([0x02, 0x05]))).toEqual([2, 5]);
    expect(readVarints(new Uint8Array([0x81, 0x00, 0x7f]))).toEqual([128, 127]);
  });
});

describe('forEachInt', () => {
  it('reads the comma-separated id lists of group_concat (empty and NULL give none)', () => {
    const read = (list: string | null) => {
      const out: number[] = [];
      forEachInt(list, (n) => out.push(n));
      return out;
    };
    expect(read('3,17,3,100000')).toEqual([3, 17, 3, 100000]);
    expect(read('0')).toEqual([0]);
    expect(read('')).toEqual([]);
    expect(read(null)).toEqual([]);
  });
});

describe('postings-only ranking (no filters, no phrases)', () => {
  it('equals the MATCH-filtered ranking on a library with deletions and repeated words', async () => {
    for (let i = 0; i < 40; i++) {
      const words = ['alpha', 'beta', 'gamma', 'delta', 'running', 'runs'];
      const text = Array.from({ length: 5 + (i % 9) }, (_, k) => words[(i * k + i) % 6]).join(' ');
      await lib.store.putDocument(
        doc(`f${i % 3}/d${i}.txt`, text, { title: words[i % 6]! }),
        chunksOf(text, 20),
        `h${i}`,
      );
    }
    const docs = await lib.store.listDocuments();
    for (const d of docs.slice(0, 10)) await lib.store.deleteDocument(d.id);
    for (const q of ['alpha beta', 'run', 'gamma gamma delta', 'beta running']) {
      const fast = await lib.search.rankChunks(q, { limit: 50 });
      // Any filter takes the MATCH path; '**' keeps every document.
      const matched = await lib.search.rankChunks(q, { limit: 50, filters: { pathGlob: '**' } });
      expect(fast, q).toEqual(matched);
      expect(fast.length, q).toBeGreaterThan(0);
      expect(fast.every((h) => docs.slice(10).some((d) => d.id === h.documentId))).toBe(true);
    }
  });
});
