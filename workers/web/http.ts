// The single outbound path of the web layer: every provider request goes through `send()`,
// which checks offline state and the breaker, paces with the rate limiter, guards where a key may
// go, times out, retries idempotent requests with backoff and Retry-After, detects CORS blocks,
// records the ledger and redacts errors. Owns: that pipeline; fetch, clock, random and onLine are
// injected.
import { AppError, createError, type ErrorCode } from '../shared/errors';
import type { Clock, RandomSource } from './clock';
import { backoffDelay, DEFAULT_BACKOFF, parseRetryAfter, type BackoffConfig } from './backoff';
import type { CircuitBreaker } from './breaker';
import type { NetworkLedger } from './ledger';
import type { RateLimiter } from './rate-limiter';
import type { Redactor } from './redact';
import { sameOriginHop, walkRedirects, type RedirectHop } from '../shared/redirect-walk';

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

/** A request as a provider module describes it; `send()` turns it into a fetch. */
export interface RequestSpec {
  method: 'GET' | 'POST';
  /** Path relative to the provider's base URL, e.g. 'search' or 'graph/v1/paper/search'. */
  path: string;
  query?: Record<string, string>;
  /** Non-secret headers. The key is attached by `send()` only, after the host guard. */
  headers?: Record<string, string>;
  /** JSON body (POST). */
  json?: unknown;
  /** Only idempotent requests are retried (WSOP rate_limiting.best_practices). */
  idempotent: boolean;
  /** Shown in the ledger, e.g. 'search:tavily'. */
  purpose: string;
}

export interface HttpResponse {
  status: number;
  headers: { get(name: string): string | null };
  text: string;
  url: string;
}

/** Where a provider's requests go and with which key. */
export interface Destination {
  providerLabel: string;
  /** Effective base URL (user's, else the provider's default). */
  baseUrl: string;
  /** The provider's own base URL: the key may always go to its host. Null when there is none (SearXNG). */
  officialBaseUrl: string | null;
  apiKey: string | null;
  keyRequirement: 'required' | 'optional' | 'none';
  /** Headers that carry the key, built only after the guard allowed it. */
  authHeaders: (key: string) => Record<string, string>;
  /** The user ticked "send my key to this base URL" for a proxy on another host. */
  sendKeyToCustomBaseUrl: boolean;
}

export interface ProviderChannel {
  breaker: CircuitBreaker;
  limiter: RateLimiter;
}

export interface SendOptions {
  signal?: AbortSignal;
  /** Per-attempt timeout, default 10 s. */
  timeoutMs?: number;
  /** Retries after the first attempt, default 3. */
  maxRetries?: number;
  /** No retry is scheduled past this time (ms since epoch). */
  deadline?: number;
  /** Largest body accepted, default 10 MB: a page or answer beyond it is refused, not buffered. */
  maxBytes?: number;
}

export interface HttpDeps {
  fetch: FetchLike;
  clock: Clock;
  random: RandomSource;
  ledger: NetworkLedger;
  redactor: Redactor;
  /** navigator.onLine, injected. */
  isOnline: () => boolean;
  /** True in a browser: a fetch TypeError may then be a CORS block. */
  isBrowser: boolean;
  backoff?: BackoffConfig;
}

export interface Http {
  /**
   * Sends one logical request (with retries) to a provider and parses the answer.
   * @throws AppError OFFLINE, CIRCUIT_OPEN, KEY_HOST_REFUSED, PROVIDER_NOT_CONFIGURED, CORS_BLOCKED,
   *   NETWORK_ERROR, TIMEOUT, ABORTED, RATE_LIMITED, AUTH_FAILED, PROVIDER_ERROR, MALFORMED_RESPONSE.
   */
  send<T>(
    dest: Destination,
    channel: ProviderChannel,
    spec: RequestSpec,
    parse: (res: HttpResponse) => T,
    options?: SendOptions,
  ): Promise<T>;
  /**
   * A keyless GET of a public page (import). Same offline, timeout, CORS and ledger handling, no breaker.
   * @throws AppError as `send`.
   */
  fetchPublic(url: string, purpose: string, options?: SendOptions): Promise<HttpResponse>;
}

