// The contract between the UI and the workers, and between domain modules: plain DTOs only.
// Owns: document, chunk, import, search and progress shapes. Everything here must survive
// structured clone (no classes, no functions).
import type { Biblio } from './biblio';
import type { PageStarts } from './pages';
import type { SectionStarts } from './sections';
import type { Relevance } from './relevance';
import type { SearchQuery } from './search-contract';

/** Source quality grade used by research projects (A best .. E worst). */
export type QualityGrade = 'A' | 'B' | 'C' | 'D' | 'E';

export const SUPPORTED_MIME = {
  txt: 'text/plain',
  md: 'text/markdown',
  html: 'text/html',
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
} as const;
export type SupportedMime = (typeof SUPPORTED_MIME)[keyof typeof SUPPORTED_MIME];

/** A parsed document ready to be chunked and stored. `text` is plain text, never HTML. */
export interface DocumentInput {
  path: string; // unique key: relative path inside the imported folder, or the file name, or a URL
  title: string;
  mime: string;
  size: number; // bytes of the original file
  modified: number; // ms since epoch (file lastModified)
  text: string;
  sourceUrl?: string | null;
  qualityGrade?: QualityGrade | null;
  /** Bibliographic data the parser found (a PDF's metadata and first page). */
  biblio?: Biblio | null;
  /** Where each page starts in `text` (PDFs; workers/shared/pages.ts). */
  pageStarts?: PageStarts | null;
  /** Where each outline section starts in `text` (PDFs with bookmarks; workers/shared/sections.ts). */
  sections?: SectionStarts | null;
}

/** A chunk of a document's text: `text === documentText.slice(start, end)`. */
export interface ChunkInput {
  seq: number; // 0-based position in the document
  start: number; // character offset (UTF-16 code units) into the document text, inclusive
  end: number; // exclusive
  text: string;
}

export interface DocumentSummary {
  id: number;
  path: string;
  title: string;
  mime: string;
  size: number;
  modified: number;
  contentHash: string; // hex SHA-256 of the normalised text
  importedAt: number;
  sourceUrl: string | null;
  qualityGrade: QualityGrade | null;
  chunkCount: number;
}

export interface DocumentDetail extends DocumentSummary {
  text: string;
  /** Where each page starts in `text` (PDFs imported with pages), else null. */
  pageStarts: PageStarts | null;
  /** Where each outline section starts in `text` (PDFs with bookmarks), else null. */
  sections: SectionStarts | null;
  chunks: Array<ChunkInput & { id: number }>;
}

/** added: new path; replaced: known path, new content; unchanged: same path and hash; duplicate: same content already stored under another path (nothing written). */
export type PutOutcome = 'added' | 'replaced' | 'unchanged' | 'duplicate';

export interface PutResult {
  outcome: PutOutcome;
  documentId: number;
  chunkCount: number;
}

/** Pre-retrieval filters (CFS-012). All optional; combined with AND. */
export interface SearchFilters {
  pathGlob?: string; // `*` any run except '/', `**` any run, `?` one character
  mime?: string[];
  modifiedAfter?: number | undefined; // ms since epoch, inclusive
  modifiedBefore?: number | undefined; // ms since epoch, exclusive
  contains?: string; // case-insensitive substring of the chunk text
  project?: number; // only documents of this research project (workers/projects)
  minGrade?: QualityGrade; // only documents graded this or better (A best); ungraded: OWN_DOCUMENT_GRADE
}

/**
 * The grade of a document nobody graded: an imported local file, credibility tier "own document"
 * (GRADE_TABLE.own.own in workers/projects/provenance.ts). The user can set another per document.
 */
export const OWN_DOCUMENT_GRADE: QualityGrade = 'C';

/** A document's grade for filters, sorting and display: its own, else OWN_DOCUMENT_GRADE. */
export function documentGrade(d: { qualityGrade: QualityGrade | null }): QualityGrade {
  return d.qualityGrade ?? OWN_DOCUMENT_GRADE;
}

