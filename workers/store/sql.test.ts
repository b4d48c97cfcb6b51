import * as SQLite from '@journeyapps/wa-sqlite';
import SyncModuleFactory from '@journeyapps/wa-sqlite/dist/wa-sqlite.mjs';
import { MemoryVFS } from '@journeyapps/wa-sqlite/src/examples/MemoryVFS.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createError } from '../shared/errors';
import { openNodeDatabase, syncWasmBytes } from './open-database-node';
import { createSql, toDbError, type Sql, type SqliteApi } from './sql';
import type { OpenedDatabase } from './open-database';

describe('toDbError', () => {
  const sqliteError = (code: number) => Object.assign(new Error('sqlite says no'), { code });
  it.each([
    [13, 'STORAGE_FULL'],
    [5, 'DB_LOCKED'],
    [6, 'DB_LOCKED'],
    [517, 'DB_LOCKED'], // SQLITE_BUSY_SNAPSHOT: extended codes map by their primary code
    [11, 'DB_CORRUPT'],
    [26, 'DB_CORRUPT'],
    [1, 'DB_ERROR'],
    [19, 'DB_ERROR'],
  ])('maps SQLite code %i to %s', (code, expected) => {
    const err = toDbError(sqliteError(code));
    expect(err.code).toBe(expected);
    expect(err.details.sqliteCode).toBe(code);
  });
  it('keeps AppErrors and maps non-SQLite errors to DB_ERROR', () => {
    const app = createError('NOT_FOUND');
    expect(toDbError(app)).toBe(app);
    expect(toDbError(new Error('x')).code).toBe('DB_ERROR');
  });
});

describe('Sql helper', () => {
  let db: OpenedDatabase;
  let sql: Sql;
  beforeEach(async () => {
    db = await openNodeDatabase();
    sql = db.sql;
    await sql.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)');
  });
  afterEach(async () => {
    await db.close();
  });

  it('binds positional and named parameters and returns rows as objects', async () => {
    const r = await sql.run('INSERT INTO t (v) VALUES (?)', ['a']);
    expect(r).toEqual({ changes: 1, lastInsertId: 1 });
    await sql.run('INSERT INTO t (v) VALUES (:v)', { v: 'b' });
    expect(await sql.all('SELECT id, v FROM t ORDER BY id')).toEqual([
      { id: 1, v: 'a' },
      { id: 2, v: 'b' },
    ]);
    expect(await sql.get('SELECT v FROM t WHERE id = ?', [9])).toBeUndefined();
  });

  it('turns SQL errors into AppErrors', async () => {
    await expect(sql.run('INSERT INTO nope VALUES (1)')).rejects.toMatchObject({
      code: 'DB_ERROR',
    });
    await expect(sql.run('INSERT INTO t (v) VALUES (NULL)')).rejects.toMatchObject({
      code: 'DB_ERROR',
    });
  });

  it('rolls back the whole transaction when the body throws', async () => {
    await expect(
      sql.transaction(async () => {
        await sql.run('INSERT INTO t (v) VALUES (?)', ['x']);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await sql.all('SELECT * FROM t')).toEqual([]);
    expect(sql.inTransaction()).toBe(false);
  });

  it('nests as savepoints: an inner failure undoes only the inner part', async () => {
    await sql.transaction(async (tx) => {
      await sql.run('INSERT INTO t (v) VALUES (?)', ['outer']);
      await tx
        .savepoint(async () => {
          await sql.run('INSERT INTO t (v) VALUES (?)', ['inner']);
          throw new Error('inner');
        })
        .catch(() => undefined);
    });
    expect(await sql.all('SELECT v FROM t')).toEqual([{ v: 'outer' }]);
  });

  it('queues concurrent transactions instead of merging them', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const order: string[] = [];
    const first = sql.transaction(async () => {
      await sql.run('INSERT INTO t (v) VALUES (?)', ['first']);
      await gate;
      order.push('first done');
      throw new Error('first fails');
    });
    const second = sql.transaction(async () => {
      order.push('second starts');
      await sql.run('INSERT INTO t (v) VALUES (?)', ['second']);
    });
    release();
    await expect(first).rejects.toThrow('first fails');
    await second;
    expect(order).toEqual(['first done', 'second starts']);
    // The rollback of the first did not take the second's row with it.
    expect(await sql.all('SELECT v FROM t')).toEqual([{ v: 'second' }]);
  });

  it('streams rows while other statements run (re-entrant statement use)', async () => {
    for (const v of ['a', 'b', 'c']) await sql.run('INSERT INTO t (v) VALUES (?)', [v]);
    const seen: string[] = [];
    await sql.each('SELECT v FROM t ORDER BY id', [], async (row) => {
      const again = await sql.all<{ v: string }>('SELECT v FROM t ORDER BY id');
      seen.push(`${String(row.v)}${again.length}`);
    });
    expect(seen).toEqual(['a3', 'b3', 'c3']);
  });
});

