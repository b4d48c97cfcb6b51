// The only place that creates Workers and Comlink remotes. Views get typed remotes from here.
// Owns: worker lifetimes, and the CSP each worker starts under (its script URL names its kind and
// the addresses the user set; workers/shared/worker-policy.ts): a call that carries an address
// the worker's policy does not name restarts that worker with it first.
// Everything else in app/ talks to workers through these objects.
import { webProvidersFlag } from './lib/browser-flags';
import * as Comlink from 'comlink';
import type * as PdfjsModule from 'pdfjs-dist';
import dbWorkerUrl from '../workers/db.worker.ts?worker&url';
import embedWorkerUrl from '../workers/embed.worker.ts?worker&url';
import webWorkerUrl from '../workers/web.worker.ts?worker&url';
import llmWorkerUrl from '../workers/llm.worker.ts?worker&url';
import {
  POLICY_PATHS_COOKIE,
  policyScriptUrl,
  type WorkerKind,
} from '../workers/shared/worker-policy';
import { createOriginBook } from './lib/origin-book';
import { installErrorTransfer } from '../workers/shared/comlink-errors';
import type { DbRemotes, LibraryWorkerApi } from '../workers/shared/library-api';
import type { WebApi } from '../workers/shared/web-api';
import type { LlmApi } from '../workers/shared/llm-api';
import type { EmbedSpawner, EmbedWorkerApi } from '../workers/shared/embed-api';
import type { LedgerPort } from '../workers/shared/ledgered-fetch';
import type { ExternalLedgerRecord } from '../workers/shared/web-api';

installErrorTransfer();

const origins = createOriginBook(
  (() => {
    try {
      return localStorage;
    } catch {
      return null;
    }
  })(),
);

/**
 * Whether a policy path reaches the worker's script: the service worker serves them once it
 * controls the page, and a server that serves them says so with a cookie (a static host cannot,
 * so a first visit there starts workers from their plain URLs, behind their gates alone).
 */
function policyPathsServed(): boolean {
  if (navigator.serviceWorker?.controller) return true;
  return document.cookie.split(/;\s*/).includes(`${POLICY_PATHS_COOKIE}=1`);
}

/** A worker of `kind` whose script is served with the CSP of its built-ins and the user's origins. */
function startWorker(kind: WorkerKind, url: string, name: string): Worker {
  const script = policyPathsServed()
    ? policyScriptUrl(url, kind, origins.get(kind), self.location.href, import.meta.env.BASE_URL)
    : url;
  return new Worker(script, {
    type: 'module',
    name,
  });
}

type UrlsOf = (...args: never[]) => ReadonlyArray<string | null | undefined>;

/**
 * A stable remote over the live worker `current()` returns: every call first waits for `settled`
 * (a restart under way, the new worker's init), the listed methods also hand the addresses their
 * arguments carry to `ensure` (which restarts the worker when one is new), then the call goes to
 * the live worker.
 */
function following<T>(
  current: () => Comlink.Remote<T>,
  pickers: Record<string, UrlsOf>,
  ensure: (urls: ReadonlyArray<string | null | undefined>) => Promise<void>,
  settled: () => Promise<unknown> = () => Promise.resolve(),
): Comlink.Remote<T> {
  const live = () => current() as unknown as Record<string | symbol, unknown>;
  return new Proxy({} as Comlink.Remote<T>, {
    get(_target, prop) {
      // Not a thenable; Comlink's own symbols (createEndpoint) go to the live worker as they are.
      if (prop === 'then') return undefined;
      if (typeof prop !== 'string') return live()[prop];
      const pick = pickers[prop] as
        ((...a: unknown[]) => ReadonlyArray<string | null | undefined>) | undefined;
      return async (...args: unknown[]) => {
        if (pick) await ensure(pick(...args));
        await settled();
        return (live()[prop] as (...a: unknown[]) => unknown)(...args);
      };
    },
  });
}

let db: Comlink.Remote<LibraryWorkerApi> | null = null;

/** The database worker's one Comlink endpoint; the UI holds it only as the typed views below. */
function dbWorker(): Comlink.Remote<LibraryWorkerApi> {
  if (!db) {
    const worker = startWorker('db', dbWorkerUrl, 'sift-db');
    db = Comlink.wrap<LibraryWorkerApi>(worker);
  }
  return db;
}

/** The library: documents, import, search and its planning. The database worker starts on first use. */
export function libraryClient(): Comlink.Remote<DbRemotes['library']> {
  return dbWorker();
}

