// Thin entry of the database worker: opens the library (OPFS, else IndexedDB), builds the store,
// lexical search and importer, and exposes them over Comlink as `LibraryWorkerApi`.
// No logic lives here beyond composition.
import * as Comlink from 'comlink';
import syncWasmUrl from '@journeyapps/wa-sqlite/dist/wa-sqlite.wasm?url';
import asyncWasmUrl from '@journeyapps/wa-sqlite/dist/wa-sqlite-async.wasm?url';
import { installErrorTransfer } from './shared/comlink-errors';
import type { LibraryWorkerApi } from './shared/library-api';
import { openBrowserDatabase } from './store/open-database';
import { createStore } from './store/store';
import { createLexicalSearch } from './store/lexical-search';
import { createIngestApi } from './ingest/importer';

installErrorTransfer();

async function open() {
  const db = await openBrowserDatabase({ syncWasmUrl, asyncWasmUrl });
  const store = await createStore(db);
  const lexical = await createLexicalSearch(store.sql);
  const ingest = createIngestApi({ sink: store });
  return { db, store, lexical, ingest };
}

let opened: ReturnType<typeof open> | null = null;
const ready = () => (opened ??= open());

const api: LibraryWorkerApi = {
  init: async () => (await ready()).db.info,
  storageInfo: async () => (await ready()).db.info,
  listDocuments: async () => (await ready()).store.listDocuments(),
  getDocument: async (id) => (await ready()).store.getDocument(id),
  deleteDocument: async (id) => (await ready()).store.deleteDocument(id),
  stats: async () => (await ready()).store.stats(),
  exportLibrary: async () => {
    const bytes = await (await ready()).store.exportDatabase();
    return Comlink.transfer(bytes, [bytes.buffer as ArrayBuffer]);
  },
  importLibrary: async (bytes) => (await ready()).store.importDatabase(bytes),
  search: async (request) => (await ready()).lexical.search(request),
  setHtmlCleaner: (cleanHtml) =>
    void ready().then(({ ingest }) => ingest.setHtmlCleaner(cleanHtml)),
  importFiles: async (files, onProgress) => (await ready()).ingest.importFiles(files, onProgress),
  cancelImport: () => void ready().then(({ ingest }) => ingest.cancelImport()),
  importText: async (input) => (await ready()).ingest.importText(input),
};

Comlink.expose(api);
