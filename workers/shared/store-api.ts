// The library contract the UI talks to (through the store worker), beside the DTOs in types.ts.
// Owns: LibraryApi and the small shapes only it uses. Plain data only (structured clone).
import type {
  DocumentDetail,
  DocumentSummary,
  QualityGrade,
  SearchRequest,
  SearchResponse,
  StorageInfo,
} from './types';

export interface LibraryStats {
  documents: number;
  chunks: number;
  /** Sum of the original files' sizes in bytes. */
  totalSize: number;
  schemaVersion: number;
  /** Increases on every change to the library (put, delete, import); a cache key for queries. */
  version: number;
}

/** What the UI may call on the library (the worker exposes an object of this shape). */
export interface LibraryApi {
  /** All documents, ordered by path. */
  listDocuments(): Promise<DocumentSummary[]>;
  /** @throws AppError NOT_FOUND */
  getDocument(id: number): Promise<DocumentDetail>;
  /** Deletes a document with its chunks and index rows. @throws AppError NOT_FOUND, DB_LOCKED */
  deleteDocument(id: number): Promise<void>;
  /**
   * Sets the quality grade the user gives documents (null: back to the default, "own document"
   * = OWN_DOCUMENT_GRADE for a local file). @returns how many of `ids` exist
   * @throws AppError INVALID_ARGUMENT for an unknown grade
   */
  setDocumentGrade(ids: number[], grade: QualityGrade | null): Promise<number>;
  stats(): Promise<LibraryStats>;
  /** A consistent snapshot of the whole library as an SQLite file. */
  exportLibrary(): Promise<Uint8Array>;
  /**
   * Replaces the library with an exported file, atomically.
   * @throws AppError INVALID_LIBRARY_FILE, SCHEMA_TOO_NEW (current library kept)
   */
  importLibrary(bytes: Uint8Array): Promise<LibraryStats>;
  storageInfo(): Promise<StorageInfo>;
  /** Lexical search (CFS-012 section 3). @throws AppError INVALID_ARGUMENT on bad filters */
  search(request: SearchRequest): Promise<SearchResponse>;
}
