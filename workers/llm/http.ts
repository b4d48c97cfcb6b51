// OpenAI-compatible HTTP backend (Ollama, llama.cpp server, LM Studio, vLLM, hosted APIs):
// POST `${baseUrl}/chat/completions` with `stream: true`, parsed as server-sent events.
// The API key goes only to that one URL (redirects refused), and is never logged or put in
// errors. Owns: status-to-error mapping, Retry-After (SSE framing: ./sse-parser.ts).
import { createError, isAppError, type AppError } from '../shared/errors';
import type { HttpEndpointConfig } from '../shared/llm-api';
import { createGenerator, type Generator, type NormalisedRequest } from './generator';
import { createSseParser } from './sse-parser';

export interface HttpBackendDeps {
  fetch: typeof fetch;
  /** Waits before a retry (injected so tests need no real time). */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Retries after a 429 whose Retry-After is at most `maxRetryAfterMs` (default 1 retry, 5 s). */
  maxRetries?: number;
  maxRetryAfterMs?: number;
  /** Injected clock for HTTP-date Retry-After values. */
  now?: () => number;
}

/** Validates and normalises the base URL. @throws AppError INVALID_ARGUMENT */
export function normaliseBaseUrl(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl.trim());
  } catch {
    throw createError('INVALID_ARGUMENT', {
      reason: 'The endpoint base URL is not a valid URL (e.g. http://127.0.0.1:11434/v1).',
    });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw createError('INVALID_ARGUMENT', {
      reason: 'The endpoint base URL must start with http:// or https://.',
    });
  }
  if (url.username || url.password) {
    throw createError('INVALID_ARGUMENT', {
      reason: 'Put the API key in the key field, not in the URL.',
    });
  }
  url.search = '';
  url.hash = '';
  return url.toString().replace(/\/+$/, '');
}

/** Parses Retry-After (seconds or HTTP date) into milliseconds; null when absent or invalid. */
export function parseRetryAfter(value: string | null, now: number): number | null {
  if (!value) return null;
  const seconds = Number(value.trim());
  if (Number.isFinite(seconds) && seconds >= 0) return Math.round(seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

function statusError(status: number, retryAfterMs: number | null): AppError {
  if (status === 401 || status === 403) return createError('AUTH_FAILED', { status });
  if (status === 429) return createError('RATE_LIMITED', { status, retryAfterMs });
  if (status === 404) {
    return createError('PROVIDER_ERROR', {
      status,
      reason:
        'The endpoint has no /chat/completions route or does not know the model: check the base URL (often ending in /v1) and the model name.',
    });
  }
  return createError('PROVIDER_ERROR', { status, reason: `The endpoint answered HTTP ${status}.` });
}

const defaultSleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(t);
        reject(signal.reason as Error); // an AbortError DOMException unless the caller chose one
      },
      { once: true },
    );
  });

/**
 * Reads an SSE body and yields each event's `data` payload (./sse-parser.ts: linear in the input,
 * REPLY_TOO_LARGE for one event past its budget, after which the body is cancelled).
 */
