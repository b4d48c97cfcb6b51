// The one generator interface every backend implements, and the wrapper that gives all backends
// the same semantics: stop strings, maxTokens, streamed pieces, AbortSignal, errors as AppError.
// Backends only provide `stream()`.
import { createError, isAppError, toAppError } from '../shared/errors';
import {
  MAX_REPLY_CHARS,
  type GenerateRequest,
  type GenerateResult,
  type LlmBackendKind,
  type ChatMessage,
} from '../shared/llm-api';

export interface GenerateOptions {
  signal?: AbortSignal;
  /** Called with each piece of text as it arrives (after stop-string trimming). */
  onToken?: (piece: string) => void;
}

/** A backend: streams raw text pieces; the wrapper applies stop strings and limits. */
export interface StreamingBackend {
  readonly kind: LlmBackendKind;
  stream(request: NormalisedRequest, signal: AbortSignal): AsyncIterable<string>;
}

export interface NormalisedRequest {
  messages: ChatMessage[] | null;
  prompt: string;
  temperature: number;
  maxTokens: number;
  stop: string[];
  seed: number | undefined;
}

/** What research code and the worker call. */
export interface Generator {
  readonly kind: LlmBackendKind;
  /**
   * Generates a completion.
   * @throws AppError ABORTED (details.partialText), TIMEOUT, or the backend's own codes.
   */
  generate(request: GenerateRequest, options?: GenerateOptions): Promise<GenerateResult>;
  /** Streams pieces as an async iterator; breaking out of the loop cancels the generation. */
  stream(request: GenerateRequest, options?: { signal?: AbortSignal }): AsyncIterable<string>;
}

export const DEFAULT_TEMPERATURE = 0.7;
export const DEFAULT_MAX_TOKENS = 256;

/** Flattens chat messages for backends that only take a prompt (no chat template). */
export function messagesToPrompt(messages: ChatMessage[]): string {
  return (
    messages
      .map((m) =>
        m.role === 'system'
          ? m.content
          : `${m.role === 'user' ? 'User' : 'Assistant'}: ${m.content}`,
      )
      .join('\n\n') + '\n\nAssistant:'
  );
}

/** @throws AppError INVALID_ARGUMENT when neither prompt nor messages hold text. */
export function normaliseRequest(request: GenerateRequest): NormalisedRequest {
  const messages = request.messages && request.messages.length > 0 ? request.messages : null;
  const prompt = messages ? messagesToPrompt(messages) : (request.prompt ?? '');
  if (prompt.trim() === '') {
    throw createError('INVALID_ARGUMENT', { reason: 'The generation request has no prompt.' });
  }
  const temperature = request.temperature ?? DEFAULT_TEMPERATURE;
  const maxTokens = request.maxTokens ?? DEFAULT_MAX_TOKENS;
  if (!(temperature >= 0 && temperature <= 2) || !(Number.isInteger(maxTokens) && maxTokens > 0)) {
    throw createError('INVALID_ARGUMENT', {
      reason: 'temperature must be within 0..2 and maxTokens a positive integer.',
    });
  }
  return {
    messages,
    prompt,
    temperature,
    maxTokens,
    stop: (request.stop ?? []).filter((s) => s.length > 0),
    seed: request.seed,
  };
}

/** Length of the longest suffix of `text` that is a proper prefix of some stop string. */
function heldBack(text: string, stops: string[]): number {
  let hold = 0;
  for (const s of stops) {
    for (let n = Math.min(s.length - 1, text.length); n > hold; n--) {
      if (text.endsWith(s.slice(0, n))) {
        hold = n;
        break;
      }
    }
  }
  return hold;
}

function abortError(partialText: string, reason?: unknown): Error {
  if (isAppError(reason)) return reason; // e.g. a TIMEOUT passed as the abort reason
  return createError('ABORTED', { partialText });
}

/**
 * Wraps a streaming backend into a Generator with uniform semantics. A reply is cut at
 * `maxReplyChars` (finishReason 'cut'), and a backend's REPLY_TOO_LARGE (one streamed event past
 * its budget) ends it the same way, with what came before kept.
 */
