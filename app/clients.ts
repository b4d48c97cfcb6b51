// The only place that creates Workers and Comlink remotes. Views get typed remotes from here.
// Owns: worker lifetimes. Everything else in app/ talks to workers through these objects.
import * as Comlink from 'comlink';
import { installErrorTransfer } from '../workers/shared/comlink-errors';
import type { LibraryWorkerApi } from '../workers/shared/library-api';
import type { WebApi } from '../workers/shared/web-api';
import type { LlmApi } from '../workers/shared/llm-api';
import { embedWorkerCount, type EmbedWorkerApi } from '../workers/shared/embed-api';
import type { LedgerPort } from '../workers/shared/ledgered-fetch';
import type { ExternalLedgerRecord } from '../workers/shared/web-api';

installErrorTransfer();

let library: Comlink.Remote<LibraryWorkerApi> | null = null;

/** The database worker: store, import and search. Created on first use. */
export function libraryClient(): Comlink.Remote<LibraryWorkerApi> {
  if (!library) {
    const worker = new Worker(new URL('../workers/db.worker.ts', import.meta.url), {
      type: 'module',
      name: 'sift-db',
    });
    library = Comlink.wrap<LibraryWorkerApi>(worker);
  }
  return library;
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

let embedders: Array<Comlink.Remote<EmbedWorkerApi & LedgerPort>> | null = null;

/**
 * The embed workers (canonical WASM runtime + USE-lite), hardwareConcurrency - 1 of them, at
 * most 4. The database worker gets its own port to each, so vectors go worker to worker.
 */
export function embedClients(): Array<Comlink.Remote<EmbedWorkerApi>> {
  if (!embedders) {
    const count = embedWorkerCount(navigator.hardwareConcurrency || 2);
    embedders = Array.from({ length: count }, (_, i) =>
      Comlink.wrap<EmbedWorkerApi & LedgerPort>(
        new Worker(new URL('../workers/embed.worker.ts', import.meta.url), {
          type: 'module',
          name: `sift-embed-${i}`,
        }),
      ),
    );
    embedders.forEach(connectLedger);
  }
  return embedders;
}

/** Hands the database worker a direct channel to every embed worker. */
export async function connectEmbedders(): Promise<void> {
  const ports = await Promise.all(embedClients().map((e) => e[Comlink.createEndpoint]()));
  await libraryClient().connectEmbedders(Comlink.transfer(ports, ports));
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
  await libraryClient().connectWeb(Comlink.transfer(port, [port]));
}
