// `npm run bench -- hybrid [--chunks 100000] [--queries 100] [--fusion rrf] [--out file]`
// End-to-end hybrid query latency through the app's createHybridSearch over the real store
// (wa-sqlite FTS5 + chunk_vectors), the app's semantic index (HNSW loaded from the store) and
// live USE-lite query embedding, on a generated library of N chunks: SciFact repeated with
// deterministic word drops per copy; each copy's chunk vector is the cached canonical vector of
// the original chunk plus seeded Gaussian noise (cosine about 0.9 to it), re-normalised and
// quantised, so 100k texts need no embedding. Same-run peers: lexical-only, exact scan, WASM
// vs JS dot kernel, search without the query embedding. Reports; never gates.
import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createNodeKernel, REPO_ROOT } from '../workers/embed/node-kernel';
import { mulberry32 } from '../workers/shared/rng.testkit';
import { QUANT_SCALE, quantize } from '../workers/shared/quant';
import { chunkText } from '../workers/ingest/chunk';
import { createHybridSearch, type HybridDeps } from '../workers/search/hybrid';
import type { FusionMethod } from '../workers/search/rrf';
import { createSemanticIndex } from '../workers/search/semantic-index';
import { createChunkLookup } from '../workers/store/chunk-lookup';
import { createLexicalSearch } from '../workers/store/lexical-search';
import { openNodeDatabase } from '../workers/store/open-database-node';
import { createStore } from '../workers/store/store';
import { createVectorStore } from '../workers/store/vectors';
import type { SearchMode, SearchResponse } from '../workers/shared/types';
import {
  createExactIndex,
  createHnswIndex,
  createWasmDotKernel,
  deserializeHnsw,
  type VectorIndex,
} from '../workers/vector/index';
import { embedAllCached, openEmbedCache } from '../lab/embed-cache';
import { loadNodeEncoder } from '../lab/embed-models';
import { loadCorpus, loadQrels, loadQueries } from '../eval/beir';
import { fusionFromOptions } from '../eval/hybrid-mode';
import { parseArgs } from '../lab/args';
import { percentile, perturb, seedOf } from './library-gen';

const HERE = dirname(fileURLToPath(import.meta.url));
const DEFAULT_DATASET = join(HERE, '..', '..', 'shared', 'datasets', 'scifact');

const r3 = (x: number) => Math.round(x * 1000) / 1000;
const mb = (b: number) => Math.round((b / 1048576) * 10) / 10;

function latency(samples: number[]) {
  const s = [...samples].sort((a, b) => a - b);
  return {
    p50Ms: r3(percentile(s, 50)),
    p95Ms: r3(percentile(s, 95)),
    meanMs: r3(s.reduce((a, b) => a + b, 0) / (s.length || 1)),
  };
}

type Sql = Awaited<ReturnType<typeof createStore>>['sql'];

type Memory = { rss: number; heapUsed: number; external: number; arrayBuffers: number };

/**
 * Process memory now, in MB (the whole process: heap, external = WASM memories + buffers). With
 * NODE_OPTIONS=--expose-gc, live memory only: two collections 200 ms apart, because V8 frees
 * large array buffers on a background thread after a collection, and an RSS read at once can
 * still count a freed 100 MB buffer (runs differed by up to 75 MB that way).
 */
async function memNow(): Promise<Memory> {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  await new Promise((r) => setTimeout(r, 200));
  gc?.();
  await new Promise((r) => setTimeout(r, 200));
  const m = process.memoryUsage();
  return {
    rss: mb(m.rss),
    heapUsed: mb(m.heapUsed),
    external: mb(m.external),
    arrayBuffers: mb(m.arrayBuffers),
  };
}

/**
 * What the library database holds: its file size (page_count x page_size; in the bench the whole
 * file sits in wa-sqlite's WASM memory, in the app it is an OPFS file read through SQLite's page
 * cache) and, per table, rows and payload bytes (sum of length() over every column: blobs and
 * text exactly, integers as their decimal digits, so an approximation; this wa-sqlite build has
 * no dbstat).
 */