export function createGenerator(
  backend: StreamingBackend,
  maxReplyChars = MAX_REPLY_CHARS,
): Generator {
  async function generate(
    request: GenerateRequest,
    options: GenerateOptions = {},
  ): Promise<GenerateResult> {
    const req = normaliseRequest(request);
    const outer = options.signal;
    if (outer?.aborted) throw abortError('', outer.reason);
    // Our own controller lets us stop the backend at a stop string without aborting the caller.
    const inner = new AbortController();
    const onOuterAbort = () => inner.abort(outer?.reason);
    outer?.addEventListener('abort', onOuterAbort, { once: true });
    // The reply is kept as emitted parts plus `held`, the tail that may begin a stop string;
    // each piece is searched with that tail only, so the work is linear in the reply.
    const parts: string[] = [];
    let held = '';
    let received = 0; // characters taken into the reply (parts + held)
    const textSoFar = () => parts.join('') + held;
    const emit = (piece: string) => {
      if (!piece) return;
      parts.push(piece);
      options.onToken?.(piece);
    };
    let pieces = 0;
    let finishReason: GenerateResult['finishReason'] = 'length';
    try {
      let ended = false; // by a stop string or the cut
      try {
        for await (const piece of backend.stream(req, inner.signal)) {
          if (outer?.aborted) break;
          if (piece === '') continue;
          pieces++;
          const room = maxReplyChars - received;
          const add = piece.length > room ? piece.slice(0, room) : piece;
          received += add.length;
          const window = held + add;
          const hit = firstStop(window, req.stop);
          if (hit >= 0) {
            emit(window.slice(0, hit));
            held = '';
            finishReason = 'stop';
          } else if (piece.length > room) {
            emit(window);
            held = '';
            finishReason = 'cut';
          } else {
            const keep = heldBack(window, req.stop);
            emit(window.slice(0, window.length - keep));
            held = window.slice(window.length - keep);
          }
          if (hit >= 0 || piece.length > room) {
            ended = true;
            inner.abort();
            break;
          }
          if (pieces >= req.maxTokens) {
            finishReason = 'length';
            inner.abort();
            break;
          }
        }
      } catch (err) {
        if (!(isAppError(err) && err.code === 'REPLY_TOO_LARGE') || outer?.aborted) throw err;
        ended = true;
        finishReason = 'cut';
      }
      if (outer?.aborted) throw abortError(textSoFar(), outer.reason);
      if (!ended && pieces < req.maxTokens) finishReason = 'stop'; // the model ended by itself
      emit(held);
      held = '';
      return { text: parts.join(''), finishReason, tokens: pieces, backend: backend.kind };
    } catch (err) {
      if (outer?.aborted) throw abortError(textSoFar(), outer.reason);
      if (err instanceof DOMException && err.name === 'AbortError') throw abortError(textSoFar());
      throw toAppError(err, 'INTERNAL');
    } finally {
      outer?.removeEventListener('abort', onOuterAbort);
    }
  }

  async function* stream(
    request: GenerateRequest,
    options: { signal?: AbortSignal } = {},
  ): AsyncIterable<string> {
    // A queue fed by generate()'s onToken so stop strings and limits behave the same way.
    const queue: string[] = [];
    let wake: (() => void) | null = null;
    let done = false;
    let failure: unknown = null;
    const ctrl = new AbortController();
    const onAbort = () => ctrl.abort(options.signal?.reason);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const run = generate(request, {
      signal: ctrl.signal,
      onToken: (p) => {
        queue.push(p);
        wake?.();
      },
    }).then(
      () => {
        done = true;
        wake?.();
      },
      (err: unknown) => {
        failure = err;
        done = true;
        wake?.();
      },
    );
    try {
      while (true) {
        if (queue.length > 0) {
          yield queue.shift() as string;
          continue;
        }
        if (done) break;
        await new Promise<void>((resolve) => (wake = resolve));
        wake = null;
      }
      if (failure) throw failure as Error; // what the stream threw, passed on as it was
    } finally {
      if (!done) ctrl.abort(); // the consumer broke out of the loop
      options.signal?.removeEventListener('abort', onAbort);
      await run;
    }
  }

  return { kind: backend.kind, generate, stream };
}

function firstStop(text: string, stops: string[]): number {
  let best = -1;
  for (const s of stops) {
    const i = text.indexOf(s);
    if (i >= 0 && (best < 0 || i < best)) best = i;
  }
  return best;
}

/** Runs `fn` with a signal that aborts after `timeoutMs` with a TIMEOUT AppError as its reason. */
export async function withTimeout<T>(
  timeoutMs: number,
  signal: AbortSignal | undefined,
  fn: (signal: AbortSignal) => Promise<T>,
  timers: { setTimeout: typeof setTimeout; clearTimeout: typeof clearTimeout } = globalThis,
): Promise<T> {
  const ctrl = new AbortController();
  const onAbort = () => ctrl.abort(signal?.reason);
  if (signal?.aborted) ctrl.abort(signal.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  const timer = timers.setTimeout(
    () => ctrl.abort(createError('TIMEOUT', { reason: `No answer within ${timeoutMs} ms.` })),
    timeoutMs,
  );
  try {
    return await fn(ctrl.signal);
  } finally {
    timers.clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}
