// The API the database worker (workers/db.worker.ts) exposes to the UI over Comlink: the
// library (store-api.ts) and import (ingest-api.ts) contracts, plus opening the database.
// Plain types only.
import type { IngestApi } from './ingest-api';
import type { LibraryApi } from './store-api';
import type { StorageInfo } from './types';

export interface LibraryWorkerApi extends LibraryApi, IngestApi {
  /**
   * Opens (or creates) the library; every other call waits for it. Resolves with where the
   * library is stored. @throws AppError STORAGE_UNAVAILABLE, DB_CORRUPT, SCHEMA_TOO_NEW
   */
  init(): Promise<StorageInfo>;
}

export type { LibraryStats } from './store-api';
export type { CleanHtml } from './ingest-api';