/** Semantic search: the embedding model, the embed-worker pool and the backlog. */
export function semanticClient(): Comlink.Remote<DbRemotes['semantic']> {
  return dbWorker();
}

/** Answers and their history. */
export function answersClient(): Comlink.Remote<DbRemotes['answers']> {
  return dbWorker();
}

/** Projects, claims, audits, exports and the bibliography. */
export function projectsClient(): Comlink.Remote<DbRemotes['projects']> {
  return dbWorker();
}

/**
 * Workers whose requests skip the web worker's client record them at their fetch layer; the
 * records land in the one network ledger (in the web worker, started on the first record).
 */
function connectLedger(worker: Comlink.Remote<LedgerPort>): void {
  const sink = (record: ExternalLedgerRecord) =>
    void webClient()
      .recordExternal(record)
      .catch(() => undefined);
  void worker.setLedger(Comlink.proxy(sink)).catch(() => undefined);
}

interface EmbedWorkerEntry {
  worker: Worker;
  remote: Comlink.Remote<EmbedWorkerApi>;
  /** Handed to the database worker's pool. */
  pooled: boolean;
}

// Live embed workers by id, oldest first (Map keeps insertion order).
const embedWorkers = new Map<number, EmbedWorkerEntry>();
let nextEmbedId = 0;

function startEmbedWorker(): [number, EmbedWorkerEntry] {
  const id = nextEmbedId++;
  const worker = startWorker('embed', embedWorkerUrl, `sift-embed-${id}`);
  const remote = Comlink.wrap<EmbedWorkerApi & LedgerPort>(worker);
  connectLedger(remote); // its model downloads are written to the network ledger
  const entry = { worker, remote, pooled: false };
  embedWorkers.set(id, entry);
  return [id, entry];
}

/**
 * The embed worker the Models card talks to (list, download, import, self-test): the oldest live
 * one, so it is one of the pool's workers rather than another copy of the model.
 */
export function modelsClient(): Comlink.Remote<EmbedWorkerApi> {
  return modelsRemote;
}

// The embed worker the Models card uses; one started for a new hub address takes over, kept out
// of the pool (marked pooled, never handed out) so a download never waits behind embedding work.
let modelsWorkerId: number | null = null;
function modelsWorker(): EmbedWorkerEntry {
  const chosen = modelsWorkerId === null ? undefined : embedWorkers.get(modelsWorkerId);
  return chosen ?? embedWorkers.values().next().value ?? startEmbedWorker()[1];
}
const modelsRemote = following<EmbedWorkerApi>(
  () => modelsWorker().remote,
  { downloadModel: (_profile: string, _progress: unknown, baseUrl?: string) => [baseUrl] },
  async (urls) => {
    // Pooled workers keep running (they read models from OPFS); a fresh one may reach the hub.
    if (!origins.add('embed', urls)) return;
    const [id, entry] = startEmbedWorker();
    entry.pooled = true;
    if (modelsWorkerId !== null) embedWorkers.get(modelsWorkerId)?.worker.terminate();
    if (modelsWorkerId !== null) embedWorkers.delete(modelsWorkerId);
    modelsWorkerId = id;
  },
);

/**
 * Starts and stops embed workers for the database worker's pool, which talks to each over its own
 * port (vectors go worker to worker, not through the UI thread).
 */
const embedSpawner: EmbedSpawner = {
  async spawn() {
    // A worker the Models card started before the pool existed joins the pool.
    const idle = [...embedWorkers].find(([, e]) => !e.pooled);
    const [id, entry] = idle ?? startEmbedWorker();
    entry.pooled = true;
    const port = await entry.remote[Comlink.createEndpoint]();
    return Comlink.transfer({ id, port }, [port]);
  },
  async terminate(id) {
    embedWorkers.get(id)?.worker.terminate();
    embedWorkers.delete(id);
  },
};

/** Hands the database worker the embed-worker spawner and the pool size to start with. */
export async function connectEmbedders(size: number): Promise<void> {
  await semanticClient().connectEmbedders(Comlink.proxy(embedSpawner), size);
}

/** One restartable worker: its live remote, and whether the database worker holds a port to it. */
interface Live<T> {
  worker: Worker;
  remote: Comlink.Remote<T>;
  /** Settles when the worker is ready for calls (the web worker's init: its stored settings). */
  ready: Promise<unknown>;
}

let web: Live<WebApi> | null = null;
let webLinked = false;
let webRestart: Promise<void> = Promise.resolve();

