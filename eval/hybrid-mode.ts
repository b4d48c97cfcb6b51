// The `hybrid` eval mode: the app's lexical search (wa-sqlite FTS5 BM25, as the `lexical` mode
// indexes it) and the canonical int16 vectors (as the `semantic` mode embeds and caches them)
// in the app's HNSW (or exact) index, chunk lists fused with the app's `fuseHybrid`, documents
// scored by their best fused chunk. Must not import app workers (*.worker.ts) or the UI.
// Options: --fusion rrf|weighted-rrf|minmax|adaptive (default rrf)  --rrfK 60
//          --wSemantic W --wLexical W (weighted-rrf, minmax; adaptive: the prior)
//          --combine rrf|minmax (adaptive)  --agreementGain --agreementDepth --agreementPower --confidenceGain
//          --confidenceMid --confidenceScale --minWeight (adaptive, see workers/search/rrf.ts)
//          --lexicalK 20 --semanticK 20 (CFS-012 chunk depths)  --index hnsw|exact  --ef 50
//          --model use-lite|all-MiniLM-L6-v2  --threads N (embedding threads for cache misses)
//          --docDecay D --docDepth N (document-level evidence; --docDecay 0 = best chunk only)
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createNodeKernel, REPO_ROOT } from '../workers/embed/node-kernel';
import { createChunkLookup, type ChunkLookup } from '../workers/store/chunk-lookup';
import { createLexicalSearch, type LexicalSearch } from '../workers/store/lexical-search';
import { openNodeDatabase } from '../workers/store/open-database-node';
import { createStore, type Store } from '../workers/store/store';
import {
  fuseHybrid,
  type AdaptiveParams,
  type FusionMethod,
  type RankedCandidate,
} from '../workers/search/rrf';
import {
  createHybridSearch,
  type HybridDeps,
  type HybridOptions,
  type HybridSearch,
} from '../workers/search/hybrid';
import {
  createExactIndex,
  createHnswIndex,
  createWasmDotKernel,
  deserializeHnsw,
  type AllowedFilter,
  type DotKernel,
  type VectorHit,
  type VectorIndex,
} from '../workers/vector/index';
import { embedAllCached, openEmbedCache } from '../lab/embed-cache';
import { loadNodeEncoder } from '../lab/embed-models';
import type { BeirDoc } from './beir';
import type { RankedDoc, Retriever, RetrieverFactory } from './retriever';
import { storeBeirDoc } from './store-beir-doc';
import { fusionForModel, hybridLexicalDepth } from '../workers/search/model-fusion';
import { compareRanked } from '../workers/shared/ranking';
import {
  BEST_CHUNK_ONLY,
  DEFAULT_HYBRID_DOCUMENT_EVIDENCE,
  evidenceFrom,
  groupByDocument,
  type DocumentEvidence,
} from '../workers/search/document-evidence';

/** Both chunk lists of one query, best first; `path` is the BEIR document id. */
export interface HybridLists {
  semantic: RankedCandidate[];
  lexical: RankedCandidate[];
  /** The query vector the semantic side searched with (the answer evaluator reuses it). */
  queryVector?: Int16Array;
}

type HybridSemantic = NonNullable<HybridDeps['semantic']>;

