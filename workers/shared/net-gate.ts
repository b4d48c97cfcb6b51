// The network gate of a worker: module workers do not inherit the page's CSP, so this is what
// limits where a worker may connect. Every request API of the worker's global scope (fetch,
// Cache add/addAll, XMLHttpRequest, WebSocket, EventSource) goes through one origin check, and a
// request to an origin that is not allowed is refused with ORIGIN_NOT_ALLOWED before anything is
// sent. Allowed: the app's own origin, the worker's built-in origins (provider APIs, the model
// hub), and origins the user chose (a configured endpoint or base URL, a page to import).
// Owns: that check and its installation. Imports only ./errors; the scope is injected.
import { createError } from './errors';

export type FetchFn = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;

export interface NetGateConfig {
  /** The fetch requests go out through once allowed (the scope's own, bound). */
  fetch: FetchFn;
  /** The app's own origin, also the base of relative URLs (self.location.href). */
  self: string;
  /** Origins this worker's built-in features contact, e.g. 'https://api.tavily.com'. */
  builtIn: readonly string[];
}

export interface NetGate {
  /** fetch through the gate. @throws AppError ORIGIN_NOT_ALLOWED (no request is made) */
  fetch: FetchFn;
  /**
   * Allows `url`'s origin from now on: an endpoint or base URL the user configured, a page the
   * user asked to import. Relative URLs are the app's own. Returns the origin.
   * @throws AppError INVALID_ARGUMENT for a URL that is not http(s)
   */
  allow(url: string): string;
  /** Throws ORIGIN_NOT_ALLOWED unless `url` may be requested; returns the absolute URL. */
  check(url: string): URL;
  /** Every allowed origin, the app's own first (for the ledger and tests). */
  origins(): string[];
}

/** The origin of an http(s) URL (relative to `base`), or null for anything else. */
function httpOrigin(url: string, base: string): string | null {
  try {
    const u = new URL(url, base);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : null;
  } catch {
    return null;
  }
}

/** The URL a fetch input names (string, URL or Request). */
export function requestUrl(input: RequestInfo | URL): string {
  if (typeof input === 'string') return input;
  if (input instanceof URL) return input.href;
  return input.url;
}

export function createNetGate(config: NetGateConfig): NetGate {
  const selfOrigin = new URL(config.self).origin;
  const allowed = new Set<string>([selfOrigin]);
  for (const o of config.builtIn) {
    const origin = httpOrigin(o, config.self);
    if (!origin) throw createError('INTERNAL', { reason: `Bad built-in origin ${o}.` });
    allowed.add(origin);
  }

  function check(url: string): URL {
    let u: URL | null;
    try {
      u = new URL(url, config.self);
    } catch {
      u = null;
    }
    // blob: and data: URLs never leave the device; every other scheme must be an allowed origin.
    if (u && (u.protocol === 'blob:' || u.protocol === 'data:')) return u;
    if (!u || !allowed.has(u.origin)) {
      const origin = u?.origin ?? url;
      throw createError('ORIGIN_NOT_ALLOWED', {
        reason: `Sift refused a request to ${origin}: it is neither a built-in service nor an address you configured.`,
        origin,
      });
    }
    return u;
  }

  return {
    fetch: async (input, init) => {
      check(requestUrl(input));
      return config.fetch(input, init);
    },
    allow(url) {
      const origin = httpOrigin(url, config.self);
      if (!origin)
        throw createError('INVALID_ARGUMENT', {
          reason: `${url} is not an http(s) address.`,
        });
      allowed.add(origin);
      return origin;
    },
    check,
    origins: () => [...allowed],
  };
}

/** A constructor the gate puts a check in front of (WebSocket, EventSource, FontFace, ...). */
type AnyCtor = new (...args: never[]) => object;

/**
 * The parts of a worker's global scope that can send requests or start code that could; all
 * optional but fetch. Real scopes carry them on the prototype chain too (fetch lives on
 * WorkerGlobalScope.prototype), and the gate replaces them wherever they are.
 */
