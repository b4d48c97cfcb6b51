// The one request every search path takes (issue 15): plain, hybrid and semantic search, the
// optimised (planned) search, "find related" and answers all honour the same scope, so a user who
// filtered to one folder never gets a hit from elsewhere, whichever path they took.
// Plain DTOs only.
import type { SearchFilters, SearchMode } from './types';

/** Where and how to search: shared by every path. */
export interface SearchScope {
  /** Retrieval mode; absent = hybrid when a model is loaded, else lexical. */
  mode?: SearchMode;
  /** Pre-retrieval filters (path glob, type, dates, contained text). */
  filters?: SearchFilters;
  /**
   * The research project the search belongs to. Accepted and ignored until the projects room
   * (workers/projects/) wires it; passing it today changes nothing.
   */
  project?: string;
}

/** A search: the query text and its scope. */
export interface SearchQuery extends SearchScope {
  query: string;
}

/** What "find related" (More like this) starts from. */
export type RelatedSource =
  /** A hit's passage: its text and stored vector are the query. */
  | { kind: 'chunk'; chunkId: number }
  /** A whole document: its text (bounded) and the mean of its chunk vectors. */
  | { kind: 'document'; documentId: number }
  /** Text the user selected (in the viewer); `documentId` is excluded from the results. */
  | { kind: 'text'; text: string; documentId?: number };

/**
 * "Find related": the same scope as every search; the query is the source passage itself and the
 * source document is excluded from the results.
 */
export interface RelatedRequest extends SearchScope {
  source: RelatedSource;
  /** Final number of hits. Default 10. */
  limit?: number;
  /** A page of this many documents instead of `limit` hits (as `SearchRequest.documents`). */
  documents?: number;
}
