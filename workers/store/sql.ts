// The one gateway between Sift and the wa-sqlite API: prepared statements, bindings, rows as
// objects, transactions (BEGIN IMMEDIATE with a bounded busy retry) and the single place where
// SQLite result codes become AppErrors.
import { createError, isAppError, type AppError } from '../shared/errors';

/** A bound value: what SQLite can store. Booleans are not accepted (use 0/1). */
export type SqlValue = number | string | Uint8Array | bigint | null;
export type SqlParams = readonly SqlValue[] | Record<string, SqlValue>;
export type Row = Record<string, SqlValue>;

// Primary result codes (sqlite3.h); extended codes carry these in their low byte.
const SQLITE_ROW = 100;
const SQLITE_BUSY = 5;
const SQLITE_LOCKED = 6;
const SQLITE_FULL = 13;
const SQLITE_CORRUPT = 11;
const SQLITE_NOTADB = 26;

/** The subset of wa-sqlite's `SQLiteAPI` this module uses (its .d.ts is global, not exported). */
export interface SqliteApi {
  statements(db: number, sql: string, options?: { unscoped?: boolean }): AsyncIterable<number>;
  step(stmt: number): Promise<number>;
  reset(stmt: number): Promise<number>;
  finalize(stmt: number): Promise<number>;
  clear_bindings(stmt: number): number;
  bind_collection(stmt: number, bindings: unknown): number;
  row(stmt: number): unknown[];
  column_names(stmt: number): string[];
  changes(db: number): number;
  last_insert_id(db: number): number | bigint;
  get_autocommit(db: number): number;
  exec(db: number, sql: string): Promise<number>;
  close(db: number): Promise<number>;
}

export interface RunResult {
  changes: number;
  lastInsertId: number;
}

export interface TransactionOptions {
  /** How many times BEGIN IMMEDIATE is retried while another connection holds the write lock. */
  busyRetries?: number;
}

