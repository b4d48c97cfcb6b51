// Thin entry of the database worker: builds the library API from the store, ingest and search
// modules and exposes it over Comlink. No logic lives here beyond composition.
import * as Comlink from 'comlink';
import { installErrorTransfer } from './shared/comlink-errors';
import type { LibraryApi } from './shared/library-api';

installErrorTransfer();

const api: Partial<LibraryApi> = {
  async init() {
    return { kind: 'memory', persistent: false, note: 'not wired yet' };
  },
  async listDocuments() {
    return [];
  },
};

Comlink.expose(api);
