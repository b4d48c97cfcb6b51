// Thin entry of the web worker: builds the web search service with the browser's fetch, clock,
// randomness and onLine flag, and exposes it with Comlink. The lead passes persistent storage
// through `init(Comlink.proxy(storage))`, else IndexedDB is used. The service is tested in Node.
// Every request leaves through the network gate: the providers' APIs and what the user set only.
import { netGate } from './install-net-gate';
import * as Comlink from 'comlink';
import { installErrorTransfer } from './shared/comlink-errors';
import type { WebApi } from './shared/web-api';
import { realClock } from './web/clock';
import { createWebService } from './web/web-service';
import { createIdbKeyValueStorage } from './web/idb-storage';
import { allowWebUserUrls, webBuiltInOrigins } from './web/web-origins';

installErrorTransfer();
for (const origin of webBuiltInOrigins()) netGate.allow(origin);

const service = createWebService({
  fetch: (input, init) => netGate.fetch(input, init),
  clock: realClock,
  random: Math.random,
  isOnline: () => self.navigator.onLine,
  isBrowser: true,
});

const { ledger: _ledger, redactor: _redactor, ...serviceApi } = service;
const api = allowWebUserUrls(serviceApi, netGate);
// Settings and the ledger persist in this worker's own IndexedDB unless the caller passes storage.
const init: WebApi['init'] = (storage) => api.init(storage ?? createIdbKeyValueStorage('sift-web'));
Comlink.expose({ ...api, init } satisfies WebApi);