export interface HybridCore {
  index(
    docs: BeirDoc[],
    onProgress?: (done: number, total: number) => void,
  ): Promise<{ documents: number; chunks: number }>;
  /** Lexical top `lexicalK` and semantic top `semanticK` chunks for a query. */
  lists(
    query: string,
    opts: { lexicalK: number; semanticK: number; exact?: boolean },
  ): Promise<HybridLists>;
  /** A chunk's stored vector (by the store's chunk id), null when absent. */
  vector(chunkId: number): Int16Array | null;
  /** The stored vectors of these chunks (absent ones left out), as the answer deps read them. */
  chunkVectors: (ids: number[]) => Promise<Map<number, Int16Array>>;
  /** Both vector indexes' sizes and the HNSW build/load time, for reports. */
  info(): { hnswMs: number; hnswLoaded: boolean; hnswBytes: number };
  /**
   * The app-side parts behind the lists (after `index`), for modes that run the app's own search
   * modules on them (e.g. `related`): the store, its lexical search, and the semantic side
   * (query embedding + the HNSW index) shaped as workers/search/hybrid.ts takes it.
   */
  parts(): {
    store: Store;
    lexical: LexicalSearch;
    semantic: {
      embedQuery(text: string): Promise<Int16Array>;
      search(q: Int16Array, k: number, filter?: AllowedFilter): VectorHit[];
    };
    modelId: string;
    /** A query's vector computed now (no cache): for latency benchmarks. */
    embedFresh(text: string): Int16Array;
    /** Several queries' vectors computed now in one batched forward pass (same bytes). */
    embedFreshBatch(texts: string[]): Int16Array[];
  };
  /**
   * The app's `createHybridSearch` (workers/search/hybrid.ts) over `parts()` and the store's chunk
   * look-ups, as the library service wires it: modes that rank through the app's own search
   * (semantic, related, the plan bench) call this instead of wiring it again. `exact` puts the
   * exact index behind the semantic side (default: HNSW); `semantic` replaces parts of that side.
   */
  appSearch(
    options?: HybridOptions & {
      exact?: boolean;
      semantic?: Partial<NonNullable<HybridDeps['semantic']>>;
    },
  ): { hybrid: HybridSearch; lookup: ChunkLookup };
  close(): Promise<void>;
}

/**
 * Indexes a BEIR corpus once for both sides: chunks stored through the app's store (same chunker
 * and hash rule as the `lexical` mode), vectors from the embedding cache keyed exactly as the
 * `semantic` mode keys them (title + newline + chunk text), inserted under the store's chunk ids.
 * The HNSW graph is cached under .cache/hybrid/ keyed by the vectors and build parameters.
 */
