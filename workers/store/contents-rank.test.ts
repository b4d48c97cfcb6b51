// Contents and index chunks are marked when stored and ranked below every other match in search,
// however well their words score; libraries stored before are marked by migration 14.
import { afterEach, describe, expect, it } from 'vitest';
import { openNodeDatabase } from './open-database-node';
import { MIGRATIONS } from './migrations';
import { createStore } from './store';
import { doc, openTestLibrary, put, type TestLibrary } from './store.testkit';

// Each part fits one of the testkit's 200-character chunks.
const CONTENTS = [
  'Lazy evaluation . . . . . . 43',
  'Lazy evaluation, promises . 44',
  'Lazy loading . . . . . . . 45',
  'Evaluation order . . . . . 46',
]
  .join('\n')
  .padEnd(199, ' ');
const PROSE = 'R delays lazy evaluation of an argument until the function uses its value.';

let lib: TestLibrary | null = null;
afterEach(async () => {
  await lib?.close();
  lib = null;
});

describe('contents and index chunks in search', () => {
  it('ranks a contents chunk below the prose that matches fewer times', async () => {
    lib = await openTestLibrary();
    await put(lib.store, doc('manual.pdf', `${CONTENTS}\n${PROSE}`));
    const { hits } = await lib.search.search({ query: 'lazy evaluation' });
    expect(hits.map((h) => h.snippet.text.slice(0, 12))).toEqual([
      PROSE.slice(0, 12),
      'Lazy evaluat',
    ]);
    const marked = await lib.db.sql.all<{ contents: number }>(
      'SELECT contents FROM chunks ORDER BY seq',
    );
    expect(marked.map((r) => Number(r.contents))).toEqual([1, 0]);
  });

  it('marks the contents chunks of a library stored before migration 14', async () => {
    const db = await openNodeDatabase();
    const old = await createStore(db, { migrations: MIGRATIONS.slice(0, 13) });
    await put(old, doc('manual.pdf', `${'Preface words. '.repeat(14)}\n${PROSE}`));
    // The first chunk's text as a contents page (the migration reads only chunks.text).
    await db.sql.run('UPDATE chunks SET text = ? WHERE seq = 0', [CONTENTS]);
    await createStore(db);
    const marked = await db.sql.all<{ contents: number }>(
      'SELECT contents FROM chunks ORDER BY seq',
    );
    expect(marked.map((r) => Number(r.contents))).toEqual([1, 0]);
    await db.close();
  });
});
