// What the db worker offers for original PDFs (kept for the page view): the bytes of a document's
// original and how much room the kept originals take. Plain types only.

export interface OriginalsApi {
  /**
   * The original bytes of a PDF document, or null when none is kept (not a PDF, imported before
   * originals were kept, too large, or kept in a browser without OPFS).
   * @throws AppError NOT_FOUND when the document was deleted
   */
  getOriginal(documentId: number): Promise<Uint8Array | null>;
  /** Kept original PDFs: how many files and bytes (part of the origin's storage use). */
  originalsUsage(): Promise<{ files: number; bytes: number }>;
}
