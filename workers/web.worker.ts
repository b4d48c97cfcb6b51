// Thin entry of the web worker: builds the web search service with the browser's fetch, clock,
// randomness and onLine flag, and exposes it with Comlink. The lead passes persistent storage
// through `init(Comlink.proxy(storage))`. Nothing here is tested in Node; the service is.
import * as Comlink from 'comlink';
import { installErrorTransfer } from './shared/comlink-errors';
import type { WebApi } from './shared/web-api';
import { realClock } from './web/clock';
import { createWebService } from './web/web-service';

installErrorTransfer();

const service = createWebService({
  fetch: (input, init) => self.fetch(input, init),
  clock: realClock,
  random: Math.random,
  isOnline: () => self.navigator.onLine,
  isBrowser: true,
});

const { ledger: _ledger, redactor: _redactor, ...api } = service;
Comlink.expose(api satisfies WebApi);
