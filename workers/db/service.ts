// The library service the database worker exposes as `LibraryWorkerApi`: the store, the importer,
// lexical + semantic + hybrid search, semantic sync over the connected embed workers, and the query
// planner following the LLM backend. Everything outside (the database, the dot kernel, WordNet,
// worker ports) is injected, so it runs in Node with an in-memory library.
import type { IngestApi } from '../shared/ingest-api';
import type { LibraryWorkerApi } from '../shared/library-api';
import type { ProjectsApi } from '../shared/projects-api';
import type { LibraryApi } from '../shared/store-api';
import type { OpenedDatabase } from '../store/open-database';
import { createStore, type Store } from '../store/store';
import type { LexicalSearch } from '../store/lexical-search';
import { createVectorStore } from '../store/vectors';
import { createIngestApi } from '../ingest/importer';
import { sha256Hex } from '../ingest/hash';
import type { HybridSearch } from '../search/hybrid';
import { createResearchService, type ResearchService } from '../query-plan/service';
import type { SynonymIndex } from '../query-plan/wordnet';
import type { LexicalTopKFn } from '../query-plan/types';
import type { DotKernel } from '../vector';
import { createProjectStore, type ProjectStore } from '../projects/project-store';
import { createLibrarySearch } from './library-search';
import { createLlmLink, type LlmLink, type LlmWorker } from './llm-link';
import { planSearchDeps, relatedSearch } from './search-paths';
import {
  createSemanticSync,
  type EmbedWorker,
  type SemanticSync,
  type SemanticSyncDeps,
} from './semantic-sync';
import { createAnswerLink, type WebWorker } from './answers';
import { createBiblioLink } from './biblio-link';
import { createProjectsLink, type ProjectChecksApi } from './projects-link';
import { createOriginalsLink } from './originals-link';
import { createOriginals, type Originals, type OriginalsDir } from '../store/originals';

export type { EmbedWorker } from './semantic-sync';
export type { LlmWorker } from './llm-link';
export type { WebWorker } from './answers';

export interface LibraryServiceDeps {
  /** Opens the library (browser: OPFS, else IndexedDB; Node: in memory). Called once, lazily. */
  openDatabase(): Promise<OpenedDatabase>;
  /** The dot product for vector search (WASM SIMD, or the JS kernel: the same integers). */
  dotKernel(): Promise<DotKernel>;
  /** The WordNet synonym index; asked on first use of WordNet expansion only. */
  synonyms(): Promise<SynonymIndex>;
  /** An embed worker behind a port (`Comlink.wrap` in the worker). */
  wrapEmbedder(port: MessagePort): EmbedWorker;
  /** The embed-worker pool (workers/embed/pool.ts `createEmbedPool`, composed by the entry). */
  createEmbedPool?: SemanticSyncDeps['createEmbedPool'];
  /** The LLM worker behind a port (`Comlink.wrap` in the worker). */
  wrapLlm(port: MessagePort): LlmWorker;
  /** The web worker behind a port (`Comlink.wrap` in the worker), for the answers' web step. */
  wrapWeb?(port: MessagePort): WebWorker;
  /** Makes a callback callable across a port (`Comlink.proxy`); default: as is. */
  proxy?<F extends (...args: never[]) => unknown>(fn: F): F;
  /** Milliseconds since epoch (answers' createdAt). Default `Date.now`. */
  wallNow?(): number;
  /** Marks an exported database's buffer for transfer (`Comlink.transfer`); default: as is. */
  transfer?(bytes: Uint8Array): Uint8Array;
  /** Milliseconds for the query plan's step timings. Default `performance.now`. */
  now?(): number;
  /**
   * The folder original PDFs are kept in for the page view (OPFS `originals/` in the browser);
   * absent or null: originals are not kept and the page view says so.
   */
  originalsDir?(): OriginalsDir | null;
}

/** The opened library's parts: the one place sub-services are composed. */
export interface LibraryParts {
  db: OpenedDatabase;
  store: Store;
  lexical: LexicalSearch;
  ingest: IngestApi;
  hybrid: HybridSearch;
  research: ResearchService;
  /** The k best chunks by BM25 with their texts (RM3's feedback documents). */
  lexicalTopK: LexicalTopKFn;
  related: ReturnType<typeof relatedSearch>;
  projects: ProjectStore;
  /** Kept original PDFs, or null where there is no folder for them. */
  originals: Originals | null;
}

