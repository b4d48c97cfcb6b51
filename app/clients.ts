// The only place that creates Workers and Comlink remotes. Views get typed remotes from here.
// Owns: worker lifetimes. Everything else in app/ talks to workers through these objects.
import * as Comlink from 'comlink';
import type * as PdfjsModule from 'pdfjs-dist';
import { installErrorTransfer } from '../workers/shared/comlink-errors';
import type { DbRemotes, LibraryWorkerApi } from '../workers/shared/library-api';
import type { WebApi } from '../workers/shared/web-api';
import type { LlmApi } from '../workers/shared/llm-api';
import type { EmbedSpawner, EmbedWorkerApi } from '../workers/shared/embed-api';
import type { LedgerPort } from '../workers/shared/ledgered-fetch';
import type { ExternalLedgerRecord } from '../workers/shared/web-api';

installErrorTransfer();

let db: Comlink.Remote<LibraryWorkerApi> | null = null;

/** The database worker's one Comlink endpoint; the UI holds it only as the typed views below. */
function dbWorker(): Comlink.Remote<LibraryWorkerApi> {
  if (!db) {
    const worker = new Worker(new URL('../workers/db.worker.ts', import.meta.url), {
      type: 'module',
      name: 'sift-db',
    });
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
  const worker = new Worker(new URL('../workers/embed.worker.ts', import.meta.url), {
    type: 'module',
    name: `sift-embed-${id}`,
  });
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
  const oldest = embedWorkers.values().next().value;
  return (oldest ?? startEmbedWorker()[1]).remote;
}

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

let web: Comlink.Remote<WebApi> | null = null;

/** The web worker: provider clients, rate limits, breakers, ledger. Off until a provider is enabled. */
export function webClient(): Comlink.Remote<WebApi> {
  if (!web) {
    const worker = new Worker(new URL('../workers/web.worker.ts', import.meta.url), {
      type: 'module',
      name: 'sift-web',
    });
    web = Comlink.wrap<WebApi>(worker);
    void web.init();
  }
  return web;
}

let llm: Comlink.Remote<LlmApi & LedgerPort> | null = null;

/** The LLM worker (WebLLM, wllama on CPU, or an endpoint). Nothing loads until the user picks one. */
export function llmClient(): Comlink.Remote<LlmApi> {
  if (!llm) {
    llm = Comlink.wrap<LlmApi & LedgerPort>(
      new Worker(new URL('../workers/llm.worker.ts', import.meta.url), {
        type: 'module',
        name: 'sift-llm',
      }),
    );
    connectLedger(llm);
  }
  return llm;
}

/** Gives the database worker (which runs query plans) a direct channel to the LLM worker. */
export async function connectLlm(): Promise<void> {
  const port = await llmClient()[Comlink.createEndpoint]();
  await libraryClient().connectLlm(Comlink.transfer(port, [port]));
}

export { Comlink };

/** Gives the database worker (which answers questions) a direct channel to the web worker. */
export async function connectWeb(): Promise<void> {
  const port = await webClient()[Comlink.createEndpoint]();
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
