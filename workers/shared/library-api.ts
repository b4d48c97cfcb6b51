// The API the database worker (workers/db.worker.ts) exposes to the UI over Comlink.
// Owns: the shape of library, import and search calls as the UI sees them. Plain types only.
import type {
  DocumentDetail,
  DocumentInput,
  DocumentSummary,
  ImportFile,
  ImportProgress,
  PutResult,
  SearchRequest,
  SearchResponse,
  StorageInfo,
} from './types';

/** Cleans untrusted HTML into plain text. Runs on the UI thread (workers have no DOM). */
export type HtmlCleaner = (html: string, url?: string) => Promise<{ title: string; text: string }>;

export interface LibraryStats {
  documents: number;
  chunks: number;
  /** Increases on every write; caches key on it. */
  version: number;
}

export interface LibraryApi {
  /** Opens (or creates) the library. Resolves with where it is stored. @throws AppError STORAGE_UNAVAILABLE, DB_CORRUPT, SCHEMA_TOO_NEW */
  init(): Promise<StorageInfo>;
  /**
   * Imports files one by one; a failing file is reported in `failures` and never stops the rest.
   * `onProgress` and `cleanHtml` are Comlink proxies from the UI.
   */
  importFiles(
    files: ImportFile[],
    onProgress: (progress: ImportProgress) => void,
    cleanHtml: HtmlCleaner,
  ): Promise<ImportProgress>;
  /** Stops the running import after the current file; what was imported stays. */
  cancelImport(): Promise<void>;
  /** Stores one already-parsed document (a web page, for example). */
  importDocument(input: DocumentInput): Promise<PutResult>;
  listDocuments(): Promise<DocumentSummary[]>;
  /** @throws AppError NOT_FOUND */
  getDocument(id: number): Promise<DocumentDetail>;
  /** Removes a document with its chunks and index rows. */
  deleteDocument(id: number): Promise<void>;
  search(request: SearchRequest): Promise<SearchResponse>;
  stats(): Promise<LibraryStats>;
  /** The whole library as an SQLite database file. */
  exportLibrary(): Promise<Uint8Array>;
  /** Replaces the library with an exported one. @throws AppError INVALID_LIBRARY_FILE, SCHEMA_TOO_NEW */
  importLibrary(bytes: Uint8Array): Promise<LibraryStats>;
}