async function databaseBytes(sql: Sql) {
  const page = await sql.get<{ page_size: number }>('PRAGMA page_size');
  const count = await sql.get<{ page_count: number }>('PRAGMA page_count');
  const tables = await sql.all<{ name: string }>(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%' ORDER BY name",
  );
  const perTable: Record<string, { rows: number; payloadMb: number }> = {};
  for (const { name } of tables) {
    const cols = await sql.all<{ name: string }>(`PRAGMA table_info("${name}")`);
    if (cols.length === 0) continue;
    const sum = cols.map((c) => `COALESCE(SUM(length("${c.name}")), 0)`).join(' + ');
    const row = await sql.get<{ rows: number; bytes: number }>(
      `SELECT COUNT(*) AS rows, ${sum} AS bytes FROM "${name}"`,
    );
    if (row && Number(row.bytes) >= 1048576)
      perTable[name] = { rows: Number(row.rows), payloadMb: mb(Number(row.bytes)) };
  }
  return { fileMb: mb(Number(page!.page_size) * Number(count!.page_count)), perTable };
}

/** A file's bytes in fresh 1 MB parts, read one at a time. */
function* fileParts(path: string): Generator<Uint8Array> {
  const fd = openSync(path, 'r');
  try {
    for (;;) {
      const part = new Uint8Array(1 << 20);
      const n = readSync(fd, part, 0, part.length, null);
      if (n === 0) return;
      yield n === part.length ? part : part.subarray(0, n);
    }
  } finally {
    closeSync(fd);
  }
}

/** Original vector + N(0, sigma^2/dim) noise, L2-normalised and quantised (the canonical rule). */
function noisy(v: Int16Array, copy: number, key: string, sigma = 0.5): Int16Array {
  if (copy === 0) return v;
  const rand = mulberry32(seedOf(`v${copy}:${key}`));
  const f = new Float64Array(v.length);
  let norm = 0;
  const s = sigma / Math.sqrt(v.length);
  for (let i = 0; i < v.length; i++) {
    // Box-Muller from two uniforms (determinism only needs the same PRNG and formula).
    const g = Math.sqrt(-2 * Math.log(rand() + 1e-12)) * Math.cos(2 * Math.PI * rand());
    f[i] = v[i]! / QUANT_SCALE + s * g;
    norm += f[i]! * f[i]!;
  }
  const inv = 1 / Math.sqrt(norm);
  return quantize(f.map((x) => x * inv));
}

/**
 * The library: SciFact's chunks (vectors from the embed cache) copied with word drops and noisy
 * vectors until `target` chunks, stored through the app's store. Returns the database and the
 * key of the vectors (for the HNSW cache); the corpus and cached vectors stay inside.
 */
async function buildLibrary(
  dataset: string,
  target: number,
  encoder: Awaited<ReturnType<typeof loadNodeEncoder>>,
  model: { id: string; version: string; dim: number },
  memory: Record<string, Memory>,
) {
  const corpus = await loadCorpus(dataset);
  // --- canonical vectors of the original chunks (from the embed cache) -------------------------
  const cache = openEmbedCache(encoder.id, encoder.version, encoder.dim);
  const originals = corpus.map((doc) => {
    const text = doc.text.trim() ? doc.text : doc.title;
    return { doc, text, chunks: chunkText(text) };
  });
  const texts = originals.flatMap((o) =>
    o.chunks.map((c) => encoder.passageText(o.doc.title ? `${o.doc.title}\n${c.text}` : c.text)),
  );
  const vecs = await embedAllCached(texts, cache, 1, 'use-lite');
  memory['+ corpus and its cached vectors (the generator only)'] = await memNow();
  const vecOf = new Map<string, Int16Array[]>();
  let vi = 0;
  for (const o of originals)
    vecOf.set(
      o.doc.id,
      o.chunks.map(() => vecs[vi++]!),
    );

  // --- the library: copies of the corpus until `target` chunks --------------------------------
  const db = await openNodeDatabase();
  const store = await createStore(db, { clock: () => 0 });
  const vectorStore = createVectorStore(store.sql);
  const digest = createHash('sha256').update(`${model.id}@${model.version}|${target}|v1`);
  let chunks = 0;
  let docs = 0;
  const pending: Array<{ chunkId: number; textHash: string; vector: Int16Array }> = [];
  const t = performance.now();
  for (let copy = 0; chunks < target; copy++) {
    for (const o of originals) {
      if (chunks >= target) break;
      const text = perturb(o.text, copy, o.doc.id);
      const parts = chunkText(text);
      const path = copy === 0 ? o.doc.id : `copy${copy}/${o.doc.id}`;
      const put = await store.putDocument(
        { path, title: o.doc.title, mime: 'text/plain', size: text.length, modified: copy, text },
        parts,
        `${path}:${text.length}`,
      );
      const rows = await store.sql.all<{ id: number; seq: number }>(
        'SELECT id, seq FROM chunks WHERE document_id = ? ORDER BY seq',
        [put.documentId],
      );
      const base = vecOf.get(o.doc.id)!;
      for (const r of rows) {
        const v = noisy(base[Math.min(Number(r.seq), base.length - 1)]!, copy, `${path}#${r.seq}`);
        digest.update(new Uint8Array(v.buffer, v.byteOffset, v.byteLength));
        pending.push({ chunkId: Number(r.id), textHash: `${path}#${r.seq}`, vector: v });
      }
      // Large batches: each put() also trims vector_cache with a scan of the whole cache table.
      if (pending.length >= 5000) await vectorStore.put(model, pending.splice(0));
      chunks += rows.length;
      docs++;
    }
    process.stderr.write(`\r[bench:hybrid] ${docs} documents, ${chunks} chunks`);
  }
  await vectorStore.put(model, pending.splice(0));
  const storeMs = performance.now() - t;
  memory['library stored (in-memory database)'] = await memNow();
  process.stderr.write(`\n[bench:hybrid] stored in ${(storeMs / 1000).toFixed(1)} s\n`);
  return {
    db,
    store,
    vectorStore,
    chunks,
    docs,
    key: digest.digest('hex').slice(0, 24),
    storeMs,
  };
}

