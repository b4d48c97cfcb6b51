import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_QUERY_LENGTH, parseQuery, STOP_WORDS } from './lexical-query';
import { doc, mulberry32, openTestLibrary, put, type TestLibrary } from './store.testkit';

describe('parseQuery', () => {
  it('drops stop words and OR-joins quoted words', () => {
    const q = parseQuery('The merkle tree of verification');
    expect(q.terms).toEqual(['merkle', 'tree', 'verification']);
    expect(q.match).toBe('"merkle" OR "tree" OR "verification"');
  });

  it('requires quoted phrases and ORs the rest', () => {
    const q = parseQuery('"merkle tree" verification proofs');
    expect(q.phrases).toEqual([['merkle', 'tree']]);
    expect(q.match).toBe('"merkle tree" AND ("verification" OR "proofs")');
    expect(parseQuery('"merkle tree"').match).toBe('"merkle tree"');
  });

  it('counts repeated words once in the expression but weights them', () => {
    const q = parseQuery('cell cell growth');
    expect(q.terms).toEqual(['cell', 'growth']);
    expect(q.termCounts).toEqual([2, 1]);
  });

  it('keeps the words of an all-stop-word query and returns null for nothing', () => {
    expect(parseQuery('the who').terms).toEqual(['who']);
    expect(parseQuery('to be or not to be').terms).toEqual(['to', 'be', 'or', 'not']);
    expect(parseQuery('  *** ^^ ').match).toBeNull();
    expect(parseQuery('').match).toBeNull();
  });

  it('neutralises FTS5 syntax: operators become searched words, specials separators', () => {
    expect(parseQuery('NEAR(a b, 3) OR title:x* ^start').match).toBe(
      '"near" OR "b" OR "3" OR "title" OR "x" OR "start"',
    );
    expect(parseQuery('AND').match).toBe('"and"');
    expect(parseQuery('"unbalanced quote here').match).toBe('"unbalanced" OR "quote" OR "here"');
    expect(parseQuery('{title body}: NOT x').match).toBe('"title" OR "body" OR "x"');
  });

  it('bounds very long input and says how much it did not read', () => {
    const q = parseQuery('word '.repeat(10_000) + 'tail');
    expect(q.terms).toEqual(['word']);
    expect(q.termCounts[0]).toBe(MAX_QUERY_LENGTH / 5);
    expect(q.truncated).toBe(50_004 - MAX_QUERY_LENGTH);
    expect(parseQuery('short').truncated).toBe(0);
  });

  it('keeps every distinct word of a long query (no term limit)', () => {
    const words = Array.from({ length: 300 }, (_, i) => `w${i}x`);
    const q = parseQuery(words.join(' '));
    expect(q.terms).toEqual(words);
    expect(q.truncated).toBe(0);
  });

  it('uses the Lucene English stop list', () => {
    expect(STOP_WORDS.size).toBe(33);
    expect(STOP_WORDS.has('with')).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------------
// Seeded fuzz: hostile input must never surface an SQL error. Set SEED=<n> to replay a failure.

const PIECES = [
  'NEAR(',
  'NEAR',
  ')',
  '(',
  '*',
  '^',
  ':',
  '"',
  '""',
  "'",
  '-',
  '+',
  'AND',
  'OR',
  'NOT',
  'and',
  'title:',
  'body:',
  '{title body}:',
  '{',
  '}',
  ',',
  ' ',
  '  ',
  '\t',
  '\n',
  '\u0000',
  '\u0001',
  '\u001f',
  '\u007f',
  'alpha',
  'beta',
  'café',
  'Straße',
  '数据库',
  '\ud83d\ude00',
  '\ud800',
  '\udc00',
  '%',
  '_',
  '\\',
  ';',
  'DROP TABLE documents;',
  '--',
  '/*',
  '*/',
  '0x',
  '123',
  '1e9',
  '\u200b',
  '\u0301',
  'e\u0301',
];

function hostile(rand: () => number): string {
  const n = 1 + Math.floor(rand() * 12);
  let s = '';
  for (let i = 0; i < n; i++) {
    if (rand() < 0.1) s += String.fromCharCode(Math.floor(rand() * 0x10000));
    else s += PIECES[Math.floor(rand() * PIECES.length)];
  }
  return rand() < 0.02 ? s.repeat(500) : s;
}

/** Seeds that failed once (none yet); each stays as a named regression case. */
const REGRESSION_SEEDS: Record<string, number> = {};

describe('query parser against real FTS5 (fuzz)', () => {
  let lib: TestLibrary;
  beforeAll(async () => {
    lib = await openTestLibrary();
    await put(
      lib.store,
      doc('a.txt', 'alpha beta café Straße 数据库 near and or not title body 123'),
    );
  });
  afterAll(async () => {
    await lib.close();
  });

  it('raw hostile input does break FTS5 (so the fuzz can fail)', async () => {
    await expect(
      lib.db.sql.all('SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ?', ['NEAR(alpha']),
    ).rejects.toMatchObject({ code: 'DB_ERROR' });
  });

  async function runSeed(seed: number, cases: number): Promise<void> {
    const rand = mulberry32(seed);
    for (let i = 0; i < cases; i++) {
      const input = hostile(rand);
      try {
        const parsed = parseQuery(input);
        if (parsed.match)
          await lib.db.sql.all('SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ?', [
            parsed.match,
          ]);
        await lib.search.search({
          query: input,
          filters: { contains: input.slice(0, 5), pathGlob: input.slice(0, 4) },
        });
      } catch (err) {
        throw new Error(
          `Fuzz failure: SEED=${seed} case ${i} input=${JSON.stringify(input)}: ${String(err)}`,
          { cause: err },
        );
      }
    }
  }

  it.each([
    ['open NEAR', 'NEAR('],
    ['lone quote', '"'],
    ['column filter', 'title:alpha'],
    ['column set', '{title body}: alpha'],
    ['caret and star', '^alpha*'],
    ['bare operators', 'AND OR NOT'],
    ['NUL and controls', '\u0000alpha\u0001\u001f'],
    ['lone surrogate', '\ud800alpha\udc00'],
    ['empty phrase', '"" alpha ""'],
    ['SQL', "'); DROP TABLE documents; --"],
  ])('hostile input: %s', async (_name, input) => {
    const parsed = parseQuery(input);
    if (parsed.match)
      await lib.db.sql.all('SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ?', [parsed.match]);
    await lib.search.search({ query: input });
    expect(await lib.store.stats()).toMatchObject({ documents: 1 });
  });

  for (const [name, seed] of Object.entries(REGRESSION_SEEDS)) {
    it(`regression seed ${name}`, () => runSeed(seed, 300));
  }

  it('never throws for random hostile queries', async () => {
    const seed = process.env.SEED ? Number(process.env.SEED) : Date.now() % 2 ** 31;
    await runSeed(seed, 400);
  });
});