export async function createHybridCore(options: Record<string, string>): Promise<HybridCore> {
  const modelSpec = options.model ?? 'use-lite';
  const threads = Math.max(1, Number(options.threads ?? 1));
  const ef = Number(options.ef ?? 50);
  const db = await openNodeDatabase();
  const store = await createStore(db, { clock: () => 0 });
  const lexical: LexicalSearch = await createLexicalSearch(db.sql, { version: store.version });
  const encoder = await loadNodeEncoder(modelSpec);
  const cache = openEmbedCache(encoder.id, encoder.version, encoder.dim);
  const kernel: DotKernel = createWasmDotKernel(await createNodeKernel());
  let hnsw: VectorIndex | null = null;
  let exact: VectorIndex | null = null;
  const keys = new Map<number, { path: string; seq: number }>();
  let hnswMs = 0;
  let hnswLoaded = false;
  let hnswSource: { file: string; ids: number[]; vectors: Int16Array[] } | null = null;
  /** The HNSW graph over the indexed vectors: loaded from .cache/hybrid/ or built and cached. */
  const ensureHnsw = (): VectorIndex => {
    if (hnsw) return hnsw;
    if (!hnswSource) throw new Error('index() first');
    const { file, ids, vectors } = hnswSource;
    const t0 = performance.now();
    if (existsSync(file)) {
      hnsw = deserializeHnsw(new Uint8Array(readFileSync(file)), { kernel });
      hnswLoaded = true;
    } else {
      process.stderr.write(`\n[hybrid] building HNSW over ${ids.length} vectors (cached after)\n`);
      const built = createHnswIndex({ dim: encoder.dim }, { kernel });
      vectors.forEach((v, i) => built.add(ids[i]!, v));
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, built.serialize());
      hnsw = built;
    }
    hnswMs = performance.now() - t0;
    process.stderr.write(
      `[hybrid] HNSW ${hnswLoaded ? 'loaded' : 'built'} in ${(hnswMs / 1000).toFixed(1)} s\n`,
    );
    return hnsw;
  };
  /** A query's canonical vector (the model's query form), from the cache or embedded once. */
  const embedQueryCached = (query: string): Int16Array => {
    const input = encoder.queryText(query);
    let q = cache.get(input);
    if (!q) {
      q = encoder.embed(input);
      cache.put(input, q);
    }
    return q;
  };

  const parts: HybridCore['parts'] = () => ({
    store,
    lexical,
    semantic: {
      embedQuery: async (text) => embedQueryCached(text),
      search: (q, k, filter) =>
        ensureHnsw().search(q, k, { ef: Math.max(ef, k), ...(filter ? { filter } : {}) }),
    },
    embedFresh: (text) => encoder.embed(encoder.queryText(text)),
    embedFreshBatch: (texts) => encoder.embedBatch(texts.map((t) => encoder.queryText(t))),
    modelId: modelSpec.split(/[\\/]/).filter(Boolean).pop() ?? modelSpec,
  });

  return {
    async index(docs, onProgress) {
      const texts: string[] = [];
      const textKeys: string[] = [];
      let done = 0;
      for (const doc of docs) {
        const parts = await storeBeirDoc(store, doc);
        for (const c of parts) {
          texts.push(encoder.passageText(doc.title ? `${doc.title}\n${c.text}` : c.text));
          textKeys.push(`${doc.id}\u0000${c.seq}`);
        }
        if (onProgress && (++done % 500 === 0 || done === docs.length))
          onProgress(done, docs.length);
      }
      const rows = await db.sql.all<{ id: number; path: string; seq: number }>(
        'SELECT c.id AS id, d.path AS path, c.seq AS seq FROM chunks c JOIN documents d ON d.id = c.document_id',
      );
      const idOf = new Map<string, number>();
      for (const r of rows) {
        const id = Number(r.id);
        keys.set(id, { path: String(r.path), seq: Number(r.seq) });
        idOf.set(`${String(r.path)}\u0000${Number(r.seq)}`, id);
      }
      const vectors = await embedAllCached(texts, cache, threads, modelSpec);
      const ids = textKeys.map((k) => {
        const id = idOf.get(k);
        if (id === undefined) throw new Error(`chunk ${k} missing from the store`);
        return id;
      });
      exact = createExactIndex({ dim: encoder.dim }, { kernel });
      const digest = createHash('sha256').update(`${encoder.id}@${encoder.version}|M16|efc200`);
      vectors.forEach((v, i) => {
        exact!.add(ids[i]!, v);
        digest.update(`${ids[i]}:`).update(new Uint8Array(v.buffer, v.byteOffset, v.byteLength));
      });
      const file = join(REPO_ROOT, '.cache/hybrid', `${digest.digest('hex').slice(0, 24)}.hnsw`);
      hnswSource = { file, ids, vectors };
      // With --index exact nothing reads the graph: it is built (or loaded) on first use only.
      if ((options.index ?? 'hnsw') !== 'exact') ensureHnsw();
      return { documents: docs.length, chunks: ids.length };
    },
    async lists(query, opts) {
      const lex = await lexical.rankChunks(query, { limit: opts.lexicalK });
      const q = embedQueryCached(query);
      const idx = opts.exact ? exact : ensureHnsw();
      if (!idx) throw new Error('index() first');
      const hits = idx.search(
        q,
        opts.semanticK,
        opts.exact ? {} : { ef: Math.max(ef, opts.semanticK) },
      );
      // The app's semantic list order (hybrid.ts): cosine desc, then path asc, then seq asc.
      const sem = hits
        .map((h) => ({ chunkId: h.id, score: h.cosine, ...keys.get(h.id)! }))
        .sort(compareRanked);
      return {
        semantic: sem,
        lexical: lex.map((c) => ({ chunkId: c.chunkId, path: c.path, seq: c.seq, score: c.score })),
        queryVector: q,
      };
    },
    vector: (chunkId) => exact?.get(chunkId) ?? null,
    async chunkVectors(ids) {
      const out = new Map<number, Int16Array>();
      for (const id of ids) {
        const v = exact?.get(id);
        if (v) out.set(id, v);
      }
      return out;
    },
    info: () => ({ hnswMs, hnswLoaded, hnswBytes: hnsw?.stats().bytes ?? 0 }),
    parts,
    appSearch(opts = {}) {
      const { exact: useExact, semantic: override, ...hybridOptions } = opts;
      const { semantic, modelId } = parts();
      const lookup = createChunkLookup(store.sql);
      const search: HybridSemantic['search'] = useExact
        ? (q, k, filter) => {
            if (!exact) throw new Error('index() first');
            return exact.search(q, k, filter ? { filter } : {});
          }
        : semantic.search;
      const hybrid = createHybridSearch(
        {
          lexical,
          semantic: { ...semantic, search, modelId, ...override },
          allowedChunkIds: lookup.allowedChunkIds,
          chunkKeys: lookup.chunkKeys,
          buildHits: lexical.buildHits,
          version: () => store.version(),
        },
        hybridOptions,
      );
      return { hybrid, lookup };
    },
    async close() {
      await db.close();
    },
  };
}