async function openLibrary(
  deps: LibraryServiceDeps,
  semantic: SemanticSync,
): Promise<LibraryParts> {
  const db = await deps.openDatabase();
  const store = await createStore(db);
  const dir = deps.originalsDir?.() ?? null;
  const originals = dir ? createOriginals({ dir }) : null;
  const ingest = createIngestApi({ sink: store, ...(originals ? { originals } : {}) });
  const { lexical, lookup, hybrid } = await createLibrarySearch(store, semantic);
  // Every committed write (import, delete, library import) may leave chunks to embed.
  store.onChange(() => semantic.sync());
  // Every search path over the one hybrid search: the same scope (mode, filters) everywhere.
  const paths = { hybrid, lexical, lookup, store };
  const planned = planSearchDeps(paths);
  // The answers' RM3 feedback reads the planner's lexical top k (no filters: the whole library).
  const lexicalTopK: LexicalTopKFn = planned.lexicalTopK;
  const research = createResearchService({
    ...planned,
    embed: (texts, options) => semantic.embed(texts, options),
    synonyms: deps.synonyms,
    clock: { now: deps.now ?? (() => performance.now()) },
  });
  const related = relatedSearch(paths);
  const projects = createProjectStore(store.sql);
  return {
    db,
    store,
    lexical,
    ingest,
    hybrid,
    research,
    lexicalTopK,
    related,
    projects,
    originals,
  };
}

export function createLibraryService(deps: LibraryServiceDeps): LibraryWorkerApi {
  let opened: Promise<LibraryParts> | null = null;
  const ready = () =>
    (opened ??= openLibrary(deps, semantic).then((parts) => {
      void originals.prune(); // leftovers of a write interrupted before its prune
      return parts;
    }));
  const originals = createOriginalsLink(async () => {
    const { store, originals: kept } = await ready();
    return { sql: store.sql, originals: kept };
  });
  const transfer = deps.transfer ?? ((bytes: Uint8Array) => bytes);
  const semantic = createSemanticSync({
    vectors: async () => createVectorStore((await ready()).store.sql),
    dotKernel: deps.dotKernel,
    hash: sha256Hex,
    onModelChange: async () => (await ready()).hybrid.clearCache(),
    wrapEmbedder: deps.wrapEmbedder,
    ...(deps.createEmbedPool ? { createEmbedPool: deps.createEmbedPool } : {}),
    ...(deps.now ? { now: deps.now } : {}),
  });
  const llm = createLlmLink(deps.proxy);
  const followLlm = async () => {
    const { research } = await ready();
    await llm.follow((next) => research.setLlm(next));
    return llm.current();
  };
  const answers = createAnswerLink({
    parts: ready,
    semantic,
    llm: followLlm,
    wrapWeb:
      deps.wrapWeb ??
      (() => {
        throw new Error('This build has no web worker.');
      }),
    synonyms: deps.synonyms,
    now: deps.now ?? (() => performance.now()),
    wallNow: deps.wallNow ?? (() => Date.now()),
  });
  const projectChecks = createProjectsLink({
    parts: ready,
    semantic,
    getAnswer: (id) => answers.getAnswer(id),
    llm: followLlm,
  });

  return {
    ...storeMethods(ready, transfer, () => originals.prune()),
    getOriginal: async (id) => {
      const bytes = await originals.getOriginal(id);
      return bytes && transfer(bytes);
    },
    originalsUsage: () => originals.originalsUsage(),
    ...semanticMethods(ready, semantic),
    ...planMethods(ready, llm, deps),
    ...answers,
    ...projectMethods(ready),
    ...projectChecks,
    ...createBiblioLink(ready),
  };
}

type Ready = () => Promise<LibraryParts>;