type Model = { id: string; version: string; dim: number };
type Encoder = Awaited<ReturnType<typeof loadNodeEncoder>>;
type Library = Awaited<ReturnType<typeof buildLibrary>>;
type Latency = ReturnType<typeof latency> & { overlapAt10WithApp?: number };
type Variant = [string, SearchMode, HybridDeps['semantic']];

async function main(argv: string[]): Promise<void> {
  const args = parseArgs(argv);
  const dataset = args.dataset ?? DEFAULT_DATASET;
  const target = Number(args.chunks ?? 100_000);
  const nq = Number(args.queries ?? 100);
  const fusion: FusionMethod = fusionFromOptions(args);
  const [queries, qrels] = await Promise.all([loadQueries(dataset), loadQrels(dataset, 'test')]);
  const qtexts = Object.keys(qrels)
    .filter((q) => queries.has(q))
    .slice(0, nq)
    .map((q) => queries.get(q)!);

  const memory: Record<string, Memory> = {
    'start (Node, tsx, SciFact queries)': await memNow(),
  };
  // The query encoder: in the app it lives in the embed worker, not the db worker.
  const encoder = await loadNodeEncoder('use-lite');
  const model = { id: encoder.id, version: encoder.version, dim: encoder.dim };
  memory['+ USE-lite query encoder (in the app: the embed worker)'] = await memNow();
  // The generator's inputs (corpus, 20k cached vectors) live only inside buildLibrary, so they
  // are garbage before the app-state figure is taken.
  const lib = await buildLibrary(dataset, target, encoder, model, memory);
  const { store, vectorStore } = lib;

  const wasm = createWasmDotKernel(await createNodeKernel());
  const hnsw = await cachedHnsw(lib, model, wasm);
  // Saved from 1 MB reads of the cached file, as the app saves the parts its index yields: the
  // bench holds no whole copy of the index bytes.
  const indexBytes = statSync(hnsw.file).size;
  await vectorStore.saveIndex(model, fileParts(hnsw.file));
  memory['index saved in the database'] = await memNow();
  const { semantic, loadMs } = await startSemanticIndex(lib, model, encoder);

  const lexical = await createLexicalSearch(store.sql, { version: () => store.version() });
  await lexical.rankChunks('protein expression', { limit: 20 }); // loads the snapshot
  memory['app state: database + app HNSW + lexical snapshot'] = await memNow();
  const dbBytes = await databaseBytes(store.sql);

  const { hnswWasm, exact, wasmLoadMs } = await buildPeers(hnsw.file, lib, model, wasm);
  memory['peers built: + WASM HNSW + exact index'] = await memNow();

  const queryVectors = new Map<string, Int16Array>();
  const live = (text: string) => semantic.embedQuery(text);
  const pre = async (text: string) => queryVectors.get(text) ?? live(text);
  const variants = searchVariants(semantic, hnswWasm, exact, live, pre);
  for (const q of qtexts.slice(0, 5)) await live(q); // warm the encoder
  for (const q of qtexts) queryVectors.set(q, await live(q));
  const build = hybridBuilder(lib, lexical, fusion);
  const results = await timeVariants(variants, qtexts, build, encoder);
  // Where the time goes: the two retrievers alone (no fusion, no snippets).
  const parts = retrievalParts(lexical, semantic, hnswWasm, exact, queryVectors);
  await timeParts(parts, qtexts, results);
  const report = hybridReport({
    lib,
    fusion,
    queries: qtexts.length,
    results,
    appLabel: variants[0]![0],
    preLabel: variants[1]![0],
    index: {
      M: 16,
      efConstruction: 200,
      efSearch: 50,
      bytes: indexBytes,
      mb: mb(indexBytes),
      buildMs: Math.round(hnsw.buildMs),
      buildKernel: 'wasm',
      appLoadMs: Math.round(loadMs),
      wasmDeserializeMs: Math.round(wasmLoadMs),
      storeMs: Math.round(lib.storeMs),
    },
    memory,
    dbBytes,
  });
  const out = args.out ?? join(HERE, '..', 'reports', 'hybrid.local.json');
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
  console.log(JSON.stringify(report, null, 2));
  await lib.db.close();
}

