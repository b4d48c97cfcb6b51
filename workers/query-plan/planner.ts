// The query planner (WSOP section 5): routes a query by complexity, applies the enabled
// techniques for that route, retrieves (in parallel), fuses with RRF, and records a QueryPlan
// (route, generated texts, time per step, which results each retrieval contributed) for the UI.
//   simple   -> one retrieval of the query, no expansion (WSOP-001)
//   moderate -> HyDE (+ RM3 / WordNet on the lexical side) and a single retrieval
//   complex  -> rewrite + HyDE + multi-query (+ keyphrase variants) retrieved in parallel, RRF (WSOP-002)
// Routing switched off = the complex route with whatever techniques are on. Every dependency is
// injected (search, embed, generate, fuse, lexical top-k, synonyms, clock).
import { createError } from '../shared/errors';
import {
  DEFAULT_TECHNIQUES,
  type PlanOptions,
  type QueryPlan,
  type TechniqueSwitches,
} from '../shared/research-api';
import type { SearchQuery } from '../shared/search-contract';
import type { TtlCache } from './cache';
import { createMultiQuery } from './fusion';
import { createHyde } from './hyde';
import { createPlanContext } from './plan-context';
import { hydeStep, keyphraseStep, multiQueryStep, rewriteStep } from './plan-generate';
import { rm3Step, routeStep, wordnetStep } from './plan-lexical';
import {
  embedOriginalEarlyStep,
  embedVariantsStep,
  fuseStep,
  planRecord,
  retrieveStep,
} from './plan-retrieve';
import { createRewriter } from './rewrite';
import type { Rm3Config } from './rm3';
import { rrf } from './rrf';
import type {
  Clock,
  EmbedFn,
  FuseFn,
  LexicalTopKFn,
  LlmDep,
  RankedHit,
  SearchFn,
  Timers,
} from './types';
import type { SynonymIndex } from './wordnet';

export interface PlannerDeps<H extends RankedHit> {
  search: SearchFn<H>;
  embed: EmbedFn;
  llm?: LlmDep | null;
  /**
   * Query embeddings for several texts in one call (the search's own query embedder, query role).
   * With it, a plan's variants are embedded in one batch before retrieval; without, each
   * retrieval embeds its own query.
   */
  embedQueries?: EmbedFn;
  /** Defaults to the local RRF (k = 60); inject workers/search's RRF to share one implementation. */
  fuse?: FuseFn;
  /** Needed by RM3 (first-pass lexical documents with text). */
  lexicalTopK?: LexicalTopKFn;
  /** Needed by WordNet expansion: the index or a lazy loader (the JSON is fetched on first use). */
  synonyms?: SynonymIndex | (() => Promise<SynonymIndex>);
  clock: Clock;
  timers?: Timers;
  hydeCache?: TtlCache<{ vector: Int16Array; documents: string[] }>;
  /** Per LLM step. Default 30 s. */
  stepTimeoutMs?: number;
  /**
   * RM3 parameters. Default fbDocs 5, fbTerms 5, originalWeight 0.8: of the settings tried on
   * SciFact (lexical; Anserini's 10/10/0.5 lost 3 nDCG@10 points) this one lost least (-0.2)
   * while raising Recall@100 (+0.7).
   */
  rm3?: Rm3Config;
}

export interface PlanOutput<H extends RankedHit> {
  plan: QueryPlan;
  hits: H[];
}

export function createQueryPlanner<H extends RankedHit>(deps: PlannerDeps<H>) {
  const timers = deps.timers;
  const llm = deps.llm ?? null;
  const hyde = createHyde({
    llm,
    embed: deps.embed,
    clock: deps.clock,
    ...(deps.hydeCache ? { cache: deps.hydeCache } : {}),
    ...(timers ? { timers } : {}),
  });
  const rewriter = createRewriter({ llm, ...(timers ? { timers } : {}) });
  const multi = createMultiQuery({ llm, ...(timers ? { timers } : {}) });
  const fuse: FuseFn = deps.fuse ?? rrf;
  let synonymIndex: Promise<SynonymIndex> | null =
    deps.synonyms instanceof Map ? Promise.resolve(deps.synonyms) : null;
  /** The synonym index (loaded once; a failed load is retried next time), or null without one. */
  function synonyms(): Promise<SynonymIndex> | null {
    if (synonymIndex || typeof deps.synonyms !== 'function') return synonymIndex;
    const load = deps.synonyms();
    synonymIndex = load;
    load.catch(() => {
      if (synonymIndex === load) synonymIndex = null;
    });
    return load;
  }

  /**
   * Plans and runs a query: route, expand, generate, retrieve (concurrently), fuse.
   * @throws AppError ABORTED when `signal` fires; search errors of the original-query retrieval.
   */
  async function plan(
    request: string | SearchQuery,
    options: PlanOptions = {},
    signal?: AbortSignal,
  ): Promise<PlanOutput<H>> {
    const { query, mode, filters } = typeof request === 'string' ? { query: request } : request;
    const q = query.trim();
    if (!q) throw createError('INVALID_QUERY', { reason: 'The query is empty.' });
    const techniques: TechniqueSwitches = { ...DEFAULT_TECHNIQUES, ...options.techniques };
    const limit = options.limit ?? 10;
    const scope = { ...(mode ? { mode } : {}), ...(filters ? { filters } : {}) };
    const ctx = createPlanContext(
      q,
      scope,
      options,
      techniques,
      deps.clock,
      signal,
      deps.stepTimeoutMs,
    );
    await routeStep(ctx, llm, timers);
    embedOriginalEarlyStep(ctx, deps.embedQueries);
    await rm3Step(ctx, deps.lexicalTopK, deps.rm3);
    await wordnetStep(ctx, synonyms);
    ctx.retrievals.push({
      id: 'retrieve:original',
      label: 'Original query',
      request: { text: q, ...(ctx.lexicalQuery ? { lexicalQuery: ctx.lexicalQuery } : {}) },
      inputFrom: ctx.lexicalQuery ? 'rm3/wordnet' : null,
      essential: true,
    });
    await rewriteStep(ctx, rewriter);
    await hydeStep(ctx, hyde);
    await multiQueryStep(ctx, multi);
    keyphraseStep(ctx);
    embedVariantsStep(ctx, deps.embedQueries);
    const lists = await retrieveStep(ctx, deps.search, Math.max(limit, 10), options.documents);
    const finalHits = fuseStep(ctx, lists, fuse, limit, options.documents);
    const planned: QueryPlan = planRecord(ctx, lists, finalHits, llm?.kind ?? 'none');
    return { plan: planned, hits: finalHits.map((h) => h.hit) };
  }

  return { plan };
}