export interface NetScope {
  fetch: FetchFn;
  Cache?: {
    prototype: {
      add(r: RequestInfo | URL): Promise<void>;
      addAll(r: (RequestInfo | URL)[]): Promise<void>;
    };
  };
  XMLHttpRequest?: {
    prototype: { open(method: string, url: string | URL, ...rest: unknown[]): void };
  };
  WebSocket?: new (url: string | URL, protocols?: string | string[]) => unknown;
  EventSource?: new (url: string | URL, init?: unknown) => unknown;
  importScripts?: (...urls: string[]) => void;
  [api: string]: unknown;
}

export interface InstallOptions {
  /**
   * Nested workers this worker may start: 'blob' for the LLM worker (wllama starts its own from a
   * blob: URL, which inherits this worker's CSP but not this gate), 'none' for every other.
   */
  nestedWorkers: 'none' | 'blob';
}

/** The URLs a FontFace source names: `url(...)` tokens of a string source (a buffer names none). */
export function fontSourceUrls(source: unknown): string[] {
  if (typeof source !== 'string') return [];
  const urls: string[] = [];
  for (const m of source.matchAll(/url\(\s*(?:"([^"]*)"|'([^']*)'|([^)]*?))\s*\)/gi))
    urls.push((m[1] ?? m[2] ?? m[3] ?? '').trim());
  // A source that names a resource in a way the pattern does not read is refused, not let through.
  if (!urls.length && /url|:|\//i.test(source)) urls.push(source);
  return urls;
}

/**
 * Replaces `name` on `scope` and on every prototype of its chain that has it as an own property,
 * so `SomeGlobalScope.prototype.fetch.call(self, url)` reaches the gated one too.
 */
function replaceOnChain(scope: object, name: string, value: unknown): void {
  for (
    let o: object | null = scope;
    o && o !== Object.prototype;
    o = Object.getPrototypeOf(o) as object | null
  ) {
    if (Object.prototype.hasOwnProperty.call(o, name) || o === scope)
      Object.defineProperty(o, name, { value, writable: true, configurable: true });
  }
}

/**
 * A constructor that runs `check` on its arguments, then builds an instance of `Original`. It
 * shares `Original.prototype` (instanceof and subclasses keep working) and takes over its
 * `constructor` slot, and it does not extend `Original`, so no prototype chain leads back to the
 * unchecked one.
 */
function gatedConstructor<C extends AnyCtor>(Original: C, check: (args: unknown[]) => void): C {
  const Gated = function (this: unknown, ...args: unknown[]): object {
    if (!new.target) throw new TypeError(`Failed to construct '${Original.name}': use new.`);
    check(args);
    const target: unknown = new.target === (Gated as unknown) ? Original : new.target;
    return Reflect.construct(Original, args, target as AnyCtor) as object;
  } as unknown as C;
  for (const key of Reflect.ownKeys(Original)) {
    if (key === 'prototype' || key === 'length' || key === 'name') continue;
    const d = Object.getOwnPropertyDescriptor(Original, key);
    if (d) Object.defineProperty(Gated, key, d);
  }
  Object.defineProperty(Gated, 'name', { value: Original.name });
  Object.defineProperty(Gated, 'prototype', { value: Original.prototype });
  Object.defineProperty(Original.prototype, 'constructor', {
    value: Gated,
    writable: true,
    configurable: true,
  });
  return Gated;
}

function refuse(what: string, target: string): never {
  throw createError('ORIGIN_NOT_ALLOWED', {
    reason: `Sift refused ${what} ${target}: Sift's workers do not start it.`,
    origin: target,
  });
}

/**
 * Puts `gate` in front of every request API of `scope`, so code that calls the global fetch (a
 * dependency such as WebLLM or wllama included) is held to the same list as Sift's own services:
 * fetch, Cache add/addAll, XMLHttpRequest, WebSocket(Stream), EventSource, WebTransport, FontFace,
 * importScripts, and nested Worker / SharedWorker (a nested worker is a new scope without this
 * gate). Each is replaced wherever it sits on the scope's prototype chain, and gated constructors
 * keep no path back to the originals. This keeps the ledger exact; the worker's CSP
 * (workers/shared/worker-policy.ts) is what holds what a script can do without these (import()).
 * Call it from the worker entry's first import, before other modules can keep a reference.
 */
export function installNetGate(
  scope: NetScope,
  gate: NetGate,
  options: InstallOptions = { nestedWorkers: 'none' },
): void {
  replaceOnChain(scope, 'fetch', gate.fetch);
  const cache = scope.Cache?.prototype;
  if (cache) {
    const { add, addAll } = cache;
    cache.add = function (this: unknown, r) {
      gate.check(requestUrl(r));
      return add.call(this, r);
    };
    cache.addAll = function (this: unknown, rs) {
      for (const r of rs) gate.check(requestUrl(r));
      return addAll.call(this, rs);
    };
  }
  const xhr = scope.XMLHttpRequest?.prototype;
  if (xhr) {
    const open = xhr.open;
    xhr.open = function (this: unknown, method, url, ...rest) {
      gate.check(String(url));
      open.call(this, method, url, ...rest);
    };
  }
  // ws(s): checked as the http(s) origin it upgrades from.
  const socketUrl = (url: unknown) => String(url).replace(/^ws(s?):/i, 'http$1:');
  const gates: Record<string, (args: unknown[]) => void> = {
    WebSocket: ([url]) => gate.check(socketUrl(url)),
    WebSocketStream: ([url]) => gate.check(socketUrl(url)),
    EventSource: ([url]) => gate.check(String(url)),
    WebTransport: ([url]) => gate.check(String(url)),
    FontFace: ([, source]) => {
      for (const url of fontSourceUrls(source)) gate.check(url);
    },
    Worker: ([url]) => checkNestedWorker(url, options),
    SharedWorker: ([url]) => checkNestedWorker(url, options),
    // Not exposed in Chromium's workers today; refused if a browser ever does.
    RTCPeerConnection: () => refuse('a peer connection', '(WebRTC)'),
  };
  for (const [name, check] of Object.entries(gates)) {
    const Original = scope[name] as AnyCtor | undefined;
    if (typeof Original === 'function')
      replaceOnChain(scope, name, gatedConstructor(Original, check));
  }
  const importScripts = scope.importScripts;
  if (typeof importScripts === 'function') {
    replaceOnChain(scope, 'importScripts', (...urls: string[]) => {
      for (const url of urls) gate.check(String(url));
      importScripts.apply(scope, urls);
    });
  }
}

/**
 * Puts `fetch` (a ledgered wrapper of the gate's) on `scope` wherever the gate put its own, so the
 * prototype's fetch is ledgered too.
 */
export function setScopeFetch(scope: object, fetch: FetchFn): void {
  replaceOnChain(scope, 'fetch', fetch);
}

/** A nested worker would run without this gate: only a blob: one, and only where allowed. */
function checkNestedWorker(url: unknown, options: InstallOptions): void {
  const href = String(url);
  if (options.nestedWorkers === 'blob' && /^blob:/i.test(href)) return;
  refuse('a nested worker from', href.slice(0, 80));
}

type UrlPicker<F> = F extends (...args: infer A) => unknown
  ? (...args: A) => ReadonlyArray<string | null | undefined>
  : never;

/**
 * `api` with the listed methods first allowing the user-chosen URLs their arguments carry (an
 * endpoint, a base URL, a page to import), so the gate admits exactly what the user set. A URL
 * the gate cannot read is left for the method to refuse with its own error.
 */
export function allowUserUrls<T extends object>(
  api: T,
  gate: Pick<NetGate, 'allow'>,
  pickers: { [K in keyof T]?: UrlPicker<T[K]> },
): T {
  const wrapped = { ...api } as Record<string, unknown>;
  for (const [name, pick] of Object.entries(pickers) as Array<
    [string, (...a: unknown[]) => ReadonlyArray<string | null | undefined>]
  >) {
    const method = (api as Record<string, (...a: unknown[]) => unknown>)[name]!;
    wrapped[name] = (...args: unknown[]) => {
      for (const url of pick(...args)) {
        if (!url) continue;
        try {
          gate.allow(url);
        } catch {
          // not an http(s) URL: the method's own validation says so
        }
      }
      return method.apply(api, args);
    };
  }
  return wrapped as T;
}
