// Opens the library database: OPFS (OPFSCoopSyncVFS, sync build) in a module worker, IndexedDB
// (IDBBatchAtomicVFS, async build) where OPFS is missing, plain memory in Node. Also registers a
// MemoryVFS ("sift-mem") used as scratch space for export/import. Sets the connection PRAGMAs.
// The WASM bytes/URLs are injected by the caller.
import * as SQLite from '@journeyapps/wa-sqlite';
import SyncModuleFactory from '@journeyapps/wa-sqlite/dist/wa-sqlite.mjs';
import { MemoryVFS } from '@journeyapps/wa-sqlite/src/examples/MemoryVFS.js';
import { createError } from '../shared/errors';
import type { StorageInfo } from '../shared/types';
import { createSql, toDbError, type Sql, type SqliteApi } from './sql';

/** Name under which the scratch MemoryVFS is registered (used by VACUUM INTO and imports). */
export const SCRATCH_VFS = 'sift-mem';
export const DEFAULT_DB_NAME = 'sift.db';

const OPEN_READWRITE = 0x2;
const OPEN_CREATE = 0x4;
const OPEN_URI = 0x40; // lets `VACUUM INTO 'file:x?vfs=sift-mem'` name another VFS

interface MemFile {
  pathname: string;
  flags: number;
  size: number;
  data: ArrayBuffer;
}

/** Files in the scratch MemoryVFS: how export bytes get out and import bytes get in. */
export interface ScratchFiles {
  write(name: string, bytes: Uint8Array): void;
  /** Copies the file's bytes out (undefined if absent). */
  read(name: string): Uint8Array | undefined;
  remove(name: string): void;
  /** Opens a separate connection on a scratch file. @throws AppError (DB_*) */
  open(name: string, options?: { create?: boolean }): Promise<Sql>;
}

/** An open library connection plus what the store needs around it. */
export interface OpenedDatabase {
  sql: Sql;
  scratch: ScratchFiles;
  info: StorageInfo;
  close(): Promise<void>;
}

/**
 * Connection PRAGMAs, set on every open:
 * - journal_mode=DELETE: the rollback journal works on every VFS we use (OPFSCoopSyncVFS does not
 *   do SQLite WAL, which needs shared memory) and lets other tabs' connections take turns.
 * - synchronous=FULL: the journal is synced before the database is written, so a closed tab or a
 *   crash never leaves a half transaction. Never OFF (the issue demands full durability).
 * - foreign_keys=ON: chunks are deleted with their document (ON DELETE CASCADE).
 * - temp_store=MEMORY: temp tables (the query tokenizer) never need an OPFS temp file.
 */
export const CONNECTION_PRAGMAS = [
  'PRAGMA journal_mode=DELETE',
  'PRAGMA synchronous=FULL',
  'PRAGMA foreign_keys=ON',
  'PRAGMA temp_store=MEMORY',
] as const;

function asApi(sqlite3: unknown): SqliteApi {
  return sqlite3 as SqliteApi;
}

async function finishOpen(
  sqlite3: SqliteApi & { open_v2(name: string, flags?: number, vfs?: string): Promise<number> },
  module: unknown,
  name: string,
  vfsName: string | undefined,
  info: StorageInfo,
): Promise<OpenedDatabase> {
  const memVfs = (await (
    MemoryVFS as unknown as { create(n: string, m: unknown): Promise<MemoryVFS> }
  ).create(SCRATCH_VFS, module)) as MemoryVFS & { mapNameToFile: Map<string, MemFile> };
  (sqlite3 as unknown as { vfs_register(v: unknown, d: boolean): number }).vfs_register(
    memVfs,
    false,
  );
  let handle: number;
  try {
    handle = await sqlite3.open_v2(name, OPEN_READWRITE | OPEN_CREATE | OPEN_URI, vfsName);
  } catch (err) {
    throw toDbError(err, 'Opening the library failed');
  }
  const sql = createSql(sqlite3, handle);
  for (const pragma of CONNECTION_PRAGMAS) await sql.exec(pragma);

  const files = (memVfs as { mapNameToFile: Map<string, MemFile> }).mapNameToFile;
  const key = (n: string) => new URL(n, 'file://').pathname;
  const scratch: ScratchFiles = {
    write(n, bytes) {
      const data = new ArrayBuffer(bytes.byteLength);
      new Uint8Array(data).set(bytes);
      files.set(key(n), { pathname: key(n), flags: OPEN_READWRITE, size: bytes.byteLength, data });
    },
    read(n) {
      const f = files.get(key(n));
      return f ? new Uint8Array(f.data, 0, f.size).slice() : undefined;
    },
    remove(n) {
      files.delete(key(n));
    },
    async open(n, options = {}) {
      const flags = OPEN_READWRITE | (options.create ? OPEN_CREATE : 0);
      try {
        const h = await sqlite3.open_v2(n, flags, SCRATCH_VFS);
        return createSql(sqlite3, h);
      } catch (err) {
        throw toDbError(err, 'Opening a scratch database failed');
      }
    },
  };
  return {
    sql,
    scratch,
    info,
    async close() {
      await sql.close();
    },
  };
}

/**
 * Node (tests, eval, bench): an in-memory database on the sync build.
 * @param wasmBinary bytes of `@journeyapps/wa-sqlite/dist/wa-sqlite.wasm`
 * @throws AppError DB_ERROR when the WASM cannot be instantiated
 */
