// Thin entry of the database worker: builds the library service (workers/db/service.ts) from
// browser sources (the library in OPFS, else IndexedDB; our WASM dot kernel; WordNet fetched from
// the app; embed and LLM workers behind Comlink ports) and exposes it as `LibraryWorkerApi`.
// No logic lives here beyond composition. The network gate admits the app's own origin only.
import { netGate } from './install-net-gate';
import * as Comlink from 'comlink';
import syncWasmUrl from '@journeyapps/wa-sqlite/dist/wa-sqlite.wasm?url';
import asyncWasmUrl from '@journeyapps/wa-sqlite/dist/wa-sqlite-async.wasm?url';
import kernelWasmUrl from '../wasm/build/sift-kernels.wasm?url';
import { installErrorTransfer } from './shared/comlink-errors';
import type { EmbedWorkerApi } from './shared/embed-api';
import type { LlmApi } from './shared/llm-api';
import type { WebApi } from './shared/web-api';
import { openBrowserDatabase } from './store/open-database';
import { createOpfsOriginalsDir } from './store/originals';
import { createKernel } from './embed/kernel';
import { createEmbedPool } from './embed/pool';
import { createWasmDotKernel, jsDotKernel } from './vector';
import { synonymIndexFromJson } from './query-plan/wordnet';
import { createLibraryService } from './db/service';

installErrorTransfer();

const WORDNET_URL = `${import.meta.env.BASE_URL}models/wordnet-synonyms.json`;

const library = createLibraryService({
  openDatabase: () => openBrowserDatabase({ syncWasmUrl, asyncWasmUrl }),
  // The SIMD dot product from our own runtime (its own instance: the embedder releases its
  // scratch); the JS kernel gives the same integers, only slower, if the WASM cannot load.
  dotKernel: () =>
    createKernel({ url: kernelWasmUrl }).then(
      (k) => createWasmDotKernel(k),
      () => jsDotKernel,
    ),
  // The synonym index (about 4.5 MB of JSON) is fetched on first use only.
  synonyms: async () =>
    synonymIndexFromJson(
      (await (await netGate.fetch(WORDNET_URL)).json()) as Parameters<
        typeof synonymIndexFromJson
      >[0],
    ),
  wrapEmbedder: (port) => Comlink.wrap<EmbedWorkerApi>(port),
  createEmbedPool,
  wrapLlm: (port) => Comlink.wrap<LlmApi>(port),
  wrapWeb: (port) => Comlink.wrap<WebApi>(port),
  proxy: (fn) => Comlink.proxy(fn),
  transfer: (bytes) => Comlink.transfer(bytes, [bytes.buffer as ArrayBuffer]),
  // Original PDFs for the page view, as files in OPFS `originals/` (none without OPFS).
  originalsDir: () =>
    typeof navigator.storage?.getDirectory === 'function'
      ? createOpfsOriginalsDir(() => navigator.storage.getDirectory())
      : null,
});

Comlink.expose(library);