/** Peers on the same vectors: HNSW with the WASM kernel, and the exact scan (WASM kernel). */
async function buildPeers(
  file: string,
  lib: Library,
  model: Model,
  wasm: ReturnType<typeof createWasmDotKernel>,
) {
  const t = performance.now();
  const hnswWasm = deserializeHnsw(readFileSync(file), { kernel: wasm });
  const wasmLoadMs = performance.now() - t;
  const exact: VectorIndex = createExactIndex({ dim: model.dim }, { kernel: wasm });
  for await (const row of lib.vectorStore.iterate(model)) exact.add(row.id, row.vector);
  return { hnswWasm, exact, wasmLoadMs };
}

/** The two retrievers alone, each timed on the precomputed query vectors. */
function retrievalParts(
  lexical: Awaited<ReturnType<typeof createLexicalSearch>>,
  semantic: Awaited<ReturnType<typeof startSemanticIndex>>['semantic'],
  hnswWasm: VectorIndex,
  exact: VectorIndex,
  queryVectors: Map<string, Int16Array>,
): Array<[string, (q: string) => Promise<unknown>]> {
  return [
    ['part: lexical rankChunks top 20', (q) => lexical.rankChunks(q, { limit: 20 })],
    [
      'part: semantic search top 20 (app HNSW, JS kernel)',
      async (q) => semantic.search(queryVectors.get(q)!, 20),
    ],
    [
      'part: semantic search top 20 (HNSW, WASM kernel)',
      async (q) => hnswWasm.search(queryVectors.get(q)!, 20),
    ],
    [
      'part: semantic search top 20 (exact scan, WASM kernel)',
      async (q) => exact.search(queryVectors.get(q)!, 20, { exact: true }),
    ],
  ];
}

/**
 * HNSW built once (WASM kernel, the paper's defaults) and cached under .cache/hybrid by the
 * library's key; the app then loads it from the store.
 */
async function cachedHnsw(
  lib: Library,
  model: Model,
  wasm: ReturnType<typeof createWasmDotKernel>,
): Promise<{ file: string; buildMs: number }> {
  const dir = join(REPO_ROOT, '.cache/hybrid');
  const file = join(dir, `bench-${lib.key}.hnsw`);
  const meta = join(dir, `bench-${lib.key}.json`);
  if (existsSync(file) && existsSync(meta)) {
    const buildMs = (JSON.parse(readFileSync(meta, 'utf8')) as { buildMs: number }).buildMs;
    process.stderr.write(
      `[bench:hybrid] HNSW from cache (built earlier in ${(buildMs / 1000).toFixed(0)} s)\n`,
    );
    return { file, buildMs };
  }
  const { chunks } = lib;
  process.stderr.write(`[bench:hybrid] building HNSW over ${chunks} vectors (cached after)...\n`);
  const idx = createHnswIndex({ dim: model.dim }, { kernel: wasm });
  const t = performance.now();
  let n = 0;
  for await (const row of lib.vectorStore.iterate(model)) {
    idx.add(row.id, row.vector);
    if (++n % 5000 === 0) process.stderr.write(`\r[bench:hybrid] inserted ${n}`);
  }
  const buildMs = performance.now() - t;
  mkdirSync(dir, { recursive: true });
  writeFileSync(file, idx.serialize());
  writeFileSync(meta, JSON.stringify({ buildMs, chunks }));
  process.stderr.write(`\n[bench:hybrid] built in ${(buildMs / 1000).toFixed(1)} s\n`);
  return { file, buildMs };
}

/**
 * The app's wiring (db.worker.ts): semantic index over the vector store, HNSW with its default
 * kernel; start() loads the persisted index (or rebuilds it) and finds no backlog.
 */
