// Thin entry of the database worker: opens the library (OPFS, else IndexedDB), builds the store,
// importer, semantic index (embedding through connected embed workers) and hybrid search, and
// exposes them over Comlink as `LibraryWorkerApi`. No logic lives here beyond composition.
import * as Comlink from 'comlink';
import syncWasmUrl from '@journeyapps/wa-sqlite/dist/wa-sqlite.wasm?url';
import asyncWasmUrl from '@journeyapps/wa-sqlite/dist/wa-sqlite-async.wasm?url';
import { installErrorTransfer } from './shared/comlink-errors';
import { embedWithPool, type EmbedModelInfo, type EmbedWorkerApi } from './shared/embed-api';
import type { LibraryWorkerApi } from './shared/library-api';
import type { SemanticStatus } from './shared/semantic-api';
import { openBrowserDatabase } from './store/open-database';
import { createStore } from './store/store';
import { createLexicalSearch } from './store/lexical-search';
import { createChunkLookup } from './store/chunk-lookup';
import { createVectorStore } from './store/vectors';
import { createIngestApi } from './ingest/importer';
import { sha256Hex } from './ingest/hash';
import { createHybridSearch } from './search/hybrid';
import { createSemanticIndex, type SemanticIndex } from './search/semantic-index';
import kernelWasmUrl from '../wasm/build/sift-kernels.wasm?url';
import { createKernel } from './embed/kernel';
import { createHnswIndex, createWasmDotKernel, jsDotKernel, type DotKernel } from './vector';
import type { LlmApi, LlmBackendKind } from './shared/llm-api';
import { createResearchService } from './research/service';
import { llmDepFromApi } from './research/llm-adapter';
import { synonymIndexFromJson } from './research/wordnet';

installErrorTransfer();

const watchers = new Set<(s: SemanticStatus) => void>();
let semantic: SemanticIndex | null = null;
let embedders: Array<Comlink.Remote<EmbedWorkerApi>> = [];
let llm: Comlink.Remote<LlmApi> | null = null;
let llmKind: LlmBackendKind | null = null;
const WORDNET_URL = `${import.meta.env.BASE_URL}models/wordnet-synonyms.json`;

async function open() {
  const db = await openBrowserDatabase({ syncWasmUrl, asyncWasmUrl });
  const store = await createStore(db);
  const lexical = await createLexicalSearch(store.sql, { version: () => store.version() });
  const lookup = createChunkLookup(store.sql);
  const ingest = createIngestApi({ sink: store });
  const semanticSide = {
    embedQuery: (text: string) =>
      semantic?.embedQuery(text) ?? Promise.reject(new Error('no model')),
    search: (q: Int16Array, k: number, filter?: Parameters<SemanticIndex['search']>[2]) =>
      semantic?.search(q, k, filter) ?? null,
    // The fusion follows the model (workers/search/model-fusion.ts).
    get modelId() {
      return semantic?.status().model?.id;
    },
  };
  const hybrid = createHybridSearch(
    {
      lexical,
      get semantic() {
        return semantic ? semanticSide : null;
      },
      allowedChunkIds: lookup.allowedChunkIds,
      chunkKeys: lookup.chunkKeys,
      buildHits: lexical.buildHits,
      // Library writes and index changes (embedding progress) both invalidate cached answers.
      version: () => store.version() * 1_000_003 + (semantic?.generation() ?? 0),
    }, // fusion: chosen per model (see workers/search/model-fusion.ts)
  );
  // Every committed write (import, delete, library import) may leave chunks to embed.
  store.onChange(() => void semantic?.sync());
  const research = createResearchService({
    search: async ({ text, vector, lexicalQuery, limit }) => {
      const response = await hybrid.retrieve(
        { query: text, limit },
        { ...(vector ? { vector } : {}), ...(lexicalQuery ? { lexicalQuery } : {}) },
      );
      return response.hits.map((h) => ({ ...h, id: String(h.chunkId) }));
    },
    embed: (texts, options) =>
      embedders.length > 0
        ? embedWithPool(embedders, texts, options?.signal ? { signal: options.signal } : {})
        : Promise.reject(new Error('The embedding model is not loaded yet.')),
    lexicalTopK: async (query, k) => {
      const ranked = await lexical.rankChunks(query, { limit: k });
      const texts = await lookup.chunkTexts(ranked.map((r) => r.chunkId));
      return ranked.map((r) => ({
        id: String(r.chunkId),
        text: texts.get(r.chunkId) ?? '',
        score: r.score,
      }));
    },
    // The synonym index (about 4.5 MB of JSON) is fetched on first use only.
    synonyms: async () =>
      synonymIndexFromJson(
        (await (await fetch(WORDNET_URL)).json()) as Parameters<typeof synonymIndexFromJson>[0],
      ),
    clock: { now: () => performance.now() },
  });
  return { db, store, lexical, ingest, hybrid, research };
}

