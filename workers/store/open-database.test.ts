import { describe, expect, it } from 'vitest';
import { CONNECTION_PRAGMAS, openBrowserDatabase, opfsUnavailableReason } from './open-database';
import { openNodeDatabase } from './open-database-node';

describe('opfsUnavailableReason', () => {
  const storage = { getDirectory: () => undefined };
  it('accepts a worker scope with OPFS sync access handles and Web Locks', () => {
    class FileSystemFileHandle {
      createSyncAccessHandle() {}
    }
    expect(
      opfsUnavailableReason({ navigator: { storage, locks: {} }, FileSystemFileHandle }),
    ).toBeNull();
  });
  it('explains each missing piece', () => {
    expect(opfsUnavailableReason({})).toMatch(/Origin Private File System/);
    expect(
      opfsUnavailableReason({ navigator: { storage, locks: {} }, FileSystemFileHandle: class {} }),
    ).toMatch(/createSyncAccessHandle/);
  });
  it('fails with STORAGE_UNAVAILABLE when neither OPFS nor IndexedDB exists', async () => {
    await expect(
      openBrowserDatabase({ syncWasmUrl: 'x', asyncWasmUrl: 'y', scope: {} }),
    ).rejects.toMatchObject({
      code: 'STORAGE_UNAVAILABLE',
    });
  });
});

describe('openNodeDatabase', () => {
  it('opens with full durability and foreign keys on, reporting memory storage', async () => {
    const db = await openNodeDatabase();
    expect(db.info).toMatchObject({ kind: 'memory', persistent: false });
    expect(await db.sql.get('PRAGMA synchronous')).toEqual({ synchronous: 2 }); // FULL
    expect(await db.sql.get('PRAGMA foreign_keys')).toEqual({ foreign_keys: 1 });
    expect(CONNECTION_PRAGMAS).not.toContain('PRAGMA synchronous=OFF');
    // FTS5 is compiled into this build.
    await db.sql.exec('CREATE VIRTUAL TABLE x USING fts5(a)');
    await db.close();
  });
});
