// The API the database worker (workers/db.worker.ts) exposes over Comlink, as the capabilities the
// UI holds one remote each for: the library (store, import, search and its planning), semantic
// search (embedding model and backlog), answers, and projects (with their bibliography).
// Plain types only.
import type { BiblioApi } from './biblio-api';
import type { IngestApi } from './ingest-api';
import type { OriginalsApi } from './originals-api';
import type { ProjectsApi } from './projects-api';
import type { LibraryApi } from './store-api';
import type { PlanOptions, PlannedSearch } from './research-api';
import type { RelatedRequest, SearchQuery } from './search-contract';
import type { SemanticStatus } from './semantic-api';
import type { SearchResponse, StorageInfo } from './types';
import type { AnswerWorkerApi } from './answer-history-api';
import type { EmbedSpawner } from './embed-api';

/** Semantic search: the embedding model, the embed-worker pool and the embedding backlog. */
export interface SemanticApi {
  /**
   * Runs the embedding backlog on a pool of `size` embed workers started through `spawner` (a
   * Comlink proxy; a worker that fails mid-batch is replaced through it and its batch retried).
   * Semantic and hybrid search start once the model has loaded; the backlog is embedded in the
   * background with progress reported to `watchSemantic`.
   */
  connectEmbedders(spawner: EmbedSpawner, size: number): Promise<void>;
  /** Changes how many embed workers the backlog runs on (the Settings choice), at least 1. */
  setEmbedWorkers(size: number): Promise<void>;
  semanticStatus(): Promise<SemanticStatus>;
  /** Calls `onStatus` (a Comlink proxy) on every change of the semantic status. */
  watchSemantic(onStatus: (status: SemanticStatus) => void): Promise<void>;
  /** Pauses background embedding (resumable: the backlog stays in the library). */
  pauseEmbedding(): Promise<void>;
  resumeEmbedding(): Promise<void>;
  /**
   * Stops this embedding run (vectors made so far are kept and searched); the rest stays
   * keyword-only until `resumeEmbedding` or the next start of the app.
   */
  cancelEmbedding(): Promise<void>;
  /**
   * Makes model `id` (installed in the embed workers) the library's embedding model; the library
   * is re-embedded in the background and old and new vectors never mix in a search.
   * @throws AppError MODEL_LOAD_FAILED, NOT_FOUND
   */
  activateModel(id: string): Promise<void>;
}

/** Query optimisation and "more like this" over the library's search. */
export interface QueryPlanApi {
  /** Connects the LLM worker (a port from `Comlink.createEndpoint`) for query optimisation. */
  connectLlm(port: MessagePort): Promise<void>;
  /**
   * Optimises the query (route, rewrite, HyDE, RAG-Fusion, LLM-free expansion) and searches with
   * it; works without any LLM through the fallbacks. @throws AppError ABORTED, INVALID_QUERY
   */
  planQuery(
    request: SearchQuery,
    options?: PlanOptions,
    requestId?: string,
  ): Promise<PlannedSearch>;
  /**
   * "More like this": the source passage (a hit's chunk, a whole document, or selected text) is
   * the query, lexically with all its terms and semantically with its stored vector, in the
   * request's mode and filters; the source document is left out of the results. No match is an
   * empty response, not an error.
   * @throws AppError NOT_FOUND (the source was deleted), INVALID_QUERY (an empty passage)
   */
  findRelated(request: RelatedRequest): Promise<RelatedResponse>;
  cancelPlan(requestId: string): Promise<void>;
}

/** The library capability: documents, import, search and its planning, and opening the store. */
export interface LibraryRemoteApi extends LibraryApi, IngestApi, QueryPlanApi, OriginalsApi {
  /**
   * Opens (or creates) the library; every other call waits for it. Resolves with where the
   * library is stored. @throws AppError STORAGE_UNAVAILABLE, DB_CORRUPT, SCHEMA_TOO_NEW
   */
  init(): Promise<StorageInfo>;
  /**
   * Another tab wrote to the library (same OPFS file): drop cached answers and let the semantic
   * index pick up (or embed) the new chunks.
   */
  libraryChangedElsewhere(): Promise<void>;
}

/** The projects capability: projects, claims, audits, exports and their bibliography. */
export interface ProjectsRemoteApi extends ProjectsApi, BiblioApi {}

/** The remotes the UI holds on the database worker, one per capability. */
export interface DbRemotes {
  library: LibraryRemoteApi;
  semantic: SemanticApi;
  answers: AnswerWorkerApi;
  projects: ProjectsRemoteApi;
}

/** Everything the database worker serves (the service implements it; the UI never holds it whole). */
export interface LibraryWorkerApi
  extends LibraryRemoteApi, SemanticApi, AnswerWorkerApi, ProjectsRemoteApi {}

/** Related hits, and a notice when the source was shortened to bound the work (never silent). */
export interface RelatedResponse extends SearchResponse {
  /** The source's title/path, for "Related to ..." in the results header. */
  sourceLabel: string;
  /** Why the source was shortened, if it was (the lexical `notice` is the query's own). */
  sourceNotice: string | null;
}

export type { LibraryStats } from './store-api';
export type { CleanHtml } from './ingest-api';