/** The library's documents, import and search, each waiting for the opened library. */
function storeMethods(
  ready: Ready,
  transfer: (bytes: Uint8Array) => Uint8Array,
  prune: () => Promise<void>,
): LibraryApi & IngestApi & Pick<LibraryWorkerApi, 'init'> {
  // After a write that can orphan a kept original PDF (delete, replace, a library import).
  const pruned = async <T>(result: T): Promise<T> => {
    await prune();
    return result;
  };
  return {
    init: async () => (await ready()).db.info,
    storageInfo: async () => (await ready()).db.info,
    listDocuments: async () => (await ready()).store.listDocuments(),
    getDocument: async (id) => (await ready()).store.getDocument(id),
    deleteDocument: async (id) => pruned(await (await ready()).store.deleteDocument(id)),
    setDocumentGrade: async (ids, grade) => (await ready()).store.setDocumentGrade(ids, grade),
    stats: async () => (await ready()).store.stats(),
    exportLibrary: async () => transfer(await (await ready()).store.exportDatabase()),
    importLibrary: async (bytes) => pruned(await (await ready()).store.importDatabase(bytes)),
    search: async (request) => (await ready()).hybrid.search(request),
    setHtmlCleaner: (cleanHtml) =>
      void ready().then(({ ingest }) => ingest.setHtmlCleaner(cleanHtml)),
    importFiles: async (files, onProgress) =>
      pruned(await (await ready()).ingest.importFiles(files, onProgress)),
    cancelImport: () => void ready().then(({ ingest }) => ingest.cancelImport()),
    importText: async (input) => (await ready()).ingest.importText(input),
  };
}

/** Semantic sync's controls, and a write in another tab seen here. */
function semanticMethods(
  ready: Ready,
  semantic: SemanticSync,
): Pick<
  LibraryWorkerApi,
  | 'connectEmbedders'
  | 'setEmbedWorkers'
  | 'semanticStatus'
  | 'watchSemantic'
  | 'pauseEmbedding'
  | 'resumeEmbedding'
  | 'cancelEmbedding'
  | 'activateModel'
  | 'libraryChangedElsewhere'
> {
  return {
    connectEmbedders: (spawner, size) => semantic.connect(spawner, size),
    setEmbedWorkers: async (size) => semantic.setWorkers(size),
    semanticStatus: async () => semantic.status(),
    watchSemantic: async (onStatus) => semantic.watch(onStatus),
    pauseEmbedding: async () => semantic.pause(),
    resumeEmbedding: async () => semantic.resume(),
    cancelEmbedding: async () => semantic.cancel(),
    activateModel: (id) => semantic.activateModel(id),
    libraryChangedElsewhere: async () => {
      (await ready()).hybrid.clearCache();
      semantic.sync();
    },
  };
}

/** The query planner (following the LLM backend) and find related. */
function planMethods(
  ready: Ready,
  llm: LlmLink,
  deps: Pick<LibraryServiceDeps, 'wrapLlm'>,
): Pick<LibraryWorkerApi, 'connectLlm' | 'planQuery' | 'findRelated' | 'cancelPlan'> {
  return {
    connectLlm: async (port) => llm.connect(deps.wrapLlm(port)),
    planQuery: async (request, options, requestId) => {
      const { research } = await ready();
      await llm.follow((next) => research.setLlm(next));
      return research.planQuery(request, options, requestId);
    },
    findRelated: async (request) => (await ready()).related.find(request),
    cancelPlan: async (requestId) => (await ready()).research.cancel(requestId),
  };
}

/**
 * Research projects. Membership changes alter project-scoped results without a store write, so
 * they drop cached answers themselves.
 */
function projectMethods(ready: Ready): Omit<ProjectsApi, keyof ProjectChecksApi> {
  return {
    createProject: async (name, question) => (await ready()).projects.create(name, question),
    listProjects: async () => (await ready()).projects.list(),
    updateProject: async (id, patch) => (await ready()).projects.update(id, patch),
    deleteProject: async (id) => {
      const { projects, hybrid } = await ready();
      await projects.remove(id);
      hybrid.clearCache();
    },
    addToProject: async (id, documentIds) => {
      const { projects, hybrid } = await ready();
      const n = await projects.addDocuments(id, documentIds);
      hybrid.clearCache();
      return n;
    },
    removeFromProject: async (id, documentIds) => {
      const { projects, hybrid } = await ready();
      const n = await projects.removeDocuments(id, documentIds);
      hybrid.clearCache();
      return n;
    },
    projectDocuments: async (id) => (await ready()).projects.documentIds(id),
    projectsOfDocument: async (documentId) => (await ready()).projects.projectsOf(documentId),
    projectStats: async (id) => (await ready()).projects.stats(id),
    setProjectClaims: async (id, claims) => (await ready()).projects.setClaims(id, claims),
    projectClaims: async (id) => (await ready()).projects.claims(id),
  };
}
