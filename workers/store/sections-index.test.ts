// A chunk's outline section is indexed with its document's title: a query naming a heading finds
// the chunks under it even where their text never says the word; the index stays in step with
// the chunks through replace, delete and the migration that added the column (FTS5's own check).
import { afterEach, describe, expect, it } from 'vitest';
import { MIGRATIONS } from './migrations';
import { openNodeDatabase } from './open-database-node';
import { createStore } from './store';
import { doc, openTestLibrary, put, type TestLibrary } from './store.testkit';

// Two 200-character chunks (the testkit's size): the second, under the heading "Load", never
// says "load".
const FIRST = 'Plotting draws curves from data files; a script may call other scripts.'.padEnd(200);
const SECOND = 'It executes each line of the given file as if typed at the prompt.'.padEnd(200);
const TEXT = FIRST + SECOND;
const SECTIONS: Array<[number, string[]]> = [
  [0, ['Commands', 'Plot']],
  [200, ['Commands', 'Load']],
];

const integrity = (sql: TestLibrary['db']['sql']) =>
  sql.run("INSERT INTO chunks_fts(chunks_fts, rank) VALUES ('integrity-check', 1)");

let lib: TestLibrary | null = null;
afterEach(async () => {
  await lib?.close();
  lib = null;
});

describe('sections in the index', () => {
  it('finds the chunk under a heading by the heading word, and keeps the index in step', async () => {
    lib = await openTestLibrary();
    await put(lib.store, doc('manual.pdf', TEXT, { sections: SECTIONS }));
    await put(lib.store, doc('plain.txt', 'Nothing about the subject here.'));
    const { hits } = await lib.search.search({ query: 'load' });
    expect(hits.map((h) => [h.path, h.start])).toEqual([['manual.pdf', 200]]);
    const rows = await lib.db.sql.all<{ section: string | null }>(
      'SELECT section FROM chunks ORDER BY document_id, seq',
    );
    expect(rows.map((r) => r.section)).toEqual(['Commands Plot', 'Commands Load', null]);
    await integrity(lib.db.sql);
    // Replaced without sections, then deleted: the index follows.
    await put(lib.store, doc('manual.pdf', TEXT), 'v2');
    expect((await lib.search.search({ query: 'load' })).hits).toEqual([]);
    await integrity(lib.db.sql);
    const id = (await lib.store.listDocuments()).find((d) => d.path === 'manual.pdf')!.id;
    await lib.store.deleteDocument(id);
    await integrity(lib.db.sql);
  });

  it('migrates a library indexed before sections without disturbing its index', async () => {
    const db = await openNodeDatabase();
    const old = await createStore(db, { migrations: MIGRATIONS.slice(0, 14) });
    await put(old, doc('old.txt', TEXT));
    const current = await createStore(db);
    await integrity(db.sql);
    await current.deleteDocument((await current.listDocuments())[0]!.id);
    await integrity(db.sql);
    await db.close();
  });
});