/** Joins a relative path onto a base URL and checks the result stays under that base. */
export function buildUrl(baseUrl: string, spec: Pick<RequestSpec, 'path' | 'query'>): URL {
  const base = new URL(baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
  // A path like '//evil.example' or 'https://evil.example' must not escape the base.
  const rel = spec.path.replace(/^\/+/, '');
  if (/^[a-z][a-z0-9+.-]*:/i.test(rel))
    throw createError('INTERNAL', { reason: 'Absolute path in a provider request.' });
  const url = new URL(rel, base);
  if (url.origin !== base.origin || !url.pathname.startsWith(base.pathname)) {
    throw createError('INTERNAL', { reason: 'A provider request left its base URL.' });
  }
  for (const [k, v] of Object.entries(spec.query ?? {})) url.searchParams.set(k, v);
  return url;
}

/**
 * The key guard: may the key go to `url`? Only when the request stays on the configured base URL's
 * origin, and that origin is the provider's own or one the user explicitly trusted.
 */
export function keyAllowedFor(url: URL, dest: Destination): boolean {
  let base: URL;
  try {
    base = new URL(dest.baseUrl);
  } catch {
    return false;
  }
  if (url.origin !== base.origin) return false;
  if (dest.officialBaseUrl) {
    const official = new URL(dest.officialBaseUrl);
    if (official.origin === url.origin) return true;
  }
  return dest.sendKeyToCustomBaseUrl;
}

/**
 * Reads a response body as UTF-8 text, chunk by chunk, and stops (cancelling the stream) as soon
 * as more than `maxBytes` arrived: a body without Content-Length is never buffered past the cap.
 * Returns null when the cap was passed. `onBytes` hears the running count (for the ledger).
 */
export async function readBodyCapped(
  response: Response,
  maxBytes: number,
  onBytes: (n: number) => void = () => undefined,
): Promise<string | null> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder('utf-8');
  let received = 0;
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    onBytes(received);
    if (received > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    text += decoder.decode(value, { stream: true });
  }
  return text + decoder.decode();
}

interface Attempt {
  res: HttpResponse | null;
  error: AppError | null;
  retryAfterMs: number | null;
}

/** An attempt's abort: the caller's signal or the timeout, whichever fires first. */
interface AttemptAbort {
  signal: AbortSignal;
  timedOut(): boolean;
  /** Detaches from the caller's signal and cancels the timer (unless it fired). */
  dispose(): void;
}

function attemptAbort(
  clock: Clock,
  timeoutMs: number,
  outer: AbortSignal | undefined,
): AttemptAbort {
  const ctrl = new AbortController();
  let timedOut = false;
  const onOuterAbort = (): void => ctrl.abort();
  if (outer?.aborted) ctrl.abort();
  else outer?.addEventListener('abort', onOuterAbort, { once: true });
  void clock.sleep(timeoutMs, ctrl.signal).then(
    () => {
      timedOut = true;
      ctrl.abort();
    },
    () => undefined,
  );
  return {
    signal: ctrl.signal,
    timedOut: () => timedOut,
    dispose() {
      outer?.removeEventListener('abort', onOuterAbort);
      // Cancels the timeout timer (its rejection is swallowed above).
      if (!timedOut) ctrl.abort();
    },
  };
}

/** Bytes a request puts on the wire: its body, and roughly its request line and headers. */
function requestBytes(url: URL, init: RequestInit): number {
  const bodyBytes = typeof init.body === 'string' ? new TextEncoder().encode(init.body).length : 0;
  const headerBytes = Object.entries((init.headers as Record<string, string>) ?? {}).reduce(
    (n, [k, v]) => n + k.length + v.length + 4,
    url.pathname.length + url.search.length + 16,
  );
  return bodyBytes + headerBytes;
}