// ---------------------------------------------------------------------------------------------
// Two connections on one file with real SQLite locking: BEGIN IMMEDIATE meets SQLITE_BUSY.

/** MemoryVFS plus SQLite's SHARED/RESERVED/EXCLUSIVE lock rules shared by all connections. */
class LockingMemoryVFS extends (MemoryVFS as unknown as new (
  name: string,
  module: unknown,
) => {
  mapIdToFile: Map<number, { pathname: string }>;
}) {
  locks = new Map<
    string,
    { shared: Set<number>; reserved: number | null; exclusive: number | null }
  >();
  state(fileId: number) {
    const path = this.mapIdToFile.get(fileId)!.pathname;
    let s = this.locks.get(path);
    if (!s) this.locks.set(path, (s = { shared: new Set(), reserved: null, exclusive: null }));
    return s;
  }
  jLock(fileId: number, type: number): number {
    const s = this.state(fileId);
    const other = (holder: number | null) => holder !== null && holder !== fileId;
    if (type === 1) {
      if (other(s.exclusive)) return 5;
      s.shared.add(fileId);
    } else if (type === 2) {
      if (other(s.reserved)) return 5;
      s.reserved = fileId;
    } else if (type >= 3) {
      if ([...s.shared].some((id) => id !== fileId)) return 5;
      s.exclusive = fileId;
    }
    return 0;
  }
  jUnlock(fileId: number, type: number): number {
    const s = this.state(fileId);
    if (s.exclusive === fileId) s.exclusive = null;
    if (s.reserved === fileId) s.reserved = null;
    if (type === 0) s.shared.delete(fileId);
    return 0;
  }
  jCheckReservedLock(fileId: number, pResOut: DataView): number {
    const s = this.state(fileId);
    pResOut.setInt32(0, s.reserved !== null && s.reserved !== fileId ? 1 : 0, true);
    return 0;
  }
}

describe('two connections (cross-tab writers)', () => {
  async function twoConnections(sleepB: (ms: number) => Promise<void>) {
    const module: unknown = await SyncModuleFactory({ wasmBinary: syncWasmBytes() });
    const sqlite3 = SQLite.Factory(module);
    const vfs = new LockingMemoryVFS('locking-mem', module);
    sqlite3.vfs_register(vfs as never, false);
    const open = (sleep?: (ms: number) => Promise<void>) =>
      sqlite3
        .open_v2(
          'shared.db',
          SQLite.SQLITE_OPEN_CREATE | SQLite.SQLITE_OPEN_READWRITE,
          'locking-mem',
        )
        .then((h) => createSql(sqlite3 as unknown as SqliteApi, h, sleep ? { sleep } : {}));
    const a = await open();
    await a.exec('CREATE TABLE t (v TEXT)');
    const b = await open(sleepB);
    return { a, b };
  }

  it('retries BEGIN IMMEDIATE while the other connection writes, then commits', async () => {
    let releaseA!: () => void;
    const gate = new Promise<void>((resolve) => (releaseA = resolve));
    const pending: { a?: Promise<void> } = {};
    let sleeps = 0;
    const { a, b } = await twoConnections(async () => {
      sleeps++;
      releaseA();
      await pending.a;
    });
    pending.a = a.transaction(async () => {
      await a.run("INSERT INTO t VALUES ('from a')");
      await gate; // hold the write lock until B has hit SQLITE_BUSY
    });
    await b.transaction(async () => {
      await b.run("INSERT INTO t VALUES ('from b')");
    });
    expect(sleeps).toBeGreaterThan(0);
    expect(await b.all('SELECT v FROM t ORDER BY rowid')).toEqual([
      { v: 'from a' },
      { v: 'from b' },
    ]);
  });

  it('gives up with DB_LOCKED after the retries and leaves the other write intact', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { a, b } = await twoConnections(async () => undefined);
    const aDone = a.transaction(async () => {
      await a.run("INSERT INTO t VALUES ('from a')");
      await gate;
    });
    await expect(b.transaction(async () => undefined, { busyRetries: 2 })).rejects.toMatchObject({
      code: 'DB_LOCKED',
    });
    release();
    await aDone;
    expect(await a.all('SELECT v FROM t')).toEqual([{ v: 'from a' }]);
  });
});