export async function openMemoryDatabase(wasmBinary: Uint8Array): Promise<OpenedDatabase> {
  const module: unknown = await SyncModuleFactory({ wasmBinary });
  const sqlite3 = SQLite.Factory(module);
  return finishOpen(asApi(sqlite3) as never, module, ':memory:', undefined, {
    kind: 'memory',
    persistent: false,
    note: 'In-memory database: nothing is kept after close.',
  });
}

/** What the browser offers for storage; injected so the choice is testable in Node. */
export interface StorageScope {
  navigator?: {
    storage?: { getDirectory?: unknown; persisted?: () => Promise<boolean> };
    locks?: unknown;
  };
  FileSystemFileHandle?: { prototype: object };
  indexedDB?: unknown;
}

/** Why OPFS cannot be used here, or null when it can (module worker with sync access handles). */
export function opfsUnavailableReason(scope: StorageScope): string | null {
  const nav = scope.navigator;
  if (!nav?.storage || typeof nav.storage.getDirectory !== 'function') {
    return 'This browser has no Origin Private File System (navigator.storage.getDirectory).';
  }
  if (
    !scope.FileSystemFileHandle ||
    !('createSyncAccessHandle' in scope.FileSystemFileHandle.prototype)
  ) {
    return 'This browser cannot open OPFS files synchronously (createSyncAccessHandle) in a worker.';
  }
  if (!nav.locks)
    return 'This browser has no Web Locks API, which OPFS sharing between tabs needs.';
  return null;
}

export interface BrowserOpenOptions {
  /** URL of `@journeyapps/wa-sqlite/dist/wa-sqlite.wasm` (sync build, used with OPFS). */
  syncWasmUrl: string;
  /** URL of `@journeyapps/wa-sqlite/dist/wa-sqlite-async.wasm` (used with IndexedDB). */
  asyncWasmUrl: string;
  /** Database file name in OPFS / IndexedDB. */
  name?: string;
  /** Defaults to `globalThis` (the worker scope). */
  scope?: StorageScope;
}

/**
 * Browser (module worker): OPFSCoopSyncVFS on the sync build, else IDBBatchAtomicVFS on the
 * async build. `info.note` says why OPFS was not used. Cross-tab safety comes from the VFS's
 * own Web Locks plus `BEGIN IMMEDIATE` with a busy retry in `Sql.transaction`.
 * @throws AppError STORAGE_UNAVAILABLE when neither OPFS nor IndexedDB exists; DB_* on open errors
 */
export async function openBrowserDatabase(options: BrowserOpenOptions): Promise<OpenedDatabase> {
  const scope = options.scope ?? globalThis;
  const name = options.name ?? DEFAULT_DB_NAME;
  const persisted = async () => {
    try {
      return (await scope.navigator?.storage?.persisted?.()) ?? false;
    } catch {
      return false;
    }
  };
  const opfsReason = opfsUnavailableReason(scope);
  if (opfsReason === null) {
    // Only a failure to set OPFS up (WASM, VFS) falls back to IndexedDB. Once the VFS exists,
    // errors opening the file (locked by another tab, damaged) are reported as they are:
    // switching storage then would show an empty library and split the user's data in two.
    let opfs: { sqlite3: unknown; module: unknown } | null = null;
    let failure = '';
    try {
      const module: unknown = await SyncModuleFactory({ locateFile: () => options.syncWasmUrl });
      const sqlite3 = SQLite.Factory(module);
      const { OPFSCoopSyncVFS } =
        await import('@journeyapps/wa-sqlite/src/examples/OPFSCoopSyncVFS.js');
      const vfs = await OPFSCoopSyncVFS.create('sift-opfs', module);
      (sqlite3 as unknown as { vfs_register(v: unknown, d: boolean): number }).vfs_register(
        vfs,
        false,
      );
      opfs = { sqlite3, module };
    } catch (err) {
      failure = `OPFS could not be set up (${String((err as Error)?.message ?? err)}).`;
    }
    if (opfs) {
      return finishOpen(asApi(opfs.sqlite3) as never, opfs.module, name, 'sift-opfs', {
        kind: 'opfs',
        persistent: await persisted(),
        note: null,
      });
    }
    return openIdb(options, name, scope, failure, persisted);
  }
  return openIdb(options, name, scope, opfsReason, persisted);
}

async function openIdb(
  options: BrowserOpenOptions,
  name: string,
  scope: StorageScope,
  reason: string,
  persisted: () => Promise<boolean>,
): Promise<OpenedDatabase> {
  if (!scope.indexedDB) {
    throw createError('STORAGE_UNAVAILABLE', { reason: `${reason} IndexedDB is missing too.` });
  }
  const { default: AsyncModuleFactory } =
    await import('@journeyapps/wa-sqlite/dist/wa-sqlite-async.mjs');
  const module = await AsyncModuleFactory({ locateFile: () => options.asyncWasmUrl });
  const sqlite3 = SQLite.Factory(module);
  const { IDBBatchAtomicVFS } =
    await import('@journeyapps/wa-sqlite/src/examples/IDBBatchAtomicVFS.js');
  const vfs = await (
    IDBBatchAtomicVFS as unknown as { create(n: string, m: unknown, o?: object): Promise<unknown> }
  ).create('sift-idb', module);
  (sqlite3 as unknown as { vfs_register(v: unknown, d: boolean): number }).vfs_register(vfs, false);
  return finishOpen(asApi(sqlite3) as never, module, name, 'sift-idb', {
    kind: 'idb',
    persistent: await persisted(),
    note: `${reason} The library is stored in IndexedDB instead (slower, same data safety).`,
  });
}
