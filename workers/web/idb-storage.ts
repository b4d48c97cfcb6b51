// Persistent KeyValueStorage for web settings and the network ledger, on IndexedDB (which
// workers have). Owns one object store in its own database; values are strings.
import type { KeyValueStorage } from '../shared/web-api';

const STORE = 'kv';

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed.'));
  });
}

/** Opens (creating on first use) database `name` with one key-value object store. */
export function createIdbKeyValueStorage(
  name: string,
  idb: IDBFactory = indexedDB,
): KeyValueStorage {
  let db: Promise<IDBDatabase> | null = null;
  const open = () =>
    (db ??= new Promise<IDBDatabase>((resolve, reject) => {
      const req = idb.open(name, 1);
      req.onupgradeneeded = () => req.result.createObjectStore(STORE);
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error ?? new Error('IndexedDB open failed.'));
    }));
  const tx = async (mode: IDBTransactionMode) =>
    (await open()).transaction(STORE, mode).objectStore(STORE);
  return {
    async get(key) {
      const value: unknown = await request((await tx('readonly')).get(key));
      return typeof value === 'string' ? value : null;
    },
    async set(key, value) {
      await request((await tx('readwrite')).put(value, key));
    },
    async delete(key) {
      await request((await tx('readwrite')).delete(key));
    },
  };
}
