// What the db worker offers for bibliographic data: read and edit a document's record, import
// reference files (BibTeX, RIS, CSL-JSON) and a Zotero data folder, export a project's references.
import type { Biblio, DocumentBiblio } from './biblio';
import type { ImportFile, ImportProgress } from './types';

export type ReferenceFormat = 'bibtex' | 'csl-json';

export interface ReferenceImportResult {
  format: 'bibtex' | 'ris' | 'csl-json';
  /** Entries read from the file. */
  entries: number;
  /** Entries matched to a document (by DOI, arXiv id or file name) and written to it. */
  linked: number;
  /** Matched, but the document's record was edited by the user and was kept. */
  kept: number;
  /** Titles (or keys) of entries no document matched, first 50. */
  unmatched: string[];
  /** Entries that could not be read. */
  skipped: number;
}

export interface ZoteroImportResult {
  /** Works in the Zotero library (notes, attachments and trashed items aside). */
  items: number;
  /** The import of their stored files (PDFs etc.). */
  files: ImportProgress;
  /** Works whose file was imported and now carry their Zotero record. */
  linked: number;
  /** Projects made (or filled) from Zotero collections. */
  projects: string[];
}

export interface BiblioApi {
  getBiblio(documentId: number): Promise<DocumentBiblio | null>;
  listBiblio(documentIds: number[]): Promise<DocumentBiblio[]>;
  /** Saves the user's edit (source 'user': no import overwrites it). @throws AppError NOT_FOUND */
  setBiblio(documentId: number, biblio: Omit<Biblio, 'source'>): Promise<DocumentBiblio>;
  /** @throws AppError PARSE_FAILED when the file is not a reference file */
  importReferences(file: { name: string; text: string }): Promise<ReferenceImportResult>;
  /**
   * Imports a picked Zotero data folder: zotero.sqlite read from a copy, never written; the
   * stored files under storage/ imported; collections become projects.
   * @throws AppError PARSE_FAILED when the folder has no Zotero database
   */
  importZotero(
    files: ImportFile[],
    onProgress?: (p: ImportProgress) => void,
  ): Promise<ZoteroImportResult>;
  /** A project's references, one per document. @throws AppError NOT_FOUND */
  exportReferences(projectId: number, format: ReferenceFormat): Promise<string>;
}