async function startSemanticIndex(lib: Library, model: Model, encoder: Encoder) {
  const semantic = createSemanticIndex({
    vectors: lib.vectorStore,
    model,
    embed: async (list) => list.map((x) => encoder.embed(x)),
    hash: async (x) => createHash('sha256').update(x).digest('hex'),
    createIndex: () => createHnswIndex({ dim: model.dim }),
  });
  const t = performance.now();
  await semantic.start();
  const loadMs = performance.now() - t;
  if (semantic.status().phase !== 'ready')
    throw new Error(`semantic index: ${JSON.stringify(semantic.status())}`);
  process.stderr.write(
    `[bench:hybrid] app semantic index ready in ${(loadMs / 1000).toFixed(2)} s\n`,
  );
  return { semantic, loadMs };
}

/** The app's hybrid search over one semantic side (no result cache). */
function hybridBuilder(
  lib: Library,
  lexical: Awaited<ReturnType<typeof createLexicalSearch>>,
  fusion: FusionMethod,
) {
  const lookup = createChunkLookup(lib.store.sql);
  const noCache = { get: () => undefined, set() {}, clear() {}, stats: () => ({}) } as never;
  return (search: HybridDeps['semantic'], label: string) => {
    process.stderr.write(`[bench:hybrid] ${label}\n`);
    return createHybridSearch(
      {
        lexical,
        semantic: search,
        allowedChunkIds: lookup.allowedChunkIds,
        chunkKeys: lookup.chunkKeys,
        buildHits: lexical.buildHits,
        version: () => lib.store.version(),
        cache: noCache,
      },
      { fusion },
    );
  };
}

/** The timed variants: the app's wiring first (the overlap reference), then its peers. */
function searchVariants(
  semantic: Awaited<ReturnType<typeof startSemanticIndex>>['semantic'],
  hnswWasm: VectorIndex,
  exact: VectorIndex,
  live: (text: string) => Promise<Int16Array>,
  pre: (text: string) => Promise<Int16Array>,
): Variant[] {
  return [
    [
      'hybrid (app wiring: HNSW, JS kernel, live query embedding)',
      'hybrid',
      { embedQuery: live, search: semantic.search },
    ],
    [
      'hybrid, query vector precomputed (retrieval + fusion + hits only)',
      'hybrid',
      { embedQuery: pre, search: semantic.search },
    ],
    [
      'hybrid, HNSW with WASM kernel, precomputed query',
      'hybrid',
      { embedQuery: pre, search: (q, k, f) => hnswWasm.search(q, k, f ? { filter: f } : {}) },
    ],
    [
      'hybrid, exact scan (WASM kernel), precomputed query',
      'hybrid',
      { embedQuery: pre, search: (q, k, f) => exact.search(q, k, f ? { filter: f } : {}) },
    ],
    ['lexical only', 'lexical', { embedQuery: pre, search: semantic.search }],
    ['query embedding only (USE-lite)', 'semantic', null],
  ];
}

/** Latency of each variant over the queries, and its top-10 overlap with the app's hits. */
async function timeVariants(
  variants: Variant[],
  qtexts: string[],
  build: ReturnType<typeof hybridBuilder>,
  encoder: Encoder,
): Promise<Record<string, Latency>> {
  const results: Record<string, Latency> = {};
  const firstHits = new Map<string, SearchResponse['hits']>();
  for (const [label, mode, side] of variants) {
    const samples: number[] = [];
    if (side === null) {
      for (const q of qtexts) {
        const s = performance.now();
        encoder.embed(q);
        samples.push(performance.now() - s);
      }
      results[label] = latency(samples);
      continue;
    }
    const hs = build(side, label);
    for (const q of qtexts.slice(0, 5)) await hs.search({ query: q, mode });
    let overlap = 0;
    for (const q of qtexts) {
      const s = performance.now();
      const res = await hs.search({ query: q, mode });
      samples.push(performance.now() - s);
      const app = firstHits.get(q);
      if (!app) firstHits.set(q, res.hits);
      else {
        const ids = new Set(app.map((h) => h.chunkId));
        overlap += res.hits.filter((h) => ids.has(h.chunkId)).length / Math.max(1, app.length);
      }
    }
    results[label] = {
      ...latency(samples),
      ...(firstHits.size && label !== variants[0]![0]
        ? { overlapAt10WithApp: r3(overlap / qtexts.length) }
        : {}),
    };
    process.stderr.write(`  ${JSON.stringify(results[label])}\n`);
  }
  return results;
}