/** Grades at least as good as `min` (A best), for the `minGrade` filter. */
export function gradesAtLeast(min: QualityGrade): QualityGrade[] {
  return (['A', 'B', 'C', 'D', 'E'] as const).slice(0, 'ABCDE'.indexOf(min) + 1);
}

export type SearchMode = 'lexical' | 'semantic' | 'hybrid';

/** A search of the library: the shared contract (search-contract.ts) plus the result count. */
export interface SearchRequest extends SearchQuery {
  limit?: number; // final top_k, default 10
  /**
   * A page of this many documents instead of `limit` chunks: the ranking is read until it covers
   * them, and the response's `documents` holds one entry per document (document-results.ts).
   */
  documents?: number;
}

/** Text with highlight ranges; the UI renders ranges as <mark> elements, never as HTML. */
export interface HighlightedText {
  text: string;
  highlights: Array<[start: number, end: number]>;
}

export interface SearchHit {
  chunkId: number;
  documentId: number;
  path: string;
  title: string;
  mime: string;
  seq: number;
  start: number;
  end: number;
  score: number; // normalised 0..1 for the mode that produced it
  snippet: HighlightedText;
  /** Where each retriever ranked this chunk (1-based), for the "found by" display. */
  ranks: Partial<Record<'lexical' | 'semantic', number>>;
  /** The PDF pages the passage is on (absent for documents without pages). */
  pages?: { first: number; last: number };
  /** The outline section path the hit starts in (PDFs with bookmarks). */
  section?: readonly string[];
  /**
   * How well the passage matches, as a band fitted on measured relevance (relevance.ts); absent
   * where the path does not rate hits, null when no signal of the hit has a fit.
   */
  relevance?: Relevance | null;
}

/** One entry of a result list: a document, its best passage first, then its next best ones. */
export interface DocumentResult {
  documentId: number;
  path: string;
  title: string;
  mime: string;
  /** The document's passages in ranking order (best first); at least one. */
  passages: SearchHit[];
}

export interface SearchResponse {
  /** Ranked chunks; for a page of documents, every passage of `documents` in entry order. */
  hits: SearchHit[];
  /** One entry per document, in ranking order (best chunk wins), when `documents` was asked. */
  documents?: DocumentResult[];
  mode: SearchMode;
  tookMs: number;
  /** The terms actually searched after parsing (stop words dropped), for display. */
  terms: string[];
  /** Set when the search did less than the query asked (a very long query); shown to the user. */
  notice?: QueryNotice;
}

/** What a long query's search left out, so it is never silent. */
export interface QueryNotice {
  /** Characters of the query beyond the readable length that were not read. */
  truncatedChars: number;
  /**
   * Common terms that, for cost, did not look for passages of their own: they still count in the
   * score of every passage the other terms found.
   */
  rankOnlyTerms: string[];
  /**
   * Set when the embedding model read only the start of the query: its window in word pieces
   * (keyword matching still used every word).
   */
  modelWindowTokens?: number;
  /** One sentence for the user. */
  message: string;
}

/** One file handed to the importer. `data` is read lazily. */
export interface ImportFile {
  path: string;
  name: string;
  size: number;
  modified: number;
  type: string; // MIME type reported by the browser, may be ''
  data: Blob;
}

export interface ImportFileFailure {
  path: string;
  code: string; // an ErrorCode
  message: string;
}

/** Something a user should know about a file that WAS imported (e.g. the encoding it was read in). */
export interface ImportFileNote {
  path: string;
  message: string;
}

export interface ImportProgress {
  filesTotal: number;
  filesDone: number;
  chunksDone: number;
  added: number;
  replaced: number;
  unchanged: number;
  duplicate: number;
  failures: ImportFileFailure[];
  notes: ImportFileNote[];
  current: string | null;
  done: boolean;
  cancelled: boolean;
}

export type StorageKind = 'opfs' | 'idb' | 'memory';

export interface StorageInfo {
  kind: StorageKind;
  persistent: boolean; // navigator.storage.persisted()
  note: string | null; // e.g. why OPFS was not used
}