export interface Sql {
  /** Runs one statement and returns changes / last insert rowid. @throws AppError (DB_*) */
  run(sql: string, params?: SqlParams): Promise<RunResult>;
  /** All rows as objects keyed by column name. @throws AppError (DB_*) */
  all<T extends object = Row>(sql: string, params?: SqlParams): Promise<T[]>;
  /** The first row or undefined. @throws AppError (DB_*) */
  get<T extends object = Row>(sql: string, params?: SqlParams): Promise<T | undefined>;
  /** Streams rows one by one (the statement stays open until the loop ends). */
  each(sql: string, params: SqlParams, onRow: (row: Row) => void | Promise<void>): Promise<void>;
  /** Runs a script of one or more statements without parameters. @throws AppError (DB_*) */
  exec(sql: string): Promise<void>;
  /**
   * Runs `fn` inside BEGIN IMMEDIATE ... COMMIT; any throw rolls back and is rethrown.
   * Transactions on one connection are queued: a worker serves several UI calls at once, and two
   * interleaved transactions on one connection would silently merge. Nest with `tx.savepoint`.
   * @throws AppError DB_LOCKED when the write lock stays busy after the retries, or fn's error.
   */
  transaction<T>(fn: (tx: Transaction) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /**
   * Runs `fn` in the transaction queue without opening a transaction: for statements that must
   * not run inside one (VACUUM INTO) while other calls' transactions are in flight.
   */
  serialized<T>(fn: () => Promise<T>): Promise<T>;
  /** Whether a transaction is open on this connection. */
  inTransaction(): boolean;
  /** Finalizes cached statements and closes the connection. */
  close(): Promise<void>;
  readonly api: SqliteApi;
  readonly handle: number;
}

/** Handle given to a transaction body. */
export interface Transaction {
  /** Runs `fn` in a SAVEPOINT: a throw undoes only its part and is rethrown. */
  savepoint<T>(fn: () => Promise<T>): Promise<T>;
}

export interface SqlDeps {
  /** Waits between busy retries; injected so tests need no real time. */
  sleep?: (ms: number) => Promise<void>;
}

const DEFAULT_BUSY_RETRIES = 12; // 12 retries with capped backoff: about 5 s of waiting in total

interface SqliteLikeError {
  code?: unknown;
  message?: unknown;
}

/** The one mapping from SQLite result codes to Sift error codes. */
export function toDbError(err: unknown, context?: string): AppError {
  if (isAppError(err)) return err;
  const raw = (err as SqliteLikeError | null)?.code;
  const message = String((err as SqliteLikeError | null)?.message ?? err);
  const reason = context ? `${context}: ${message}.` : `${message}.`;
  if (typeof raw !== 'number') {
    if (err instanceof DOMException && err.name === 'QuotaExceededError') {
      return createError('STORAGE_FULL', { reason, cause: err });
    }
    return createError('DB_ERROR', { reason, cause: err });
  }
  const primary = raw & 0xff;
  const details = { reason, sqliteCode: raw, cause: err };
  if (primary === SQLITE_FULL) return createError('STORAGE_FULL', details);
  if (primary === SQLITE_BUSY || primary === SQLITE_LOCKED)
    return createError('DB_LOCKED', details);
  if (primary === SQLITE_CORRUPT || primary === SQLITE_NOTADB)
    return createError('DB_CORRUPT', details);
  return createError('DB_ERROR', details);
}

function isBusy(err: unknown): boolean {
  if (isAppError(err)) return err.code === 'DB_LOCKED';
  const raw = (err as SqliteLikeError | null)?.code;
  return (
    typeof raw === 'number' && ((raw & 0xff) === SQLITE_BUSY || (raw & 0xff) === SQLITE_LOCKED)
  );
}

function normaliseParams(params: SqlParams | undefined): unknown {
  if (params === undefined) return undefined;
  if (Array.isArray(params)) return params;
  // wa-sqlite binds named parameters by their full name including the prefix (":name").
  const out: Record<string, SqlValue> = {};
  for (const [key, value] of Object.entries(params)) {
    out[/^[:@$]/.test(key) ? key : `:${key}`] = value;
  }
  return out;
}

function defaultSleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Wraps an open wa-sqlite connection. */
export function createSql(api: SqliteApi, handle: number, deps: SqlDeps = {}): Sql {
  const sleep = deps.sleep ?? defaultSleep;
  const cache = new Map<string, number>();
  let depth = 0;
  let busyStatement = false;
  let queue: Promise<unknown> = Promise.resolve();

  async function prepare(sql: string): Promise<number> {
    const cached = cache.get(sql);
    if (cached !== undefined) return cached;
    for await (const stmt of api.statements(handle, sql, { unscoped: true })) {
      cache.set(sql, stmt);
      return stmt;
    }
    throw createError('DB_ERROR', { reason: 'Empty SQL statement.' });
  }

  async function withStatement<T>(
    sql: string,
    params: SqlParams | undefined,
    body: (stmt: number) => Promise<T>,
  ): Promise<T> {
    // A cached statement cannot be stepped twice at once (e.g. `each` re-entering `all`
    // with the same SQL): fall back to a one-off statement in that case.
    let stmt: number;
    let oneOff = false;
    try {
      if (busyStatement && cache.has(sql)) {
        oneOff = true;
        stmt = 0;
        for await (const s of api.statements(handle, sql, { unscoped: true })) {
          stmt = s;
          break;
        }
      } else {
        stmt = await prepare(sql);
      }
      const bindings = normaliseParams(params);
      if (bindings !== undefined) api.bind_collection(stmt, bindings);
    } catch (err) {
      throw toDbError(err, 'Preparing SQL failed');
    }
    const wasBusy = busyStatement;
    busyStatement = true;
    try {
      return await body(stmt);
    } catch (err) {
      throw toDbError(err);
    } finally {
      busyStatement = wasBusy;
      if (oneOff) await api.finalize(stmt);
      else {
        await api.reset(stmt).catch(() => 0);
        api.clear_bindings(stmt);
      }
    }
  }

  async function each(sql: string, params: SqlParams, onRow: (row: Row) => void | Promise<void>) {
    await withStatement(sql, params, async (stmt) => {
      let columns: string[] | null = null;
      while ((await api.step(stmt)) === SQLITE_ROW) {
        columns ??= api.column_names(stmt);
        const values = api.row(stmt);
        const row: Row = {};
        for (let i = 0; i < columns.length; i++) row[columns[i]!] = values[i] as SqlValue;
        await onRow(row);
      }
    });
  }

  const sqlApi: Sql = {
    api,
    handle,
    async run(sql, params) {
      return withStatement(sql, params, async (stmt) => {
        while ((await api.step(stmt)) === SQLITE_ROW) {
          /* drain */
        }
        return { changes: api.changes(handle), lastInsertId: Number(api.last_insert_id(handle)) };
      });
    },
    async all<T extends object = Row>(sql: string, params?: SqlParams): Promise<T[]> {
      const rows: T[] = [];
      await each(sql, params ?? [], (row) => {
        rows.push(row as T);
      });
      return rows;
    },
    async get<T extends object = Row>(sql: string, params?: SqlParams): Promise<T | undefined> {
      const rows = await sqlApi.all<T>(sql, params);
      return rows[0];
    },
    each,
    async exec(sql) {
      try {
        await api.exec(handle, sql);
      } catch (err) {
        throw toDbError(err);
      }
    },
    inTransaction() {
      return depth > 0;
    },
    transaction<T>(
      fn: (tx: Transaction) => Promise<T>,
      options: TransactionOptions = {},
    ): Promise<T> {
      return sqlApi.serialized(() => runTransaction(fn, options));
    },
    serialized<T>(fn: () => Promise<T>): Promise<T> {
      const run = queue.then(fn);
      queue = run.catch(() => undefined);
      return run;
    },
    async close() {
      for (const stmt of cache.values()) await api.finalize(stmt);
      cache.clear();
      await api.close(handle);
    },
  };

  const tx: Transaction = {
    async savepoint<T>(fn: () => Promise<T>): Promise<T> {
      if (depth === 0)
        throw createError('INTERNAL', { reason: 'savepoint() outside a transaction.' });
      const name = `sp${depth}`;
      await sqlApi.exec(`SAVEPOINT ${name}`);
      depth++;
      try {
        const result = await fn();
        await sqlApi.exec(`RELEASE ${name}`);
        return result;
      } catch (err) {
        await sqlApi.exec(`ROLLBACK TO ${name}; RELEASE ${name}`).catch(() => undefined);
        throw err;
      } finally {
        depth--;
      }
    },
  };

  async function runTransaction<T>(
    fn: (tx: Transaction) => Promise<T>,
    options: TransactionOptions,
  ): Promise<T> {
    const retries = options.busyRetries ?? DEFAULT_BUSY_RETRIES;
    for (let attempt = 0; ; attempt++) {
      try {
        await api.exec(handle, 'BEGIN IMMEDIATE');
        break;
      } catch (err) {
        if (!isBusy(err) || attempt >= retries) throw toDbError(err, 'Starting a write failed');
        await sleep(Math.min(25 * 2 ** attempt, 1000));
      }
    }
    depth = 1;
    try {
      const result = await fn(tx);
      // In rollback-journal mode COMMIT needs an EXCLUSIVE lock and can meet a reader in
      // another tab (SQLITE_BUSY, transaction still open): wait for it like BEGIN does.
      for (let attempt = 0; ; attempt++) {
        try {
          await api.exec(handle, 'COMMIT');
          break;
        } catch (err) {
          if (!isBusy(err) || attempt >= retries) throw toDbError(err, 'Committing failed');
          await sleep(Math.min(25 * 2 ** attempt, 1000));
        }
      }
      return result;
    } catch (err) {
      // After some errors (e.g. SQLITE_FULL) SQLite has already rolled back by itself.
      if (!api.get_autocommit(handle)) await api.exec(handle, 'ROLLBACK').catch(() => 0);
      throw err;
    } finally {
      depth = 0;
    }
  }

  return sqlApi;
}
