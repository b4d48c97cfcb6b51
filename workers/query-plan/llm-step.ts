// Runs one generation for a technique with a timeout, and turns failure into a value so every
// technique can fall back: no backend, error, timeout or empty text. Only a cancellation of the
// whole plan (the caller's signal) is rethrown.
import { createError, isAppError } from '../shared/errors';
import type { GenerateRequest } from '../shared/llm-api';
import type { LlmDep, Timers } from './types';

export type LlmOutcome = { ok: true; text: string } | { ok: false; code: string; reason: string };

export const DEFAULT_STEP_TIMEOUT_MS = 30_000;

/**
 * Sends the technique's prompt as one user chat message: instruction-tuned models only follow it
 * inside their chat template (SmolLM2-135M in wllama answered the raw HyDE prompt with
 * "Output:" and the fusion prompt with code), while base models without a template get the
 * same text flattened by the backend.
 */
export function asChat(request: GenerateRequest): GenerateRequest {
  if (request.messages?.length || request.prompt === undefined) return request;
  const { prompt, ...rest } = request;
  return { ...rest, messages: [{ role: 'user', content: prompt }] };
}

/** @throws AppError ABORTED when `signal` (the whole plan) is cancelled. */
export async function runLlm(
  llm: LlmDep | null | undefined,
  request: GenerateRequest,
  options: {
    signal?: AbortSignal | undefined;
    timeoutMs?: number | undefined;
    timers?: Timers | undefined;
  } = {},
): Promise<LlmOutcome> {
  if (!llm || llm.kind === 'none')
    return { ok: false, code: 'NO_BACKEND', reason: 'no language model is active' };
  const outer = options.signal;
  if (outer?.aborted) throw createError('ABORTED');
  const timers = options.timers ?? globalThis;
  const ctrl = new AbortController();
  const onAbort = () => ctrl.abort(createError('ABORTED'));
  outer?.addEventListener('abort', onAbort, { once: true });
  const timeoutMs = options.timeoutMs ?? DEFAULT_STEP_TIMEOUT_MS;
  const timer = timers.setTimeout(
    () => ctrl.abort(createError('TIMEOUT', { reason: `No answer within ${timeoutMs} ms.` })),
    timeoutMs,
  );
  try {
    // Race too: a backend that ignores the signal must not hold the plan past the timeout.
    const result = await Promise.race([
      llm.generate(asChat(request), { signal: ctrl.signal }),
      new Promise<never>((_, reject) =>
        ctrl.signal.addEventListener('abort', () => reject(ctrl.signal.reason as Error), {
          once: true,
        }),
      ),
    ]);
    const text = result.text.trim();
    if (!text) return { ok: false, code: 'EMPTY', reason: 'the model returned no text' };
    return { ok: true, text };
  } catch (err) {
    if (outer?.aborted) throw createError('ABORTED');
    const code = isAppError(err) ? err.code : 'INTERNAL';
    return { ok: false, code, reason: err instanceof Error ? err.message : String(err) };
  } finally {
    timers.clearTimeout(timer);
    outer?.removeEventListener('abort', onAbort);
  }
}