const ADAPTIVE_KEYS = [
  'agreementGain',
  'agreementDepth',
  'agreementLexicalDepth',
  'agreementPower',
  'confidenceGain',
  'confidenceMid',
  'confidenceScale',
  'minWeight',
] as const;

/** The embedding model's id as the app names it (the last part of a --model path). */
const modelName = (options: Record<string, string>): string =>
  (options.model ?? 'use-lite').split(/[\\/]/).filter(Boolean).pop() ?? 'use-lite';

/** The fusion the flags ask for (`--fusion` and its weights/params). */
export function fusionFromOptions(options: Record<string, string>): FusionMethod {
  // Without --fusion: the app's choice for the model (workers/search/model-fusion.ts), so eval
  // measures what users get.
  if (options.fusion === undefined) {
    return fusionForModel(modelName(options));
  }
  const kind = options.fusion;
  const k = options.rrfK !== undefined ? Number(options.rrfK) : undefined;
  const weights =
    options.wSemantic !== undefined || options.wLexical !== undefined
      ? { semantic: Number(options.wSemantic ?? 1), lexical: Number(options.wLexical ?? 1) }
      : undefined;
  switch (kind) {
    case 'rrf':
      return { kind, k };
    case 'weighted-rrf':
      return { kind, k, weights: weights ?? { semantic: 1, lexical: 1 } };
    case 'minmax':
      return { kind, weights };
    case 'adaptive': {
      const params: Partial<AdaptiveParams> = {};
      for (const key of ADAPTIVE_KEYS)
        if (options[key] !== undefined) params[key] = Number(options[key]);
      if (weights) params.prior = weights;
      const combine = options.combine === 'minmax' ? 'minmax' : 'rrf';
      return { kind, combine, k, params };
    }
    default:
      throw new Error('--fusion must be rrf, weighted-rrf, minmax or adaptive');
  }
}

/**
 * Fused chunks to documents by document-level evidence (document-evidence.ts; ties: doc id asc).
 * Without `evidence`, a document scores its best fused chunk.
 */
export function fuseToDocs(
  lists: HybridLists,
  method: FusionMethod,
  k: number,
  evidence: DocumentEvidence = BEST_CHUNK_ONLY,
): RankedDoc[] {
  const fused = fuseHybrid(lists.semantic, lists.lexical, method).items;
  return groupByDocument(fused, evidence)
    .slice(0, k)
    .map((g) => ({ docId: g.path, score: g.score }));
}

/** The hybrid modes' flags: the fusion, and the depth and index of each list. */
export function hybridSettings(options: Record<string, string>) {
  return {
    method: fusionFromOptions(options),
    lexicalK: Number(
      options.lexicalK ??
        (options.fusion === undefined ? hybridLexicalDepth(modelName(options), 20) : 20),
    ),
    semanticK: Number(options.semanticK ?? 20),
    exact: (options.index ?? 'hnsw') === 'exact',
    evidence: evidenceFrom(options, DEFAULT_HYBRID_DOCUMENT_EVIDENCE),
  };
}

export const createHybridRetriever: RetrieverFactory = async (options) => {
  const core = await createHybridCore(options);
  const { method, lexicalK, semanticK, exact, evidence } = hybridSettings(options);
  process.stderr.write(
    `[hybrid] fusion ${JSON.stringify(method)} lexicalK ${lexicalK} semanticK ${semanticK} index ${exact ? 'exact' : 'hnsw'}\n`,
  );
  const retriever: Retriever = {
    index: (docs, onProgress) => core.index(docs, onProgress),
    async search(query, k) {
      return fuseToDocs(
        await core.lists(query, { lexicalK, semanticK, exact }),
        method,
        k,
        evidence,
      );
    },
    close: () => core.close(),
  };
  return retriever;
};
