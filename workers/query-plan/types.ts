// The dependency interfaces research techniques are built from. The lead composes them from
// the LLM worker, the canonical embedder and hybrid search; tests pass scripted fakes.
// Defined here on purpose: research must not import search/embed implementations.
import type { GenerateRequest, GenerateResult, LlmBackendKind } from '../shared/llm-api';
import type { SearchFilters, SearchMode } from '../shared/types';

/** Generation (Generator.generate or a Comlink LlmApi adapter). Absent = no backend. */
export type GenerateFn = (
  request: GenerateRequest,
  options?: { signal?: AbortSignal; onToken?: (piece: string) => void },
) => Promise<GenerateResult>;

export interface LlmDep {
  generate: GenerateFn;
  kind: LlmBackendKind;
}

/** Canonical embeddings: unit vectors quantised to int16 with S = 32767 (CFS-012). */
export type EmbedFn = (
  texts: string[],
  options?: { signal?: AbortSignal },
) => Promise<Int16Array[]>;

export interface RankedHit {
  /** Stable id of a result (a chunk id as string). */
  id: string;
  score: number;
  /** The document the result belongs to (plans of documents group the fused list by it). */
  group?: string;
}

export interface RetrievalRequest {
  /** The query text (used lexically and, without `vector`, embedded for the semantic side). */
  text: string;
  /** Replaces the query embedding on the semantic side (HyDE). */
  vector?: Int16Array;
  /**
   * The query vector still being computed by the plan's embedding batch (no `vector`): the search
   * may rank its lexical side while it is in flight and await it only for the semantic side.
   * Resolves to null when the batch failed: the search then embeds `text` itself. Never rejects.
   */
  pendingVector?: Promise<Int16Array | null>;
  /** Replaces the text on the lexical side (RM3 / WordNet expansion). */
  lexicalQuery?: string;
  /** The user's mode and filters: every retrieval of a plan honours them (issue 15). */
  mode?: SearchMode;
  filters?: SearchFilters;
  limit: number;
  /** A page of this many documents (see PlanOptions.documents) instead of `limit` chunks. */
  documents?: number;
  signal?: AbortSignal;
}

export type SearchFn<H extends RankedHit = RankedHit> = (request: RetrievalRequest) => Promise<H[]>;

/** Rank fusion of several ranked lists (RRF k = 60 by default). */
export type FuseFn = <H extends RankedHit>(
  lists: H[][],
  k?: number,
) => Array<{ id: string; score: number; hit: H }>;

/** Top-k lexical documents with their text, for RM3 pseudo-relevance feedback. */
export type LexicalTopKFn = (
  query: string,
  k: number,
  signal?: AbortSignal,
  /** The plan's filters: feedback comes from the documents the user searches in. */
  filters?: SearchFilters,
) => Promise<Array<{ id: string; text: string; score: number }>>;

export interface Clock {
  now(): number;
}

export interface Timers {
  setTimeout: typeof setTimeout;
  clearTimeout: typeof clearTimeout;
}
