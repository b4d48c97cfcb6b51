// The only place that creates Workers and Comlink remotes. Views get typed remotes from here.
// Owns: worker lifetimes. Everything else in app/ talks to workers through these objects.
import * as Comlink from 'comlink';
import { installErrorTransfer } from '../workers/shared/comlink-errors';
import type { LibraryWorkerApi } from '../workers/shared/library-api';
import type { WebApi } from '../workers/shared/web-api';

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

export { Comlink };
