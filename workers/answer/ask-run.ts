// One ask of the answer service while it runs: the question, what the request allows (LLM, web),
// the timed step log, the notices and corrective actions gathered so far, and the retrieval at
// the request's filters. The service's steps (ask-evidence.ts, service.ts) read and append to it;
// nothing here decides an answer.
import type { AnswerRequest, AnswerStep, CorrectiveAction } from '../shared/answer-api';
import { MAX_QUESTION_CHARS } from '../shared/answer-api';
import { createError } from '../shared/errors';
import type { FittedModel } from './fitted';
import type { AnswerDeps, AnswerHooks, Retrieval } from './types';

/** Fused chunks asked of the retrieval: enough for 10 distinct documents. */
export const RETRIEVE_CHUNKS = 40;

export interface AskRun {
  readonly question: string;
  readonly request: AnswerRequest;
  readonly signal: AbortSignal | undefined;
  readonly deps: AnswerDeps;
  readonly fitted: FittedModel;
  readonly hooks: AnswerHooks;
  readonly useLlm: boolean;
  readonly useWeb: boolean;
  readonly notices: string[];
  readonly steps: AnswerStep[];
  readonly actions: CorrectiveAction[];
  now(): number;
  /** Runs one step and logs its latency; @throws AppError ABORTED when the signal fired meanwhile */
  timed<T>(kind: AnswerStep['kind'], fn: () => Promise<T>, note?: string): Promise<T>;
  /** The question retrieved at the request's filters; `lexicalQuery` replaces the lexical side. */
  retrieve(lexicalQuery?: string): Promise<Retrieval>;
}

/**
 * The run of one request: its question trimmed (and cut to MAX_QUESTION_CHARS with a notice).
 * @throws AppError INVALID_QUERY when the question is empty
 */
export function startAsk(
  request: AnswerRequest,
  signal: AbortSignal | undefined,
  deps: AnswerDeps,
  fitted: FittedModel,
): AskRun {
  const notices: string[] = [];
  let question = (request.question ?? '').trim();
  if (!question) throw createError('INVALID_QUERY', { reason: 'The question is empty.' });
  if (question.length > MAX_QUESTION_CHARS) {
    question = question.slice(0, MAX_QUESTION_CHARS);
    notices.push(`The question was cut to its first ${MAX_QUESTION_CHARS} characters.`);
  }
  const steps: AnswerStep[] = [];
  const now = () => deps.clock.now();
  return {
    question,
    request,
    signal,
    deps,
    fitted,
    hooks: deps.hooks ?? {},
    useLlm: request.allowLlm !== false,
    useWeb: request.allowWeb !== false,
    notices,
    steps,
    actions: [],
    now,
    async timed(kind, fn, note) {
      const s = now();
      const out = await fn();
      if (signal?.aborted) throw createError('ABORTED', {});
      steps.push({ kind, ms: now() - s, ...(note ? { note } : {}) });
      return out;
    },
    retrieve: (lexicalQuery) =>
      deps.retrieve({
        query: question,
        ...(lexicalQuery ? { lexicalQuery } : {}),
        ...(request.filters ? { filters: request.filters } : {}),
        limit: RETRIEVE_CHUNKS,
      }),
  };
}