async function* sseData(body: ReadableStream<Uint8Array>): AsyncIterable<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const parser = createSseParser();
  try {
    while (true) {
      const { done, value } = await reader.read();
      const events = done
        ? [...parser.push(decoder.decode()), ...parser.end()]
        : parser.push(decoder.decode(value, { stream: true }));
      yield* events;
      if (done) break;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}

interface ChatChunk {
  choices?: Array<{
    delta?: { content?: string | null };
    text?: string;
    finish_reason?: string | null;
  }>;
  error?: { message?: string };
}

/** Creates the HTTP generator. @throws AppError INVALID_ARGUMENT for a bad base URL or empty model. */
export function createHttpGenerator(config: HttpEndpointConfig, deps: HttpBackendDeps): Generator {
  const baseUrl = normaliseBaseUrl(config.baseUrl);
  const model = config.model.trim();
  if (!model)
    throw createError('INVALID_ARGUMENT', { reason: 'Enter the model name the endpoint serves.' });
  const apiKey = config.apiKey?.trim() || null;
  const url = `${baseUrl}/chat/completions`;
  const sleep = deps.sleep ?? defaultSleep;
  const maxRetries = deps.maxRetries ?? 1;
  const maxRetryAfterMs = deps.maxRetryAfterMs ?? 5000;
  const now = deps.now ?? Date.now;

  async function open(req: NormalisedRequest, signal: AbortSignal): Promise<Response> {
    const body = JSON.stringify({
      model,
      messages: req.messages ?? [{ role: 'user', content: req.prompt }],
      temperature: req.temperature,
      max_tokens: req.maxTokens,
      ...(req.stop.length > 0 ? { stop: req.stop.slice(0, 4) } : {}),
      ...(req.seed !== undefined ? { seed: req.seed } : {}),
      stream: true,
    });
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'text/event-stream',
    };
    if (apiKey) headers.authorization = `Bearer ${apiKey}`;
    for (let attempt = 0; ; attempt++) {
      let res: Response;
      try {
        // redirect 'error': a redirect could carry the key to another host.
        res = await deps.fetch(url, {
          method: 'POST',
          headers,
          body,
          signal,
          redirect: 'error',
          credentials: 'omit',
        });
      } catch (err) {
        if (signal.aborted) throw signal.reason ?? createError('ABORTED');
        // Never include the request (headers hold the key); only the failure kind.
        throw createError('NETWORK_ERROR', {
          reason: `Could not reach ${new URL(url).origin} (is the server running and does it allow this origin via CORS?).`,
          cause: err instanceof Error ? err.message : String(err),
        });
      }
      if (res.ok) return res;
      const retryAfterMs = parseRetryAfter(res.headers.get('retry-after'), now());
      await res.body?.cancel().catch(() => undefined);
      if (
        res.status === 429 &&
        attempt < maxRetries &&
        retryAfterMs !== null &&
        retryAfterMs <= maxRetryAfterMs
      ) {
        await sleep(retryAfterMs, signal);
        continue;
      }
      throw statusError(res.status, retryAfterMs);
    }
  }

  return createGenerator({
    kind: 'http',
    async *stream(req, signal) {
      const res = await open(req, signal);
      if (!res.body)
        throw createError('MALFORMED_RESPONSE', { reason: 'The endpoint sent no body.' });
      const type = res.headers.get('content-type') ?? '';
      if (!type.includes('text/event-stream')) {
        // Some servers ignore `stream: true` and answer with one JSON object.
        const json = (await res.json().catch(() => null)) as {
          choices?: Array<{ message?: { content?: string } }>;
        } | null;
        const content = json?.choices?.[0]?.message?.content;
        if (typeof content !== 'string')
          throw createError('MALFORMED_RESPONSE', { reason: 'Expected a chat completion.' });
        yield content;
        return;
      }
      try {
        for await (const data of sseData(res.body)) {
          if (data.trim() === '[DONE]') return;
          let chunk: ChatChunk;
          try {
            chunk = JSON.parse(data) as ChatChunk;
          } catch {
            throw createError('MALFORMED_RESPONSE', { reason: 'A streamed chunk was not JSON.' });
          }
          if (chunk.error) {
            throw createError('PROVIDER_ERROR', {
              reason: `The endpoint reported an error: ${String(chunk.error.message ?? 'unknown').slice(0, 200)}.`,
            });
          }
          if (!Array.isArray(chunk.choices)) {
            throw createError('MALFORMED_RESPONSE', { reason: 'A streamed chunk had no choices.' });
          }
          const choice = chunk.choices[0];
          const piece = choice?.delta?.content ?? choice?.text ?? '';
          if (piece) yield piece;
        }
      } catch (err) {
        if (signal.aborted) throw signal.reason ?? createError('ABORTED');
        if (isAppError(err)) throw err;
        throw createError('NETWORK_ERROR', {
          reason: 'The stream broke off.',
          cause: err instanceof Error ? err.message : String(err),
        });
      }
    },
  });
}
