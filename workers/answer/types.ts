// The answer room's dependency interfaces (issue 16): what createAnswerService needs from the
// rest of the app. The worker that composes the service (db.worker) builds them from hybrid
// search, the store, the active embedding model, the LLM worker and the web worker; tests and
// the eval build them from the same modules in Node. Plain functions, no worker imports.
import type { AnswerRequest, Strip } from '../shared/answer-api';
import type { PairVerifier } from '../shared/pair-verifier';
import type { SearchFilters } from '../shared/types';
import type { ChunkRow } from '../store/chunk-lookup';

/** One chunk of the fused hybrid list (its stored row), with the signals each retriever gave it. */
export interface RetrievedChunk extends ChunkRow {
  /** 1-based rank in the fused list, and the fusion score. */
  fusedRank: number;
  fusedScore: number;
  /** Raw BM25 and its 1-based rank in the lexical list (null: not in it). */
  lexicalScore: number | null;
  lexicalRank: number | null;
  /** Cosine to the query vector and its 1-based rank in the semantic list (null: not in it). */
  cosine: number | null;
  semanticRank: number | null;
}

export interface RetrieveRequest {
  query: string;
  /** Replaces the query text on the lexical side (RM3 / WordNet expansion). */
  lexicalQuery?: string;
  filters?: SearchFilters;
  /** Chunks wanted from the fused list (the service asks for enough to get 10 documents). */
  limit: number;
}

export interface Retrieval {
  /** Fused chunks, best first (CFS-012 ordering). */
  chunks: RetrievedChunk[];
  /** The query's canonical vector the semantic side used (null: lexical only, no model). */
  queryVector: Int16Array | null;
}

/** The app's hybrid retrieval (the evaluator reuses its query vector: no second embedding). */
export type RetrieveFn = (request: RetrieveRequest) => Promise<Retrieval>;

/**
 * Canonical int16 vectors of the active model. `query` texts get the model's query prefix,
 * `passage` texts its passage prefix. Unit vectors, cosine = dot / 32767^2.
 */
export type AnswerEmbedFn = (texts: string[], kind: 'query' | 'passage') => Promise<Int16Array[]>;

/** Library statistics for term weights (IDF): counts of chunks, as BM25 counts them. */
export interface LexicalStats {
  /** Chunks in the library, and for each word how many chunks contain it (stemmed as indexed). */
  docFreq(words: string[]): Promise<{ total: number; df: number[] }>;
}

/** The stored document a chunk belongs to (text for strips with exact offsets). */
export interface AnswerDocument {
  documentId: number;
  path: string;
  title: string;
  text: string;
  chunks: Array<{ id: number; seq: number; start: number; end: number }>;
}

export interface AnswerClock {
  /** Monotonic ms for latencies. */
  now(): number;
  /** ms since epoch for createdAt. */
  wallNow(): number;
}

/** An LLM relevance grade for one passage (0..1), or null when the backend declined. */
export type LlmGradeFn = (
  question: string,
  passages: Array<{ id: string; text: string }>,
  signal?: AbortSignal,
) => Promise<Array<number | null>>;

/** LLM entailment of a sentence by its cited strips (0..1). */
export type LlmEntailFn = (
  sentence: string,
  evidence: string[],
  signal?: AbortSignal,
) => Promise<number | null>;

/**
 * Web results as strips (source 'web', url, tier), for INCORRECT / AMBIGUOUS queries, and the
 * providers that failed while others answered (what arrived is kept; the failures mark it partial).
 */
export type WebSearchFn = (
  query: string,
  signal?: AbortSignal,
) => Promise<{
  strips: Strip[];
  failures: Array<{ provider: string; code: string }>;
  /** How the router shaped the search (route, providers, depth), when it did. */
  shaped?: string;
}>;

/** A generated answer: text with [n] citations, streamed through onToken (h16b's tier). */
export type GenerateAnswerFn = (
  question: string,
  strips: Strip[],
  onToken: (text: string) => void,
  signal?: AbortSignal,
) => Promise<{
  text: string;
  partial: boolean;
  /** The reply passed its size budget (MAX_REPLY_CHARS) and was cut there. */
  cut?: boolean;
  backend: string;
  ms: number;
}>;

/** Optional hooks filled when an LLM backend / web provider is active. */
export interface AnswerHooks {
  llmGrade?: LlmGradeFn;
  llmEntail?: LlmEntailFn;
  generate?: GenerateAnswerFn;
  web?: WebSearchFn;
  /** Backend name for the metadata (e.g. 'webllm'). */
  llmBackend?: string;
}

/** Query expansion for the INCORRECT path (workers/query-plan: RM3 / WordNet). */
export type ExpandFn = (
  query: string,
) => Promise<{ lexicalQuery: string; technique: string } | null>;

export interface AnswerDeps {
  retrieve: RetrieveFn;
  embed: AnswerEmbedFn;
  lexicalStats: LexicalStats;
  document(documentId: number): Promise<AnswerDocument | null>;
  /** Stored canonical vectors of chunks for the active model (missing ids: not embedded yet). */
  chunkVectors(chunkIds: number[]): Promise<Map<number, Int16Array>>;
  /** The active embedding model id (picks the fitted model). */
  modelId: string;
  clock: AnswerClock;
  /**
   * Sift's pair verifier: reads the best sentences against the question (relevance.ts). Absent,
   * or with its weights missing, the answer keeps the retrieval's own scores and says so.
   */
  pairVerifier?: PairVerifier;
  /** LLM-free expansion for INCORRECT queries; absent = no expansion. */
  expand?: ExpandFn;
  hooks?: AnswerHooks;
}

export type { AnswerRequest };
