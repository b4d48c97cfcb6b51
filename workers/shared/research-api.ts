// The query-optimisation contract the UI sees: technique switches, complexity routes and the
// query plan (route taken, generated texts, time per step, results each step contributed).
// Plain DTOs only.
import type { LlmBackendKind } from './llm-api';
import type { SearchQuery } from './search-contract';
import { supportedByEvidence } from './technique-evidence';
import type { SearchHit } from './types';

/** Adaptive-RAG levels (WSOP adaptive_routing). */
export type Complexity = 'simple' | 'moderate' | 'complex';

/** Each technique can be switched on or off from the query-plan panel. */
export interface TechniqueSwitches {
  /** Classify the query; off = run every enabled technique (the complex route). */
  routing: boolean;
  /** Ask the LLM to confirm the heuristic class. */
  llmRouting: boolean;
  rewrite: boolean;
  hyde: boolean;
  fusion: boolean;
  rm3: boolean;
  wordnet: boolean;
  keyphrases: boolean;
}

/**
 * Defaults chosen by measurement (technique-evidence.ts): a technique is on only when SciFact
 * train shows it beating plain search with the models a user can run offline. Today none does
 * (RAG-Fusion -0.098 and the complex route -0.17 nDCG@10 with SmolLM2-135M; RM3 and WordNet lose
 * a little; keyphrase variants -0.035 on train; HyDE's +0.005 is on test and
 * not significant), so the optimised search is plain search until a technique is switched on.
 * Routing stays on: it only decides which switched-on techniques a query may use.
 */
export const DEFAULT_TECHNIQUES: TechniqueSwitches = {
  routing: true,
  llmRouting: false,
  rewrite: supportedByEvidence('rewrite'),
  hyde: supportedByEvidence('hyde'),
  fusion: supportedByEvidence('fusion'),
  rm3: supportedByEvidence('rm3'),
  wordnet: supportedByEvidence('wordnet'),
  keyphrases: supportedByEvidence('keyphrases'),
};

export type PlanStepKind =
  | 'route'
  | 'rewrite'
  | 'hyde'
  | 'multi-query'
  | 'keyphrases'
  | 'wordnet'
  | 'rm3'
  | 'embed'
  | 'retrieve'
  | 'fuse';

/** ok: ran as designed; fallback: failed/timed out/no backend and used its fallback; skipped: off or not on this route. */
export type PlanStepStatus = 'ok' | 'fallback' | 'skipped';

export interface PlanStep {
  id: string;
  kind: PlanStepKind;
  label: string;
  status: PlanStepStatus;
  /** ms since the plan started, and how long the step took (injected clock). */
  startMs: number;
  durationMs: number;
  /** Generated or derived texts: hypothetical documents, queries, the rewrite, expansion terms. */
  texts: string[];
  /** For retrieve steps: the ids it returned, in rank order; for fuse: the fused order. */
  resultIds: string[];
  /** For retrieve steps: ids no other retrieval of this plan found (what this step alone added). */
  uniqueIds: string[];
  /** For retrieve steps: the step whose text/vector it searched with (e.g. a hyde step id). */
  inputFrom: string | null;
  note: string | null;
  /** ErrorCode when the step fell back after an error (TIMEOUT, ABORTED, PROVIDER_ERROR, ...). */
  errorCode: string | null;
}

export interface PlanResult {
  id: string;
  score: number;
  /** Ids of the retrieve steps that found this result. */
  contributedBy: string[];
}

export interface QueryPlan {
  query: string;
  complexity: Complexity;
  routeReason: string;
  routeSource: 'heuristic' | 'llm' | 'forced' | 'off';
  techniques: TechniqueSwitches;
  backend: LlmBackendKind;
  steps: PlanStep[];
  results: PlanResult[];
  totalMs: number;
}

export interface PlanOptions {
  techniques?: Partial<TechniqueSwitches>;
  /** Force a route instead of classifying. */
  complexity?: Complexity;
  /** Final number of results. Default 10. */
  limit?: number;
  /**
   * A page of this many documents instead of `limit` chunks: every retrieval reads as deep as a
   * plain search's page of documents, and the fused list keeps at most 1 + MORE_PASSAGES chunks
   * per document for that many documents (the app's optimised search: its results page).
   */
  documents?: number;
  /** HyDE samples averaged (paper: several samples + the query vector). Default 1. */
  hydeSamples?: number;
  hydeIncludeQuery?: boolean;
  /** Generated RAG-Fusion queries. Default 4. */
  fusionQueries?: number;
}

/** A planned search: the plan for the panel and the fused hits in order for the result list. */
export interface PlannedSearch {
  plan: QueryPlan;
  /** `id` is String(chunkId): the key used in plan.results and the steps' resultIds. */
  hits: Array<SearchHit & { id: string }>;
}

/** The research API exposed to the UI (workers/query-plan/service.ts, composed in a worker). */
export interface ResearchApi {
  /**
   * Plans and runs the query in the request's mode and filters (every retrieval honours them).
   * @throws AppError ABORTED when cancelled, INVALID_QUERY for an empty query, search errors.
   */
  planQuery(
    request: SearchQuery,
    options?: PlanOptions,
    requestId?: string,
  ): Promise<PlannedSearch>;
  cancel(requestId: string): Promise<void>;
}