let opened: ReturnType<typeof open> | null = null;
const ready = () => (opened ??= open());

let dotKernel: Promise<DotKernel> | null = null;

/**
 * The SIMD dot product from our own runtime (its own instance: the embedder releases its
 * scratch); the JS kernel gives the same integers, only slower, if the WASM cannot load.
 */
function kernel(): Promise<DotKernel> {
  return (dotKernel ??= createKernel({ url: kernelWasmUrl }).then(
    (k) => createWasmDotKernel(k),
    () => jsDotKernel,
  ));
}

/** Starts a semantic index for one model; vectors of other models are never read by it. */
async function startSemantic(info: EmbedModelInfo): Promise<void> {
  const { store } = await ready();
  const k = await kernel();
  semantic?.pause();
  const remotes = embedders;
  semantic = createSemanticIndex({
    vectors: createVectorStore(store.sql),
    model: { id: info.id, version: info.version, dim: info.dim },
    embed: (texts, signal) => embedWithPool(remotes, texts, { signal, role: 'passage' }),
    embedQuery: async (text, signal) => {
      const [vector] = await embedWithPool(remotes, [text], { signal, role: 'query' });
      if (!vector) throw new Error('The embedder returned no vector.');
      return vector;
    },
    hash: sha256Hex,
    createIndex: () => createHnswIndex({ dim: info.dim }, { kernel: k }),
    kernel: k,
    onStatus: (status) => watchers.forEach((w) => void w(status)),
  });
  void semantic.start();
}

/**
 * Switches the library to another embedding model: every embed worker loads it, and a new
 * semantic index (its own vectors, never mixed with the old model's) re-embeds the library in
 * the background. Search answers lexically for chunks not yet embedded.
 */
async function activateModel(id: string): Promise<void> {
  semantic?.pause();
  const [info] = await Promise.all(embedders.map((e) => e.activateModel(id)));
  (await ready()).hybrid.clearCache();
  if (info) await startSemantic(info);
}

async function connectEmbedders(ports: MessagePort[]): Promise<void> {
  embedders = ports.map((p) => Comlink.wrap<EmbedWorkerApi>(p));
  if (embedders.length === 0) return;
  // Every worker loads the same (remembered) model; the first one's info names the vectors.
  const [info] = await Promise.all(embedders.map((e) => e.init()));
  if (info) await startSemantic(info);
}

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
  search: async (request) => (await ready()).hybrid.search(request),
  setHtmlCleaner: (cleanHtml) =>
    void ready().then(({ ingest }) => ingest.setHtmlCleaner(cleanHtml)),
  importFiles: async (files, onProgress) => (await ready()).ingest.importFiles(files, onProgress),
  cancelImport: () => void ready().then(({ ingest }) => ingest.cancelImport()),
  importText: async (input) => (await ready()).ingest.importText(input),
  connectEmbedders,
  semanticStatus: async () =>
    semantic?.status() ?? {
      phase: 'starting',
      model: null,
      embedded: 0,
      total: 0,
      done: 0,
      todo: 0,
      message: null,
    },
  watchSemantic: async (onStatus) => {
    watchers.add(onStatus);
    if (semantic) void onStatus(semantic.status());
  },
  pauseEmbedding: async () => semantic?.pause(),
  resumeEmbedding: async () => void semantic?.start(),
  activateModel,
  libraryChangedElsewhere: async () => {
    (await ready()).hybrid.clearCache();
    void semantic?.sync();
  },
  connectLlm: async (port) => {
    llm = Comlink.wrap<LlmApi>(port);
  },
  planQuery: async (query, options, requestId) => {
    const { research } = await ready();
    // Follow the backend the user picked in Settings; 'none' means the LLM-free fallbacks.
    const kind = llm ? (await llm.status()).active.kind : 'none';
    if (kind !== llmKind) {
      llmKind = kind;
      research.setLlm(llm && kind !== 'none' ? llmDepFromApi(llm, kind) : null);
    }
    return research.planQuery(query, options, requestId);
  },
  cancelPlan: async (requestId) => (await ready()).research.cancel(requestId),
};

Comlink.expose(api);