export function createHttp(deps: HttpDeps): Http {
  const { clock, random, ledger, redactor } = deps;
  const backoff = deps.backoff ?? DEFAULT_BACKOFF;

  function fail(code: ErrorCode, reason: string, extra: Record<string, unknown> = {}): AppError {
    return createError(code, { reason: redactor.redact(reason), ...redactor.redactDeep(extra) });
  }

  async function probeCors(url: URL, signal: AbortSignal): Promise<boolean> {
    // An opaque answer to a no-cors request proves the host is reachable: the earlier TypeError
    // was then the browser refusing the response for lack of CORS headers, not a network fault.
    const probeUrl = `${url.origin}/`;
    const started = clock.now();
    // An opaque answer has status 0 (recorded as null): `reached` says whether one came.
    let reached = false;
    let status: number | null = null;
    try {
      const res = await deps.fetch(probeUrl, {
        method: 'HEAD',
        mode: 'no-cors',
        credentials: 'omit',
        referrerPolicy: 'no-referrer',
        signal,
      });
      reached = true;
      status = res.status || null;
      return true;
    } catch {
      return false;
    } finally {
      ledger.record({
        url: probeUrl,
        method: 'HEAD',
        purpose: 'cors-probe',
        bytesSent: 0,
        bytesReceived: 0,
        status,
        outcome: reached ? 'ok' : 'NETWORK_ERROR',
        time: started,
        durationMs: clock.now() - started,
      });
    }
  }

  /**
   * The fetch of one attempt. A request that may follow redirects follows them by hand, each hop
   * ledgered (`onHop`) and held to its first host; one that may not ('error') is sent as it is.
   */
  async function fetchWalking(
    url: URL,
    init: RequestInit,
    onHop: (hop: RedirectHop) => void,
  ): Promise<Response> {
    if (init.redirect === 'error') return deps.fetch(url.toString(), init);
    const walked = await walkRedirects((u, i) => deps.fetch(u, i), url, init, {
      checkHop: sameOriginHop,
      onHop,
    });
    return walked.response;
  }

  /** One fetch with a timeout; never throws, the outcome is a value. */
  async function attempt(
    url: URL,
    init: RequestInit,
    purpose: string,
    label: string,
    options: SendOptions,
  ): Promise<Attempt> {
    const timeoutMs = options.timeoutMs ?? 10_000;
    const abort = attemptAbort(clock, timeoutMs, options.signal);
    const started = clock.now();
    const sent = requestBytes(url, init);
    let status: number | null = null;
    let received = 0;
    // The address asked last: a redirect's target once the walk moved on (or was refused there).
    let at = url;
    const record = (outcome: string, bytesSent: number) =>
      ledger.record({
        url: at.toString(),
        method: init.method ?? 'GET',
        purpose,
        bytesSent,
        bytesReceived: received,
        status,
        outcome,
        time: started,
        durationMs: clock.now() - started,
      });
    try {
      const response = await fetchWalking(url, { ...init, signal: abort.signal }, (hop) => {
        ledger.record({
          url: hop.url.toString(),
          method: init.method ?? 'GET',
          purpose,
          bytesSent: sent,
          bytesReceived: 0,
          status: hop.status || null,
          outcome: hop.location ? `REDIRECT to ${hop.location.host}` : 'REDIRECT',
          time: started,
          durationMs: clock.now() - started,
        });
        at = hop.location ?? at;
      });
      status = response.status;
      const maxBytes = options.maxBytes ?? 10 * 1024 * 1024;
      const text = await readResponse(response, label, maxBytes, (n) => (received = n));
      const res: HttpResponse = { status, headers: response.headers, text, url: at.toString() };
      record(status >= 200 && status < 300 ? 'ok' : `HTTP_${status}`, sent);
      return {
        res,
        error: null,
        retryAfterMs: parseRetryAfter(response.headers.get('retry-after'), clock.now()),
      };
    } catch (err) {
      const error = await attemptError(err, url, label, {
        timedOut: abort.timedOut(),
        timeoutMs,
        outer: options.signal,
        status,
        probeSignal: abort.signal,
      });
      // The worker's network gate, or the redirect walk, refuses before anything is sent.
      const unsent = error.code === 'ORIGIN_NOT_ALLOWED' || error.code === 'REDIRECT_REFUSED';
      record(error.code, unsent ? 0 : sent);
      return { res: null, error, retryAfterMs: null };
    } finally {
      abort.dispose();
    }
  }

  /**
   * A response's body as text, refused when it declares or brings more than `maxBytes`.
   * @throws AppError FILE_TOO_LARGE
   */
  async function readResponse(
    response: Response,
    label: string,
    maxBytes: number,
    onBytes: (n: number) => void,
  ): Promise<string> {
    const declared = Number(response.headers.get('content-length') ?? NaN);
    if (declared > maxBytes) {
      await response.body?.cancel().catch(() => undefined);
      throw fail(
        'FILE_TOO_LARGE',
        `${label} sent ${Math.round(declared / 1048576)} MB, more than Sift accepts.`,
      );
    }
    const body = await readBodyCapped(response, maxBytes, onBytes);
    if (body === null) {
      throw fail('FILE_TOO_LARGE', `${label} sent more than ${Math.round(maxBytes / 1048576)} MB.`);
    }
    return body;
  }

  /** What an attempt's exception means, as the error the caller sees (a CORS block probed). */
  async function attemptError(
    err: unknown,
    url: URL,
    label: string,
    at: {
      timedOut: boolean;
      timeoutMs: number;
      outer: AbortSignal | undefined;
      /** The HTTP status, when a response arrived before the failure. */
      status: number | null;
      probeSignal: AbortSignal;
    },
  ): Promise<AppError> {
    if (err instanceof AppError) return err;
    if (at.timedOut)
      return fail(
        'TIMEOUT',
        `${label} did not answer within ${Math.round(at.timeoutMs / 1000)} s.`,
      );
    if (at.outer?.aborted) return createError('ABORTED');
    if (!deps.isOnline()) return fail('OFFLINE', `${label} could not be reached.`);
    if (err instanceof TypeError && deps.isBrowser && at.status === null) {
      const reachable = await probeCors(url, at.probeSignal);
      return reachable
        ? fail(
            'CORS_BLOCKED',
            `${url.host} answered, but does not allow web pages like Sift to read its answers, so the browser hid them.`,
            { host: url.host },
          )
        : fail('NETWORK_ERROR', `${url.host} could not be reached.`, { host: url.host });
    }
    const msg = err instanceof Error ? err.message : String(err);
    return fail('NETWORK_ERROR', `${label}: ${msg}.`, { host: url.host });
  }

  function statusError(label: string, res: HttpResponse): AppError {
    const detail = res.text.replace(/\s+/g, ' ').trim().slice(0, 200);
    const said = detail ? ` It said: ${detail}` : '';
    if (res.status === 401 || res.status === 403) {
      return fail('AUTH_FAILED', `${label} refused the request (HTTP ${res.status}).${said}`, {
        status: res.status,
      });
    }
    if (res.status === 429) {
      return fail('RATE_LIMITED', `${label} is limiting requests (HTTP 429).`, { status: 429 });
    }
    return fail('PROVIDER_ERROR', `${label} answered HTTP ${res.status}.${said}`, {
      status: res.status,
    });
  }

  function isRetryableStatus(status: number): boolean {
    return status === 408 || status === 429 || status >= 500;
  }

  async function run(
    url: URL,
    init: RequestInit,
    purpose: string,
    label: string,
    idempotent: boolean,
    options: SendOptions,
    limiter: RateLimiter | null,
  ): Promise<HttpResponse> {
    const maxRetries = idempotent ? (options.maxRetries ?? 3) : 0;
    for (let n = 0; ; n++) {
      if (limiter) await limiter.acquire(options.signal);
      const a = await attempt(url, init, purpose, label, options);
      let error = a.error;
      let retryable = false;
      if (a.res) {
        if (a.res.status >= 200 && a.res.status < 300) return a.res;
        error = statusError(label, a.res);
        retryable = isRetryableStatus(a.res.status);
        if (a.retryAfterMs !== null) limiter?.deferUntil(clock.now() + a.retryAfterMs);
      } else if (error) {
        retryable = error.code === 'TIMEOUT' || error.code === 'NETWORK_ERROR';
      }
      if (!error) throw createError('INTERNAL');
      if (!retryable || n >= maxRetries) throw error;
      // Retry-After wins over our own backoff; one longer than our ceiling means "not now".
      if (a.retryAfterMs !== null && a.retryAfterMs > backoff.maxMs) {
        throw fail(
          'RATE_LIMITED',
          `${label} asked to wait ${Math.ceil(a.retryAfterMs / 1000)} s.`,
          {
            retryAfterMs: a.retryAfterMs,
          },
        );
      }
      const delay = a.retryAfterMs ?? backoffDelay(n, random, backoff);
      if (options.deadline !== undefined && clock.now() + delay >= options.deadline) throw error;
      await clock.sleep(delay, options.signal);
    }
  }

  function countsAsFailure(err: AppError): boolean {
    // Our own state (offline, cancelled) and refusals before sending say nothing about the provider.
    return ![
      'OFFLINE',
      'ABORTED',
      'KEY_HOST_REFUSED',
      'PROVIDER_NOT_CONFIGURED',
      'CIRCUIT_OPEN',
    ].includes(err.code);
  }

  return {
    async send<T>(
      dest: Destination,
      channel: ProviderChannel,
      spec: RequestSpec,
      parse: (res: HttpResponse) => T,
      options: SendOptions = {},
    ): Promise<T> {
      if (!deps.isOnline()) throw fail('OFFLINE', `${dest.providerLabel} was not asked.`);
      let url: URL;
      try {
        url = buildUrl(dest.baseUrl, spec);
      } catch (err) {
        if (err instanceof AppError) throw err;
        throw fail('PROVIDER_NOT_CONFIGURED', `${dest.providerLabel} has no valid base URL.`);
      }
      const headers: Record<string, string> = { ...(spec.headers ?? {}) };
      if (spec.json !== undefined) headers['Content-Type'] = 'application/json';
      let keyAttached = false;
      if (dest.apiKey && dest.keyRequirement !== 'none') {
        if (keyAllowedFor(url, dest)) {
          Object.assign(headers, dest.authHeaders(dest.apiKey));
          keyAttached = true;
        } else if (dest.keyRequirement === 'required') {
          throw fail(
            'KEY_HOST_REFUSED',
            `The ${dest.providerLabel} key was not sent to ${url.host}.`,
            {
              host: url.host,
            },
          );
        }
        // Optional key and an untrusted host: the request goes out without the key.
      } else if (dest.keyRequirement === 'required') {
        throw fail('PROVIDER_NOT_CONFIGURED', `${dest.providerLabel} needs an API key.`);
      }
      if (!channel.breaker.tryAcquire()) {
        const snap = channel.breaker.snapshot();
        throw fail('CIRCUIT_OPEN', `${dest.providerLabel} is paused after repeated failures.`, {
          retryAt: snap.retryAt,
        });
      }
      const init: RequestInit = {
        method: spec.method,
        headers,
        credentials: 'omit',
        referrerPolicy: 'no-referrer',
        // A redirect must never carry the key to another host.
        redirect: keyAttached ? 'error' : 'follow',
        ...(spec.json !== undefined ? { body: JSON.stringify(spec.json) } : {}),
      };
      try {
        const res = await run(
          url,
          init,
          spec.purpose,
          dest.providerLabel,
          spec.idempotent,
          options,
          channel.limiter,
        );
        let parsed: T;
        try {
          parsed = parse(res);
        } catch (err) {
          if (err instanceof AppError) throw err;
          throw fail(
            'MALFORMED_RESPONSE',
            `${dest.providerLabel} sent an answer Sift could not read.`,
          );
        }
        channel.breaker.onSuccess();
        return parsed;
      } catch (err) {
        const e = err instanceof AppError ? err : fail('INTERNAL', String(err));
        if (countsAsFailure(e)) channel.breaker.onFailure({ code: e.code, message: e.message });
        else channel.breaker.release();
        throw e;
      }
    },

    async fetchPublic(rawUrl, purpose, options = {}) {
      let url: URL;
      try {
        url = new URL(rawUrl);
      } catch {
        throw fail('INVALID_ARGUMENT', 'That is not a web address.');
      }
      if (url.protocol !== 'https:' && url.protocol !== 'http:') {
        throw fail('INVALID_ARGUMENT', 'Only http and https pages can be fetched.');
      }
      if (!deps.isOnline()) throw fail('OFFLINE', `${url.host} was not asked.`);
      const init: RequestInit = {
        method: 'GET',
        headers: { Accept: 'text/html,application/xhtml+xml,text/plain;q=0.9' },
        credentials: 'omit',
        referrerPolicy: 'no-referrer',
        redirect: 'follow',
      };
      return run(url, init, purpose, url.host, true, { maxRetries: 1, ...options }, null);
    },
  };
}
