// The contract of document import between the UI and the ingest code in a worker.
// Owns: the HTML-cleaner callback type and the ingest API the worker exposes.
// Plain types only (structured-clone safe).
import type { DocumentInput, ImportFile, ImportProgress, PutResult } from './types';

/** Result of cleaning one HTML page: plain text with paragraph breaks, never HTML. */
export interface CleanedHtml {
  title: string;
  text: string;
}

/**
 * Cleans untrusted HTML on the UI thread (workers have no DOM): inert DOMParser document,
 * DOMPurify, Readability, plain text out. The app passes `Comlink.proxy(cleanHtml)` to the worker.
 */
export type CleanHtml = (html: string, url?: string) => Promise<CleanedHtml>;

/** What the ingest part of a worker exposes over Comlink. */
export interface IngestApi {
  /**
   * Connects the UI-thread HTML cleaner (a Comlink proxy). HTML files fail with PARSE_FAILED
   * until this is called.
   */
  setHtmlCleaner(cleanHtml: CleanHtml): void;
  /**
   * Imports files one by one; per-file failures are reported in the result, never thrown.
   * `onProgress` (a Comlink proxy) is called at start, after each file, at most every ~100 ms
   * in between, and at the end.
   */
  importFiles(
    files: ImportFile[],
    onProgress?: (p: ImportProgress) => void,
  ): Promise<ImportProgress>;
  /** Stops the running import after the current file; what was imported stays. */
  cancelImport(): void;
  /**
   * Stores already-extracted text (a fetched web page, a pasted note).
   * @throws AppError EMPTY_FILE when the text is blank; store errors as the store raises them.
   */
  importText(input: DocumentInput): Promise<PutResult>;
}