function liveWeb(): Live<WebApi> {
  if (!web) {
    const worker = startWorker('web', webWorkerUrl, 'sift-web');
    const remote = Comlink.wrap<WebApi>(worker);
    const ready = remote.init().catch(() => undefined);
    web = { worker, remote, ready };
    // Base URLs stored before this policy existed are added (once) like newly set ones.
    void ready
      .then(() => remote.listProviders())
      .then((list) => {
        webProvidersFlag.record(list);
        return ensureWeb(list.map((p) => p.effectiveBaseUrl));
      })
      .catch(() => undefined);
  }
  return web;
}

/** Restarts the web worker (settings and ledger persist) when `urls` name a new origin. */
function ensureWeb(urls: ReadonlyArray<string | null | undefined>): Promise<void> {
  webRestart = webRestart.then(async () => {
    if (!origins.add('web', urls) || !web) return;
    web.worker.terminate();
    web = null;
    liveWeb();
    // The database worker's answers reach the new worker before the call goes on.
    if (webLinked) await linkWeb();
  });
  return webRestart;
}

const webRemote = following<WebApi>(
  () => liveWeb().remote,
  {
    updateProvider: (_id: string, patch: { baseUrl?: string | null }) => [patch.baseUrl],
    fetchPage: (url: string) => [url],
  },
  ensureWeb,
  async () => {
    await webRestart;
    await liveWeb().ready;
  },
);

/** The web worker: provider clients, rate limits, breakers, ledger. Off until a provider is enabled. */
export function webClient(): Comlink.Remote<WebApi> {
  liveWeb();
  return webRemote;
}

let llm: Live<LlmApi & LedgerPort> | null = null;
let llmLinked = false;
let llmRestart: Promise<void> = Promise.resolve();

function liveLlm(): Live<LlmApi & LedgerPort> {
  if (!llm) {
    const worker = startWorker('llm', llmWorkerUrl, 'sift-llm');
    llm = { worker, remote: Comlink.wrap<LlmApi & LedgerPort>(worker), ready: Promise.resolve() };
    connectLedger(llm.remote);
  }
  return llm;
}

/** Restarts the LLM worker when the backend about to load names a new origin. */
function ensureLlm(urls: ReadonlyArray<string | null | undefined>): Promise<void> {
  llmRestart = llmRestart.then(async () => {
    if (!origins.add('llm', urls) || !llm) return;
    llm.worker.terminate();
    llm = null;
    liveLlm();
    if (llmLinked) await linkLlm();
  });
  return llmRestart;
}

const llmRemote = following<LlmApi>(
  () => liveLlm().remote,
  {
    useHttp: (config: { baseUrl: string }) => [config.baseUrl],
    // The connection test reaches the endpoint before it is saved.
    listModels: (endpoint: { baseUrl: string }) => [endpoint.baseUrl],
    useWllama: (source: { url?: string }) => [source.url],
  },
  ensureLlm,
  () => llmRestart,
);

/** The LLM worker (WebLLM, wllama on CPU, or an endpoint). Nothing loads until the user picks one. */
export function llmClient(): Comlink.Remote<LlmApi> {
  return llmRemote;
}

async function linkLlm(): Promise<void> {
  const port = await liveLlm().remote[Comlink.createEndpoint]();
  await libraryClient().connectLlm(Comlink.transfer(port, [port]));
}

/** Gives the database worker (which runs query plans) a direct channel to the LLM worker. */
export async function connectLlm(): Promise<void> {
  llmLinked = true;
  await linkLlm();
}

export { Comlink };

/** Gives the database worker (which answers questions) a direct channel to the web worker. */
export async function connectWeb(): Promise<void> {
  webLinked = true;
  await linkWeb();
}

async function linkWeb(): Promise<void> {
  const port = await liveWeb().remote[Comlink.createEndpoint]();
  await answersClient().connectWeb(Comlink.transfer(port, [port]));
}

type Pdfjs = typeof PdfjsModule;
let pagePdfjs: Promise<Pdfjs> | null = null;

/**
 * pdf.js for the page view, its parser in a worker of its own behind the network gate
 * (workers/pdf-page.worker.ts: same-origin module, no CDN, no blob: URL). Loaded on first use.
 */
export function pdfjsForPages(): Promise<Pdfjs> {
  pagePdfjs ??= import('pdfjs-dist').then((pdfjs) => {
    pdfjs.GlobalWorkerOptions.workerPort = new Worker(
      new URL('../workers/pdf-page.worker.ts', import.meta.url),
      { type: 'module', name: 'sift-pdf' },
    );
    return pdfjs;
  });
  return pagePdfjs;
}