/** Latency of each retrieval part alone (5 warm-up queries first), added to `results`. */
async function timeParts(
  parts: Array<[string, (q: string) => Promise<unknown>]>,
  qtexts: string[],
  results: Record<string, Latency>,
): Promise<void> {
  for (const [label, fn] of parts) {
    for (const q of qtexts.slice(0, 5)) await fn(q);
    const samples: number[] = [];
    for (const q of qtexts) {
      const s = performance.now();
      await fn(q);
      samples.push(performance.now() - s);
    }
    results[label] = latency(samples);
    process.stderr.write(`  ${label} ${JSON.stringify(results[label])}\n`);
  }
}

/** The JSON report (reports/hybrid*.json; bench/README.md quotes its keys). */
function hybridReport(r: {
  lib: Library;
  fusion: FusionMethod;
  queries: number;
  results: Record<string, Latency>;
  appLabel: string;
  preLabel: string;
  index: Record<string, number | string>;
  memory: Record<string, Memory>;
  dbBytes: Awaited<ReturnType<typeof databaseBytes>>;
}) {
  const { results, memory, dbBytes } = r;
  const mem = process.memoryUsage();
  const app = results[r.appLabel]!;
  const pre0 = results[r.preLabel]!;
  return {
    benchmark: 'hybrid',
    date: new Date().toISOString(),
    machine: {
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model ?? 'unknown',
      node: process.version,
      loadAverage1m: Math.round((loadavg()[0] ?? 0) * 100) / 100,
    },
    library: {
      chunks: r.lib.chunks,
      documents: r.lib.docs,
      generation:
        'SciFact corpus repeated; copy r>0 drops each word with p=0.1 (seeded); vectors = cached USE-lite vector of the original chunk + N(0, 0.25/512) noise, re-normalised, int16',
    },
    fusion: r.fusion,
    queries: r.queries,
    topK: 10,
    lexicalK: 20,
    semanticK: 20,
    latency: results,
    goalP50Under50Ms: app.p50Ms < 50,
    ratios: {
      hybridOverLexical: r3(pre0.p50Ms / results['lexical only']!.p50Ms),
      exactOverHnswWasm: r3(
        results['hybrid, exact scan (WASM kernel), precomputed query']!.p50Ms /
          results['hybrid, HNSW with WASM kernel, precomputed query']!.p50Ms,
      ),
      jsKernelOverWasmKernel: r3(
        pre0.p50Ms / results['hybrid, HNSW with WASM kernel, precomputed query']!.p50Ms,
      ),
    },
    index: r.index,
    memoryMb: {
      heapUsed: mb(mem.heapUsed),
      external: mb(mem.external),
      arrayBuffers: mb(mem.arrayBuffers),
      rss: mb(mem.rss),
      note: 'whole process: wa-sqlite in memory, three vector indexes (app HNSW, WASM HNSW, exact), the embed cache map',
    },
    // Process memory after each stage (MB); the app-state row is what the db.worker would hold
    // with its library in memory (the app keeps it in OPFS and reads it through a page cache).
    memoryStagesMb: memory,
    database: dbBytes,
    appStateMemory: appStateMemory(memory, dbBytes.fileMb),
  };
}

/** The db worker's share of the app-state memory (without the encoder, without the database file). */
function appStateMemory(memory: Record<string, Memory>, dbFileMb: number) {
  const appState = memory['app state: database + app HNSW + lexical snapshot']!;
  const startStage = memory['start (Node, tsx, SciFact queries)']!;
  const encoderStage = memory['+ USE-lite query encoder (in the app: the embed worker)']!;
  return {
    rssMb: appState.rss,
    withoutInMemoryDatabaseMb: r3(appState.rss - dbFileMb),
    goalUnder800Mb: appState.rss < 800,
    // The query encoder sits in this process for the latency figures; the app keeps it in the
    // embed worker, so the db worker's own figure is the app-state RSS minus its share.
    encoderMb: r3(encoderStage.rss - startStage.rss),
    withoutEncoderMb: r3(appState.rss - (encoderStage.rss - startStage.rss)),
    note: "rss at the app-state stage: Node + tsx, the USE-lite query encoder (the app's embed worker holds it), the in-memory database, the app HNSW and the lexical snapshot; the generator's corpus and cached vectors are out of scope and collected by then. withoutInMemoryDatabase subtracts the database file, which the app keeps in OPFS",
  };
}

export default { name: 'hybrid', run: main };
