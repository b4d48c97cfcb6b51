import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, SCHEMA_VERSION } from './migrations';
import { createStore } from './store';
import { openNodeDatabase } from './open-database-node';
import { createVectorStore } from './vectors';
import { chunksOf, doc, openTestLibrary, put, type TestLibrary } from './store.testkit';

let lib: TestLibrary;
beforeEach(async () => {
  lib = await openTestLibrary();
});
afterEach(async () => {
  await lib.close();
});

async function ftsRows(): Promise<number> {
  // Counts index entries (not content rows): an FTS row left behind would still be matched.
  const rows = await lib.db.sql.all<{ n: number }>(
    "SELECT count(*) AS n FROM chunks_fts WHERE chunks_fts MATCH 'alpha OR beta OR gamma'",
  );
  return Number(rows[0]?.n ?? 0);
}

async function ftsIntegrity(): Promise<void> {
  await lib.db.sql.run("INSERT INTO chunks_fts(chunks_fts, rank) VALUES ('integrity-check', 1)");
}

describe('putDocument', () => {
  it('adds, then reports unchanged for the same path and hash without writing', async () => {
    const added = await put(lib.store, doc('a.txt', 'alpha beta'));
    expect(added).toMatchObject({ outcome: 'added', chunkCount: 1 });
    const v = lib.store.version();
    const again = await put(lib.store, doc('a.txt', 'alpha beta'));
    expect(again).toEqual({ outcome: 'unchanged', documentId: added.documentId, chunkCount: 1 });
    expect(lib.store.version()).toBe(v);
    expect((await lib.store.listDocuments())[0]?.importedAt).toBe(1000);
  });

  it('replaces the chunks and index rows of a changed document under the same id', async () => {
    const first = await put(lib.store, doc('a.txt', 'alpha'));
    const second = await put(lib.store, doc('a.txt', 'gamma', { title: 'New title' }));
    expect(second).toMatchObject({ outcome: 'replaced', documentId: first.documentId });
    const hits = await lib.search.rankChunks('alpha');
    expect(hits).toHaveLength(0);
    expect((await lib.search.rankChunks('gamma')).map((h) => h.path)).toEqual(['a.txt']);
    expect((await lib.search.rankChunks('new title')).map((h) => h.path)).toEqual(['a.txt']);
    await ftsIntegrity();
  });

  it('reports a duplicate when the same content exists under another path and writes nothing', async () => {
    const first = await lib.store.putDocument(doc('a.txt', 'alpha'), chunksOf('alpha'), 'same');
    const dup = await lib.store.putDocument(doc('b.txt', 'alpha'), chunksOf('alpha'), 'same');
    expect(dup).toEqual({ outcome: 'duplicate', documentId: first.documentId, chunkCount: 1 });
    expect((await lib.store.listDocuments()).map((d) => d.path)).toEqual(['a.txt']);
  });

  it('lists only the documents asked for, by path, skipping ids that do not exist', async () => {
    const c = await put(lib.store, doc('c.txt', 'gamma'));
    const a = await put(lib.store, doc('a.txt', 'alpha'));
    await put(lib.store, doc('b.txt', 'beta'));
    const listed = await lib.store.listDocuments([c.documentId, 9999, a.documentId]);
    expect(listed.map((d) => d.path)).toEqual(['a.txt', 'c.txt']);
    expect(await lib.store.listDocuments([])).toEqual([]);
    expect((await lib.store.listDocuments()).map((d) => d.path)).toEqual([
      'a.txt',
      'b.txt',
      'c.txt',
    ]);
  });

  it('rejects chunks that are not slices of the text', async () => {
    await expect(
      lib.store.putDocument(
        doc('a.txt', 'alpha'),
        [{ seq: 0, start: 0, end: 3, text: 'xyz' }],
        'h',
      ),
    ).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  it('is atomic: a failure mid-put leaves no document, chunk or index row', async () => {
    const text = Array.from({ length: 40 }, (_, i) => `alpha sentence number ${i}.`).join(' ');
    const chunks = chunksOf(text);
    expect(chunks.length).toBeGreaterThan(2);
    await lib.db.sql.exec(
      "CREATE TEMP TRIGGER fail_third BEFORE INSERT ON main.chunks WHEN NEW.seq = 2 BEGIN SELECT RAISE(ABORT, 'disk gone'); END",
    );
    await expect(lib.store.putDocument(doc('a.txt', text), chunks, 'h')).rejects.toMatchObject({
      code: 'DB_ERROR',
    });
    expect(await lib.store.listDocuments()).toEqual([]);
    expect(await lib.db.sql.get('SELECT count(*) AS n FROM chunks')).toEqual({ n: 0 });
    expect(await ftsRows()).toBe(0);
    expect(lib.db.sql.inTransaction()).toBe(false);
  });

  it('a search during a failing replace sees the committed version, not the half-done one', async () => {
    await put(lib.store, doc('a.txt', 'omega'));
    const text = Array.from({ length: 40 }, (_, i) => `sentence number ${i}.`).join(' ');
    await lib.db.sql.exec(
      "CREATE TEMP TRIGGER fail_third BEFORE INSERT ON main.chunks WHEN NEW.seq = 2 BEGIN SELECT RAISE(ABORT, 'x'); END",
    );
    const writing = put(lib.store, doc('a.txt', text)).catch(() => 'failed');
    // Give the write a head start so its transaction is open (old rows already deleted).
    await Promise.resolve();
    const hits = await lib.search.rankChunks('omega');
    expect(await writing).toBe('failed');
    expect(hits.map((h) => h.path)).toEqual(['a.txt']);
  });

  it('keeps the old version when a replace fails midway', async () => {
    await put(lib.store, doc('a.txt', 'beta'));
    const text = Array.from({ length: 40 }, (_, i) => `alpha sentence number ${i}.`).join(' ');
    await lib.db.sql.exec(
      "CREATE TEMP TRIGGER fail_third BEFORE INSERT ON main.chunks WHEN NEW.seq = 2 BEGIN SELECT RAISE(ABORT, 'x'); END",
    );
    await expect(put(lib.store, doc('a.txt', text))).rejects.toBeTruthy();
    const [only] = await lib.store.listDocuments();
    expect(only).toMatchObject({ path: 'a.txt', chunkCount: 1 });
    expect((await lib.search.rankChunks('beta')).length).toBe(1);
    await ftsIntegrity();
  });
});

describe('reading and deleting', () => {
  it('lists documents with chunk counts, returns details, finds by path', async () => {
    const text = Array.from({ length: 30 }, (_, i) => `Paragraph ${i} about alpha.`).join('\n\n');
    const { documentId } = await put(
      lib.store,
      doc('docs/b.md', text, {
        mime: 'text/markdown',
        qualityGrade: 'B',
        sourceUrl: 'https://x.test/',
      }),
    );
    await put(lib.store, doc('a.txt', 'beta'));
    const list = await lib.store.listDocuments();
    expect(list.map((d) => d.path)).toEqual(['a.txt', 'docs/b.md']);
    const detail = await lib.store.getDocument(documentId);
    expect(detail.chunkCount).toBe(chunksOf(text).length);
    expect(detail.chunks.map((c) => c.text)).toEqual(chunksOf(text).map((c) => c.text));
    expect(detail).toMatchObject({
      text,
      qualityGrade: 'B',
      sourceUrl: 'https://x.test/',
      mime: 'text/markdown',
    });
    expect(await lib.store.getDocumentByPath('docs/b.md')).toMatchObject({ id: documentId });
    expect(await lib.store.getDocumentByPath('nope')).toBeNull();
    await expect(lib.store.getDocument(999)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('deletes a document with its chunks and index rows', async () => {
    const { documentId } = await put(lib.store, doc('a.txt', 'alpha'));
    await put(lib.store, doc('b.txt', 'beta'));
    const seen: number[] = [];
    lib.store.onChange((v) => seen.push(v));
    await lib.store.deleteDocument(documentId);
    expect(seen).toHaveLength(1);
    expect((await lib.store.listDocuments()).map((d) => d.path)).toEqual(['b.txt']);
    expect(await lib.search.rankChunks('alpha')).toEqual([]);
    expect(await lib.store.stats()).toMatchObject({
      documents: 1,
      chunks: 1,
      schemaVersion: SCHEMA_VERSION,
    });
    await ftsIntegrity();
    await expect(lib.store.deleteDocument(documentId)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('schema and migrations', () => {
  it('creates a fresh database at the latest version', async () => {
    expect(await lib.db.sql.get('PRAGMA user_version')).toEqual({
      user_version: MIGRATIONS.length,
    });
    const names = (
      await lib.db.sql.all<{ name: string }>(
        "SELECT name FROM sqlite_schema WHERE type IN ('table','index')",
      )
    ).map((r) => r.name);
    expect(names).toEqual(
      expect.arrayContaining(['documents', 'chunks', 'chunks_fts', 'documents_mime']),
    );
  });

  it('upgrades a version-1 library and keeps its data', async () => {
    const db = await openNodeDatabase();
    const v1 = await createStore(db, { migrations: MIGRATIONS.slice(0, 1) });
    await put(v1, doc('old.txt', 'alpha from version one'));
    expect(await db.sql.get('PRAGMA user_version')).toEqual({ user_version: 1 });
    const current = await createStore(db);
    expect(await db.sql.get('PRAGMA user_version')).toEqual({ user_version: SCHEMA_VERSION });
    expect((await current.listDocuments()).map((d) => d.path)).toEqual(['old.txt']);
    expect(
      await db.sql.get("SELECT name FROM sqlite_schema WHERE name = 'documents_modified'"),
    ).toBeTruthy();
    await db.close();
  });

  it('moves chunk vectors to a rowid table (no overflow page per vector) and keeps them', async () => {
    const db = await openNodeDatabase();
    const v7 = await createStore(db, { migrations: MIGRATIONS.slice(0, 7) });
    const model = { id: 'm', version: '1', dim: 512 };
    const rows: Array<{ chunkId: number; textHash: string; vector: Int16Array }> = [];
    for (let i = 0; i < 200; i++) {
      const put1 = await put(v7, doc(`d${i}.txt`, `alpha ${i}`));
      const vector = new Int16Array(512).map((_, j) => ((i * 7 + j * 13) % 65535) - 32767);
      rows.push({ chunkId: Number(put1.documentId), textHash: `h${i}`, vector });
    }
    const ids = await db.sql.all<{ id: number }>('SELECT id FROM chunks ORDER BY id');
    rows.forEach((r, i) => (r.chunkId = Number(ids[i]!.id)));
    await createVectorStore(v7.sql).put(model, rows);
    // An orphan (left while foreign keys were off) must not stop the upgrade.
    await db.sql.exec('PRAGMA foreign_keys=OFF');
    await db.sql.run('INSERT INTO chunk_vectors VALUES (999999, ?, ?, 512, ?, ?)', [
      model.id,
      model.version,
      'orphan',
      new Uint8Array(1024),
    ]);
    await db.sql.exec('PRAGMA foreign_keys=ON');
    const pages = async () =>
      Number((await db.sql.get<{ page_count: number }>('PRAGMA page_count'))!.page_count);
    const before = await pages();
    await createStore(db);
    const ddl = await db.sql.get<{ sql: string }>(
      "SELECT sql FROM sqlite_schema WHERE name = 'chunk_vectors'",
    );
    expect(ddl!.sql).not.toMatch(/WITHOUT ROWID/i);
    const got = await createVectorStore(db.sql).get(model, [rows[0]!.chunkId, rows[199]!.chunkId]);
    expect(got.get(rows[0]!.chunkId)).toEqual(rows[0]!.vector);
    expect(got.get(rows[199]!.chunkId)).toEqual(rows[199]!.vector);
    expect(await db.sql.get('SELECT count(*) AS n FROM chunk_vectors')).toEqual({ n: 200 });
    await db.sql.exec('VACUUM');
    // 200 vectors of 1 KB: about 140 pages fewer than with one 4 KB overflow page each.
    expect(await pages()).toBeLessThan(before - 100);
    await db.close();
  });

  it('persists the vector index in 1 MB parts and still reads a blob saved before migration 10', async () => {
    const db = await openNodeDatabase();
    const v9 = await createStore(db, { migrations: MIGRATIONS.slice(0, 9) });
    const model = { id: 'm', version: '1', dim: 4 };
    const legacy = new Uint8Array(3000).map((_, i) => (i * 7) % 251);
    await v9.sql.run('INSERT INTO vector_index (model, bytes, saved_at) VALUES (?, ?, 0)', [
      'm@1',
      legacy,
    ]);
    const store = await createStore(db);
    const vectors = createVectorStore(store.sql);
    expect(await vectors.loadIndex(model)).toEqual(legacy); // no rebuild on upgrade
    const big = new Uint8Array((5 << 19) + 17).map((_, i) => (i * 31 + (i >> 12)) % 256);
    await vectors.saveIndex(model, big);
    const parts = await db.sql.all<{ part: number; n: number }>(
      'SELECT part, length(bytes) AS n FROM vector_index_parts WHERE model = ? ORDER BY part',
      ['m@1'],
    );
    expect(parts.map((p) => [p.part, p.n])).toEqual([
      [0, 1 << 20],
      [1, 1 << 20],
      [2, (1 << 19) + 17],
    ]);
    // The whole-index blob is gone: only the parts hold it now.
    expect(await db.sql.get('SELECT length(bytes) AS n FROM vector_index')).toEqual({ n: 0 });
    expect(Buffer.compare(Buffer.from((await vectors.loadIndex(model))!), Buffer.from(big))).toBe(
      0,
    );
    // Parts as the index makes them (serializeParts) are written as they come.
    const pieces = [big.subarray(0, 5), big.subarray(5, 70_000), big.subarray(70_000)];
    await vectors.saveIndex(model, pieces.values());
    expect(Buffer.compare(Buffer.from((await vectors.loadIndex(model))!), Buffer.from(big))).toBe(
      0,
    );
    expect(await db.sql.get('SELECT count(*) AS n FROM vector_index_parts')).toEqual({ n: 3 });
    // A smaller index replaces every part.
    await vectors.saveIndex(model, big.subarray(0, 10));
    expect(await vectors.loadIndex(model)).toEqual(big.subarray(0, 10));
    expect(await db.sql.get('SELECT count(*) AS n FROM vector_index_parts')).toEqual({ n: 1 });
    expect(await vectors.loadIndex({ ...model, version: '2' })).toBeNull();
    // A lost part gives short bytes (the index's length check then asks for a rebuild).
    await vectors.saveIndex(model, big);
    await db.sql.run('DELETE FROM vector_index_parts WHERE part = 1');
    expect((await vectors.loadIndex(model))!.length).toBe(1 << 20);
    await db.close();
  });

  it('stores each vector once: the cache keeps only vectors of deleted chunks', async () => {
    const db = await openNodeDatabase();
    const v8 = await createStore(db, { migrations: MIGRATIONS.slice(0, 8) });
    const model = { id: 'm', version: '1', dim: 4 };
    const a = await put(v8, doc('a.txt', 'alpha'));
    const b = await put(v8, doc('b.txt', 'beta'));
    const chunk = async (documentId: number) =>
      Number(
        (await db.sql.get<{ id: number }>('SELECT id FROM chunks WHERE document_id = ?', [
          documentId,
        ]))!.id,
      );
    const va = new Int16Array([1, 2, 3, 4]);
    const vb = new Int16Array([5, 6, 7, 8]);
    await createVectorStore(v8.sql).put(model, [
      { chunkId: await chunk(a.documentId), textHash: 'ha', vector: va },
      { chunkId: await chunk(b.documentId), textHash: 'hb', vector: vb },
    ]);
    const cached = async () =>
      (await db.sql.all<{ h: string }>('SELECT text_hash AS h FROM vector_cache ORDER BY h')).map(
        (r) => r.h,
      );
    // Version 8's put wrote every vector a second time into the cache.
    await db.sql.exec(
      `INSERT INTO vector_cache SELECT model_id || '@' || model_version, text_hash, vector, 0
         FROM chunk_vectors`,
    );
    expect(await cached()).toEqual(['ha', 'hb']);
    const store = await createStore(db);
    const vectors = createVectorStore(store.sql);
    expect(await cached()).toEqual([]);
    await store.deleteDocument(a.documentId);
    expect(await cached()).toEqual(['ha']);
    expect(await vectors.reusable(model, ['ha', 'hb'])).toEqual(
      new Map([
        ['ha', va],
        ['hb', vb],
      ]),
    );
    // Reused for a new chunk: back in chunk_vectors, gone from the cache.
    const again = await put(store, doc('a2.txt', 'alpha again'));
    await vectors.put(model, [
      { chunkId: await chunk(again.documentId), textHash: 'ha', vector: va },
    ]);
    expect(await cached()).toEqual([]);
    await db.close();
  });

  it('refuses a library written by a newer version', async () => {
    const db = await openNodeDatabase();
    await createStore(db);
    await db.sql.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 1}`);
    await expect(createStore(db)).rejects.toMatchObject({ code: 'SCHEMA_TOO_NEW' });
    await db.close();
  });
});

describe('export and import', () => {
  it('round-trips the whole library, search included', async () => {
    await put(lib.store, doc('a.txt', 'alpha'));
    await put(lib.store, doc('b.txt', 'beta gamma'));
    const bytes = await lib.store.exportDatabase();
    expect(new TextDecoder().decode(bytes.subarray(0, 15))).toBe('SQLite format 3');

    const other = await openTestLibrary();
    await put(other.store, doc('z.txt', 'zeta will be replaced'));
    const stats = await other.store.importDatabase(bytes);
    expect(stats).toMatchObject({ documents: 2, chunks: 2 });
    expect((await other.store.listDocuments()).map((d) => d.path)).toEqual(['a.txt', 'b.txt']);
    expect((await other.search.rankChunks('gamma')).map((h) => h.path)).toEqual(['b.txt']);
    expect(await other.search.rankChunks('zeta')).toEqual([]);
    await other.db.sql.run(
      "INSERT INTO chunks_fts(chunks_fts, rank) VALUES ('integrity-check', 1)",
    );
    await other.close();
  });

  it('round-trips the saved vector index (stored in parts, its row an empty blob)', async () => {
    await put(lib.store, doc('a.txt', 'alpha'));
    const model = { id: 'm', version: '1', dim: 4 };
    const index = new Uint8Array(3000).map((_, i) => (i * 13) % 251);
    await createVectorStore(lib.store.sql).saveIndex(model, index);
    const bytes = await lib.store.exportDatabase();
    const other = await openTestLibrary();
    await other.store.importDatabase(bytes);
    expect(await createVectorStore(other.store.sql).loadIndex(model)).toEqual(index);
    await other.close();
  });

  it('waits for a write in flight instead of failing (VACUUM cannot run inside a transaction)', async () => {
    const writing = put(lib.store, doc('a.txt', 'alpha'));
    const bytes = await lib.store.exportDatabase();
    await writing;
    const other = await openTestLibrary();
    await other.store.importDatabase(bytes);
    expect((await other.store.listDocuments()).map((d) => d.path)).toEqual(['a.txt']);
    await other.close();
  });

  it('rejects a file that is not SQLite and keeps the current library', async () => {
    await put(lib.store, doc('a.txt', 'alpha'));
    const junk = new TextEncoder().encode('%PDF-1.7 '.repeat(200));
    await expect(lib.store.importDatabase(junk)).rejects.toMatchObject({
      code: 'INVALID_LIBRARY_FILE',
    });
    expect((await lib.store.listDocuments()).map((d) => d.path)).toEqual(['a.txt']);
  });

  it('rejects a damaged SQLite file and a database without the Sift schema', async () => {
    await put(lib.store, doc('a.txt', 'alpha'));
    const good = await lib.store.exportDatabase();
    const damaged = good.slice();
    damaged.fill(0xab, 100, damaged.length); // header intact, every page garbage
    await expect(lib.store.importDatabase(damaged)).rejects.toMatchObject({
      code: 'INVALID_LIBRARY_FILE',
    });

    const plain = await openNodeDatabase();
    await plain.sql.exec('CREATE TABLE t(x); INSERT INTO t VALUES (1)');
    const name = 'plain.db';
    await plain.sql.exec(`VACUUM INTO 'file:${name}?vfs=sift-mem'`);
    const plainBytes = plain.scratch.read(name)!;
    await plain.close();
    await expect(lib.store.importDatabase(plainBytes)).rejects.toMatchObject({
      code: 'INVALID_LIBRARY_FILE',
    });
    expect((await lib.store.listDocuments()).map((d) => d.path)).toEqual(['a.txt']);
  });

  it('refuses a library from a newer schema version', async () => {
    const newer = await openTestLibrary();
    await put(newer.store, doc('n.txt', 'alpha'));
    await newer.db.sql.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 5}`);
    const bytes = await newer.store.exportDatabase();
    await newer.close();
    await put(lib.store, doc('a.txt', 'beta'));
    await expect(lib.store.importDatabase(bytes)).rejects.toMatchObject({ code: 'SCHEMA_TOO_NEW' });
    expect((await lib.store.listDocuments()).map((d) => d.path)).toEqual(['a.txt']);
  });

  it('migrates an older exported library on import', async () => {
    const db = await openNodeDatabase();
    const v1 = await createStore(db, { migrations: MIGRATIONS.slice(0, 1) });
    await put(v1, doc('old.txt', 'alpha'));
    const bytes = await v1.exportDatabase();
    await db.close();
    await lib.store.importDatabase(bytes);
    expect((await lib.store.listDocuments()).map((d) => d.path)).toEqual(['old.txt']);
    expect((await lib.search.rankChunks('alpha')).length).toBe(1);
  });
});
