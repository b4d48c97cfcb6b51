// createAnswerService: the answer pipeline retrieve -> evaluate -> correct -> refine -> answer ->
// check, each step timed and recorded in the answer's CRAG metadata. Composes the factories of
// this room; the worker entry only builds the deps (workers/answer/types.ts) and exposes it.
import type { Answer, AnswerRequest } from '../shared/answer-api';
import type { FittedModel } from './fitted';
import type { AnswerDeps } from './types';

export interface AskOptions {
  signal?: AbortSignal;
  /** Generated answers stream their text here (mode 'generated'). */
  onToken?: (text: string) => void;
}

export interface AnswerService {
  /** @throws AppError INVALID_QUERY (empty question), ABORTED */
  ask(request: AnswerRequest, options?: AskOptions): Promise<Answer>;
}

export function createAnswerService(deps: AnswerDeps, fitted?: FittedModel): AnswerService {
  void deps;
  void fitted;
  return {
    async ask() {
      throw new Error('createAnswerService: not implemented yet (answer contract commit)');
    },
  };
}
