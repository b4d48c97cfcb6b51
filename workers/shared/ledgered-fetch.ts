// The network ledger at the fetch layer for workers whose requests do not go through the web
// worker's guarded client (the LLM worker: OpenAI-compatible endpoint, WebLLM and wllama model
// downloads; the embed workers: model downloads). It wraps the network gate's fetch, so only
// requests that are sent are recorded (a refused one, ORIGIN_NOT_ALLOWED, never left). Every
// request to another origin becomes one ledger record (URL, method, status or error, bytes,
// time); the app's own files do not leave the device and are not recorded. Cache.add/addAll
// (WebLLM stores model shards with them) are recorded too. Records wait in a bounded queue until
// the sink (a Comlink proxy to the web worker's ledger) connects. Never reads headers or keys.
import { requestUrl } from './net-gate';
import type { ExternalLedgerRecord } from './web-api';

export type LedgerSink = (record: ExternalLedgerRecord) => void;

/** What a worker that ledgers its own fetches adds to its API. */
export interface LedgerPort {
  setLedger(sink: LedgerSink): Promise<void>;
}

export interface LedgeredFetchDeps {
  /** The app's own origin (its files are not recorded); null records everything. */
  origin: string | null;
  /** Ledger purpose for a request, e.g. 'llm endpoint' or 'model download'. */
  purpose(url: URL, method: string): string;
  now?: () => number;
  /** Records kept while no sink is connected (oldest dropped past this). */
  maxQueued?: number;
}

export interface LedgeredFetch {
  fetch: typeof fetch;
  setSink(sink: LedgerSink): void;
  /** Records a request the browser makes on its own (Cache.add); returns `work`'s result. */
  observe<T>(input: RequestInfo | URL, method: string, work: () => Promise<T>): Promise<T>;
}

export function createLedgeredFetch(inner: typeof fetch, deps: LedgeredFetchDeps): LedgeredFetch {
  const now = deps.now ?? (() => Date.now());
  const maxQueued = deps.maxQueued ?? 500;
  let sink: LedgerSink | null = null;
  let queue: ExternalLedgerRecord[] = [];
  const emit = (r: ExternalLedgerRecord) => {
    if (sink) sink(r);
    else queue = [...queue, r].slice(-maxQueued);
  };

  /** Runs `send`; records it unless it targets the app's origin or was refused unsent. */
  async function track<T>(
    input: RequestInfo | URL,
    method: string,
    bytesSent: number,
    send: () => Promise<T>,
    statusOf: (result: T) => number | null,
  ): Promise<T> {
    const url = urlOf(input, deps.origin);
    if (!url || (deps.origin !== null && url.origin === deps.origin)) return send();
    const time = now();
    const base = { url: url.href, method, purpose: deps.purpose(url, method), bytesSent, time };
    try {
      const result = await send();
      const status = statusOf(result);
      const record = (bytesReceived: number) =>
        emit({
          ...base,
          status,
          outcome: status === null || (status >= 200 && status < 300) ? 'ok' : `HTTP ${status}`,
          durationMs: now() - time,
          ...(bytesReceived > 0 ? { bytesReceived } : {}),
        });
      const length = result instanceof Response ? Number(result.headers.get('content-length')) : 0;
      if (result instanceof Response && result.body && !(Number.isFinite(length) && length > 0)) {
        // A streamed reply (an LLM's server-sent events) has no Content-Length: count its bytes
        // as they are read and record the request when the body ends, fails or is cancelled.
        return countedResponse(result, record) as T;
      }
      record(Number.isFinite(length) ? length : 0);
      return result;
    } catch (err) {
      const e = err as { name?: string; code?: string };
      if (e.code === 'ORIGIN_NOT_ALLOWED') throw err; // refused by the gate: nothing was sent
      emit({
        ...base,
        status: null,
        outcome: e.name === 'AbortError' ? 'ABORTED' : (e.code ?? 'NETWORK_ERROR'),
        durationMs: now() - time,
      });
      throw err;
    }
  }

  const wrapped = (input: RequestInfo | URL, init?: RequestInit): Promise<Response> =>
    track(
      input,
      (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase(),
      bodyBytes(init?.body),
      () => inner(input, init),
      (res) => res.status,
    );

  return {
    fetch: wrapped,
    setSink(next) {
      sink = next;
      const pending = queue;
      queue = [];
      for (const r of pending) next(r);
    },
    observe: (input, method, work) => track(input, method.toUpperCase(), 0, work, () => null),
  };
}

/** The Cache API of a worker scope, as far as it can send requests. */
export interface CacheScope {
  Cache?: { prototype: Pick<Cache, 'add' | 'addAll'> };
}

/**
 * Records Cache.add / addAll (the browser fetches the URLs itself, past any fetch wrapper): one
 * row per URL. Install after the network gate, so a refused URL is never recorded.
 */
export function ledgerCacheAdds(scope: CacheScope, ledger: Pick<LedgeredFetch, 'observe'>): void {
  const proto = scope.Cache?.prototype;
  if (!proto) return;
  const add = proto.add;
  const addAll = proto.addAll;
  proto.add = function (this: Cache, request: RequestInfo | URL) {
    return ledger.observe(request, 'GET', () => add.call(this, request));
  };
  // addAll stays all-or-nothing: one browser call, one row per URL with the call's outcome.
  proto.addAll = function (this: Cache, requests: Iterable<RequestInfo>) {
    const list = [...requests];
    const sent = addAll.call(this, list);
    return Promise.all(list.map((r) => ledger.observe(r, 'GET', () => sent))).then(() => undefined);
  };
}

/** `res` with a body that counts its bytes and calls `done(bytes)` once it ends in any way. */
function countedResponse(res: Response, done: (bytes: number) => void): Response {
  const reader = res.body!.getReader();
  let bytes = 0;
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    done(bytes);
  };
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done: end, value } = await reader.read();
        if (end) {
          finish();
          controller.close();
          return;
        }
        bytes += value.byteLength;
        controller.enqueue(value);
      } catch (err) {
        finish();
        controller.error(err);
      }
    },
    cancel(reason) {
      finish();
      return reader.cancel(reason);
    },
  });
  const counted = new Response(body, {
    status: res.status,
    statusText: res.statusText,
    headers: res.headers,
  });
  // Keep what callers may read off the original (the final URL after redirects).
  Object.defineProperty(counted, 'url', { value: res.url });
  return counted;
}

function urlOf(input: RequestInfo | URL, origin: string | null): URL | null {
  try {
    return new URL(requestUrl(input), origin ?? undefined);
  } catch {
    return null;
  }
}

function bodyBytes(body: BodyInit | null | undefined): number {
  if (body === null || body === undefined) return 0;
  if (typeof body === 'string') return new TextEncoder().encode(body).length;
  if (body instanceof ArrayBuffer) return body.byteLength;
  if (ArrayBuffer.isView(body)) return body.byteLength;
  if (typeof Blob !== 'undefined' && body instanceof Blob) return body.size;
  return 0;
}
