// The state one run of the query planner carries from step to step: the query, the options, the
// route, the retrievals queued so far and the step recorder (time per step from the injected
// clock). Plain data and two small helpers; no technique logic.
import { createError } from '../shared/errors';
import type {
  Complexity,
  PlanOptions,
  PlanStep,
  PlanStepKind,
  QueryPlan,
  TechniqueSwitches,
} from '../shared/research-api';
import type { SearchScope } from '../shared/search-contract';
import type { Clock, RetrievalRequest } from './types';

/** One retrieval the plan will run (the original query, a rewrite, a HyDE vector, a variant). */
export interface Retrieval {
  id: string;
  label: string;
  request: Omit<RetrievalRequest, 'limit' | 'signal'>;
  inputFrom: string | null;
  /** The original query's retrieval: its failure fails the plan; the others fall back. */
  essential: boolean;
}

export interface PlanContext {
  /** The trimmed query. */
  q: string;
  /** The user's mode and filters, passed to every retrieval and to RM3's first pass. */
  scope: Pick<SearchScope, 'mode' | 'filters'>;
  options: PlanOptions;
  techniques: TechniqueSwitches;
  signal: AbortSignal | undefined;
  /** Per LLM step, when the caller set one. */
  timeoutMs: number | undefined;
  t0: number;
  clock: Clock;
  steps: PlanStep[];
  complexity: Complexity;
  routeReason: string;
  routeSource: QueryPlan['routeSource'];
  /** The lexical side's text after RM3 / WordNet (undefined: the query as is). */
  lexicalQuery: string | undefined;
  /** The query later steps build on (the rewrite when there is one). */
  base: string;
  /** Queries the multi-query step generated (keyphrases use fewer variants when there are some). */
  generatedCount: number;
  retrievals: Retrieval[];
  /** The original query's vector, started before the LLM steps (complex route), or null. */
  originalVector: Promise<Int16Array | null> | null;
}

export function createPlanContext(
  q: string,
  scope: Pick<SearchScope, 'mode' | 'filters'>,
  options: PlanOptions,
  techniques: TechniqueSwitches,
  clock: Clock,
  signal: AbortSignal | undefined,
  timeoutMs: number | undefined,
): PlanContext {
  return {
    q,
    scope,
    options,
    techniques,
    signal,
    timeoutMs,
    t0: clock.now(),
    clock,
    steps: [],
    complexity: 'simple',
    routeReason: '',
    routeSource: 'heuristic',
    lexicalQuery: undefined,
    base: q,
    generatedCount: 0,
    retrievals: [],
    originalVector: null,
  };
}

/** Records a finished step that started at `start` (clock time); returns it. */
export function record(
  ctx: PlanContext,
  id: string,
  kind: PlanStepKind,
  label: string,
  start: number,
  fields: Partial<PlanStep> = {},
): PlanStep {
  const step: PlanStep = {
    id,
    kind,
    label,
    status: 'ok',
    startMs: start - ctx.t0,
    durationMs: ctx.clock.now() - start,
    texts: [],
    resultIds: [],
    uniqueIds: [],
    inputFrom: null,
    note: null,
    errorCode: null,
    ...fields,
  };
  ctx.steps.push(step);
  return step;
}

/** Records a step that did not run, and why. */
export function skip(
  ctx: PlanContext,
  id: string,
  kind: PlanStepKind,
  label: string,
  note: string,
): PlanStep {
  return record(ctx, id, kind, label, ctx.clock.now(), { status: 'skipped', note });
}

/** @throws AppError ABORTED when the plan's signal has fired. */
export function checkAbort(ctx: PlanContext): void {
  if (ctx.signal?.aborted) throw createError('ABORTED');
}

/** Why a technique that is on cannot act in the user's mode (null: it can). */
export function notInMode(ctx: PlanContext, side: 'lexical' | 'semantic'): string | null {
  const mode = ctx.scope.mode;
  if (side === 'lexical' && mode === 'semantic')
    return 'semantic mode has no keyword side to expand';
  if (side === 'semantic' && mode === 'lexical') return 'keyword mode has no semantic side';
  return null;
}

/** Why a technique that is on did not run on this route. */
export const notOnRoute = (ctx: PlanContext) => `the ${ctx.complexity} route does not use it`;
export const OFF = 'switched off';

/** Options for an LLM step: the plan's signal and per-step timeout, when set. */
export function llmStepOptions(ctx: PlanContext): { signal?: AbortSignal; timeoutMs?: number } {
  return {
    ...(ctx.signal ? { signal: ctx.signal } : {}),
    ...(ctx.timeoutMs ? { timeoutMs: ctx.timeoutMs } : {}),
  };
}
