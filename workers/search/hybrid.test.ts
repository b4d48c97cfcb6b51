// Semantic and hybrid search over real parts: wa-sqlite store, the canonical USE-lite embedder
// (WASM runtime), HNSW. Checks the backlog is embedded and resumable, vectors are reused by
// text hash, deleted chunks leave the index, filters apply before retrieval, RRF ranks show
// which list found a hit, results are deterministic, and the cache follows library writes.
import { beforeAll, describe, expect, it } from 'vitest';
import { createEmbedder } from '../embed/embedder';
import { createNodeKernel, readUseLiteFile } from '../embed/node-kernel';
import { chunkText } from '../ingest/chunk';
import { sha256Hex } from '../ingest/hash';
import { createChunkLookup } from '../store/chunk-lookup';
import { createLexicalSearch } from '../store/lexical-search';
import { openNodeDatabase } from '../store/open-database-node';
import { createStore, type Store } from '../store/store';
import { createVectorStore, type EmbeddingModelKey } from '../store/vectors';
import { createHnswIndex } from '../vector';
import { createHybridSearch, withWindowNotice, type HybridSearch } from './hybrid';
import type { FusionMethod } from './rrf';
import { createSemanticIndex, type SemanticIndex } from './semantic-index';
import type { DocumentInput } from '../shared/types';
import { MORE_PASSAGES } from '../shared/document-results';
import { BEST_CHUNK_ONLY, groupByDocument } from './document-evidence';
import { HARBOUR_REPORTS, PELICAN_SURVEY } from './pelican-page.testkit';

const embedder = createEmbedder({
  loadKernel: createNodeKernel,
  fetchModelFile: readUseLiteFile,
  loadGolden: async () => ({ modelId: '', modelVersion: '', texts: [], sha256: [] }) as never,
});

const DOCS: Array<[string, string, string]> = [
  [
    'birds/pelicans.txt',
    'Pelican colony',
    'The coastal pelican colony nests on the cliffs every spring and feeds on fish in the bay.',
  ],
  [
    'cooking/jam.md',
    'Gooseberry jam',
    'Simmer the gooseberries with sugar until the jam sets, then pour it into warm jars.',
  ],
  [
    'space/mars.txt',
    'Mars rover',
    'The rover drilled into the red planet rock and sent the mineral readings back to Earth.',
  ],
  [
    'finance/rates.txt',
    'Interest rates',
    'The central bank raised interest rates to slow inflation in the housing market.',
  ],
];

async function put(store: Store, path: string, title: string, text: string, modified = 1_000) {
  const input: DocumentInput = {
    path,
    title,
    mime: 'text/plain',
    size: text.length,
    modified,
    text,
  };
  return store.putDocument(input, chunkText(text), await sha256Hex(text));
}

interface Setup {
  store: Store;
  semantic: SemanticIndex;
  hybrid: HybridSearch;
  embedCalls: string[][];
  /** Another hybrid search over the same library, the semantic side tagged with `modelId`. */
  hybridFor(modelId: string | undefined, fusion?: FusionMethod, maxTokens?: number): HybridSearch;
}

async function setup(model: EmbeddingModelKey, vectorReads: number[][] = []): Promise<Setup> {
  const db = await openNodeDatabase();
  const store = await createStore(db);
  const lexical = await createLexicalSearch(store.sql);
  const lookup = createChunkLookup(store.sql);
  const embedCalls: string[][] = [];
  const table = createVectorStore(store.sql);
  const semantic = createSemanticIndex({
    // Every read of the vector table by chunk id is recorded in `vectorReads`.
    vectors: {
      ...table,
      get: (m, ids) => {
        vectorReads.push([...ids]);
        return table.get(m, ids);
      },
    },
    model,
    embed: async (texts, signal) => {
      embedCalls.push(texts);
      return embedder.embedTexts(texts, { signal });
    },
    hash: sha256Hex,
    createIndex: () => createHnswIndex({ dim: model.dim }),
    batchSize: 2,
  });
  const shared = {
    lexical,
    allowedChunkIds: lookup.allowedChunkIds,
    chunkKeys: lookup.chunkKeys,
    buildHits: lexical.buildHits,
    version: () => store.version() * 1_000_003 + semantic.generation(),
  };
  const hybrid = createHybridSearch({ ...shared, semantic });
  const hybridFor = (modelId: string | undefined, fusion?: FusionMethod, maxTokens?: number) =>
    createHybridSearch(
      {
        ...shared,
        semantic: {
          embedQuery: (t) => semantic.embedQuery(t),
          search: (q, k, f) => semantic.search(q, k, f),
          ...(modelId ? { modelId } : {}),
          ...(maxTokens ? { maxTokens } : {}),
        },
      },
      fusion ? { fusion } : {},
    );
  return { store, semantic, hybrid, embedCalls, hybridFor };
}

let model: EmbeddingModelKey;

beforeAll(async () => {
  const info = await embedder.init();
  model = { id: info.id, version: info.version, dim: info.dim };
});

describe('semantic index and hybrid search', () => {
  it('embeds the backlog, finds paraphrases semantically, and fuses both lists', async () => {
    const { store, semantic, hybrid } = await setup(model);
    for (const [path, title, text] of DOCS) await put(store, path, title, text);
    await semantic.start();
    expect(semantic.status()).toMatchObject({ phase: 'ready', embedded: 4, total: 4 });

    // No word in common with the pelican text: only the semantic list can find it.
    const sem = await hybrid.search({ query: 'seabirds breeding on sea cliffs', mode: 'semantic' });
    expect(sem.hits[0]?.path).toBe('birds/pelicans.txt');
    expect(sem.hits[0]?.ranks).toEqual({ semantic: 1 });
    expect(sem.hits[0]?.score).toBeGreaterThan(0);
    expect(sem.hits[0]?.score).toBeLessThanOrEqual(1);

    const hyb = await hybrid.search({ query: 'pelican nests', mode: 'hybrid' });
    expect(hyb.mode).toBe('hybrid');
    expect(hyb.hits[0]?.path).toBe('birds/pelicans.txt');
    expect(hyb.hits[0]?.ranks).toEqual({ lexical: 1, semantic: 1 });
    expect(hyb.hits[0]?.snippet.highlights.length).toBeGreaterThan(0);
    // Deterministic: recomputed (not cached), the same request gives the same list and scores.
    hybrid.clearCache();
    const again = await hybrid.search({ query: 'pelican nests', mode: 'hybrid' });
    expect(again.tookMs).toBeGreaterThan(0);
    expect(again.hits.map((h) => [h.chunkId, h.score, h.ranks])).toEqual(
      hyb.hits.map((h) => [h.chunkId, h.score, h.ranks]),
    );
    // A library write invalidates the cache: the new document is found at once.
    await put(store, 'birds/gulls.txt', 'Gulls', 'Gulls and pelican chicks share the nests.');
    await semantic.sync();
    const fresh = await hybrid.search({ query: 'pelican nests', mode: 'hybrid' });
    expect(fresh.hits.map((h) => h.path)).toContain('birds/gulls.txt');
  });

  it('fuses by the model: lexical first for USE-lite, adaptive for unknown models, plain RRF for BERT-family', async () => {
    const { store, semantic, hybridFor } = await setup(model);
    for (const [path, title, text] of DOCS) await put(store, path, title, text);
    await semantic.start();
    const list = async (h: HybridSearch, query: string) =>
      (await h.search({ query, mode: 'hybrid' })).hits.map((x) => [x.chunkId, x.score]);
    const queries = ['pelican nests', 'seabirds breeding on sea cliffs', 'bread and jam'];
    let differs = false;
    for (const q of queries) {
      const rrf = await list(hybridFor(undefined, { kind: 'rrf' }), q);
      const adaptive = await list(hybridFor(undefined, { kind: 'adaptive' }), q);
      expect(await list(hybridFor('all-MiniLM-L6-v2'), q), q).toEqual(rrf);
      expect(await list(hybridFor('bge-small-en-v1.5'), q), q).toEqual(rrf);
      const lexicalFirst = await list(
        hybridFor(undefined, { kind: 'weighted-rrf', weights: { semantic: 0.001, lexical: 1 } }),
        q,
      );
      expect(await list(hybridFor('use-lite'), q), q).toEqual(lexicalFirst);
      expect(await list(hybridFor(undefined), q), q).toEqual(adaptive);
      differs ||= JSON.stringify(rrf) !== JSON.stringify(adaptive);
    }
    // The two fusions really give different lists here, so the checks above can fail.
    expect(differs).toBe(true);
  });

  it('ranks the keyword side while a pending query vector is computed, same ranking as given', async () => {
    const { store, semantic, hybrid } = await setup(model);
    for (const [path, title, text] of DOCS) await put(store, path, title, text);
    await semantic.start();
    const lookup = createChunkLookup(store.sql);
    const lexical = await createLexicalSearch(store.sql);
    const order: string[] = [];
    const spy = createHybridSearch({
      lexical: {
        search: (r) => lexical.search(r),
        rank: async (q, o) => (order.push('lexical'), lexical.rank(q, o)),
      },
      semantic: {
        embedQuery: async (t) => (order.push('embedQuery'), semantic.embedQuery(t)),
        search: (q, k, f) => semantic.search(q, k, f),
      },
      allowedChunkIds: lookup.allowedChunkIds,
      chunkKeys: lookup.chunkKeys,
      buildHits: lexical.buildHits,
      version: () => 0,
    });
    const query = 'pelican nests on the cliffs';
    const vector = await semantic.embedQuery(query);
    let release: (v: Int16Array | null) => void = () => undefined;
    const pendingVector = new Promise<Int16Array | null>((r) => (release = r));
    const ranked = spy.rank({ query, mode: 'hybrid', limit: 10 }, { pendingVector });
    for (let i = 0; i < 20 && !order.length; i++) await new Promise((r) => setTimeout(r, 0));
    expect(order).toEqual(['lexical']); // read before the vector exists
    release(vector);
    const given = await hybrid.rank({ query, mode: 'hybrid', limit: 10 }, { vector });
    expect(await ranked).toEqual(given);
    expect(order).toEqual(['lexical']); // the pending vector was used, nothing embedded here
    // A failed batch (null): the search embeds the query itself, same ranking.
    const fallback = await spy.rank(
      { query, mode: 'hybrid', limit: 10 },
      { pendingVector: Promise.resolve(null) },
    );
    expect(fallback).toEqual(given);
    expect(order).toContain('embedQuery');
  });

  it("reads a query's lists once for its search and its fused lists, same results as read apart", async () => {
    const { store, semantic } = await setup(model);
    for (const [path, title, text] of DOCS) await put(store, path, title, text);
    await semantic.start();
    const lookup = createChunkLookup(store.sql);
    const lexical = await createLexicalSearch(store.sql);
    const reads = { lexical: 0, embed: 0, vector: 0 };
    const counted = () =>
      createHybridSearch({
        lexical: {
          search: (r) => lexical.search(r),
          rank: async (q, o) => (reads.lexical++, lexical.rank(q, o)),
        },
        semantic: {
          embedQuery: async (t) => (reads.embed++, semantic.embedQuery(t)),
          search: (q, k, f) => (reads.vector++, semantic.search(q, k, f)),
        },
        allowedChunkIds: lookup.allowedChunkIds,
        chunkKeys: lookup.chunkKeys,
        buildHits: lexical.buildHits,
        version: () => store.version(),
      });
    const request = { query: 'pelican nests on the cliffs', limit: 3 };
    const apart = counted();
    const alone = await apart.search(request);
    apart.clearCache();
    const fusedAlone = await apart.fusedLists(request);
    expect(reads).toEqual({ lexical: 2, embed: 2, vector: 2 });
    reads.lexical = reads.embed = reads.vector = 0;
    const shared = counted();
    const [together, fused] = await Promise.all([
      shared.search(request),
      shared.fusedLists(request),
    ]);
    expect(reads).toEqual({ lexical: 1, embed: 1, vector: 1 });
    expect({ ...together, tookMs: 0 }).toEqual({ ...alone, tookMs: 0 });
    expect(fused).toEqual(fusedAlone);
    expect(fused.fused.length).toBeGreaterThan(together.hits.length);
    // Each caller has its own query vector; a library write reads the lists again.
    expect(fused.queryVector).not.toBe((await shared.fusedLists(request)).queryVector);
    expect(reads.lexical).toBe(1);
    await put(store, 'birds/gulls.txt', 'Gulls', 'Gulls and pelican chicks share the nests.');
    await shared.fusedLists(request);
    expect(reads.lexical).toBe(2);
  });

  it('applies filters before semantic retrieval', async () => {
    const { store, semantic, hybrid } = await setup(model);
    for (const [path, title, text] of DOCS) await put(store, path, title, text);
    await semantic.start();
    const res = await hybrid.search({
      query: 'seabirds breeding on sea cliffs',
      mode: 'semantic',
      filters: { pathGlob: 'space/**' },
    });
    expect(res.hits.map((h) => h.path)).toEqual(['space/mars.txt']);
    const none = await hybrid.search({
      query: 'seabirds',
      mode: 'hybrid',
      filters: { contains: 'no chunk says this' },
    });
    expect(none.hits).toEqual([]);
  });

  it('reuses vectors by text hash and drops deleted chunks from the index', async () => {
    const { store, semantic, hybrid, embedCalls } = await setup(model);
    const [path, title, text] = DOCS[0]!;
    const first = await put(store, path, title, text);
    await semantic.start();
    expect(embedCalls.flat()).toHaveLength(1);
    // Deleted: its vector leaves the index.
    await store.deleteDocument(first.documentId);
    await semantic.sync();
    expect(semantic.status().embedded).toBe(0);
    const res = await hybrid.search({ query: 'pelican', mode: 'semantic' });
    expect(res.hits).toEqual([]);
    // Re-imported (as after an edit that kept this paragraph): the cached vector is reused.
    const calls = embedCalls.flat().length;
    await put(store, path, title, text);
    await semantic.sync();
    expect(embedCalls.flat().length).toBe(calls);
    expect(semantic.status()).toMatchObject({ embedded: 1, total: 1 });
  });

  it("hands out the index's own vectors, the stored ones, reading SQLite only for chunks it lacks", async () => {
    const reads: number[][] = [];
    const { store, semantic } = await setup(model, reads);
    for (const [path, title, text] of DOCS.slice(0, 2)) await put(store, path, title, text);
    await semantic.start();
    const ids = (await store.sql.all<{ id: number }>('SELECT id FROM chunks ORDER BY id')).map(
      (r) => Number(r.id),
    );
    reads.length = 0;
    const fromIndex = await semantic.storedVectors(ids);
    expect(reads).toEqual([]);
    const stored = await createVectorStore(store.sql).get(model, ids);
    expect(ids.map((id) => [...fromIndex.get(id)!])).toEqual(ids.map((id) => [...stored.get(id)!]));
    // A chunk written since the last sync is not in the index yet: asked of SQLite (no vector).
    const [path, title, text] = DOCS[2]!;
    await put(store, path, title, text);
    const newer = (await store.sql.all<{ id: number }>('SELECT max(id) AS id FROM chunks'))[0]!.id;
    const both = await semantic.storedVectors([ids[0]!, Number(newer)]);
    expect(reads).toEqual([[Number(newer)]]);
    expect([...both.keys()]).toEqual([ids[0]]);
  });

  it('resumes an interrupted backlog and loads its saved index without rebuilding', async () => {
    const { store, semantic } = await setup(model);
    for (const [p, t, x] of DOCS) await put(store, p, t, x);
    const run = semantic.start();
    semantic.pause();
    await run;
    const afterPause = semantic.status().embedded;
    expect(afterPause).toBeLessThan(4);
    await semantic.start();
    expect(semantic.status()).toMatchObject({ phase: 'ready', embedded: 4 });

    // A second index over the same database loads the persisted graph (no rebuild message).
    const vectors = createVectorStore(store.sql);
    const statuses: string[] = [];
    const second = createSemanticIndex({
      vectors,
      model,
      embed: () => Promise.reject(new Error('must not embed')),
      hash: sha256Hex,
      createIndex: () => createHnswIndex({ dim: model.dim }),
      onStatus: (s) => statuses.push(s.phase),
    });
    await second.start();
    expect(second.status()).toMatchObject({ phase: 'ready', embedded: 4, message: null });

    // Damaged bytes: rebuilt from the stored vectors, and the user is told.
    const bytes = (await vectors.loadIndex(model))!;
    bytes[bytes.length - 1] = (bytes[bytes.length - 1] ?? 0) ^ 0xff;
    await vectors.saveIndex(model, bytes);
    const third = createSemanticIndex({
      vectors,
      model,
      embed: () => Promise.reject(new Error('must not embed')),
      hash: sha256Hex,
      createIndex: () => createHnswIndex({ dim: model.dim }),
    });
    await third.start();
    expect(third.status().phase).toBe('ready');
    expect(third.status().message).toMatch(/rebuilt/);
    const q = await embedder.embedTexts(['pelican colony']);
    expect(third.search(q[0]!, 1)?.[0]?.id).toBe(second.search(q[0]!, 1)?.[0]?.id);
  });

  it('re-embeds every chunk for a new kernel revision of the same model and never mixes its vectors', async () => {
    // As a library embedded with BERT canon.2 meets canon.3: same model id, another version.
    const old = { ...model, version: `${model.version}+canon.2` };
    const next = { ...model, version: `${model.version}+canon.3` };
    const { store, semantic } = await setup(old);
    for (const [p, t, x] of DOCS) await put(store, p, t, x);
    await semantic.start();
    // A deleted and re-imported document: its old vector waits in vector_cache under `old`.
    const [path, title, text] = DOCS[0]!;
    const doc = await store.sql.get<{ id: number }>('SELECT id FROM documents WHERE path = ?', [
      path,
    ]);
    await store.deleteDocument(Number(doc!.id));
    await semantic.sync();
    await put(store, path, title, text);
    const vectors = createVectorStore(store.sql);
    expect(await vectors.counts(next)).toEqual({ total: 4, embedded: 0 });
    // The new revision's vectors are told apart from the old ones by their sign.
    const embedded: string[] = [];
    const reembedded = createSemanticIndex({
      vectors,
      model: next,
      embed: async (texts) => {
        embedded.push(...texts);
        return (await embedder.embedTexts(texts)).map((v) => v.map((x) => -x));
      },
      hash: sha256Hex,
      createIndex: () => createHnswIndex({ dim: next.dim }),
    });
    await reembedded.start();
    expect(reembedded.status()).toMatchObject({ phase: 'ready', embedded: 4, total: 4 });
    expect(embedded).toHaveLength(4);
    expect(embedded.some((t) => t.includes('pelican'))).toBe(true);
    const q = (await embedder.embedTexts(['pelican colony nesting on cliffs']))[0]!;
    // Only `next` vectors are searched: the pelican chunk, nearest under `old`, is last here.
    const hits = reembedded.search(q, 4)!;
    const pelican = await store.sql.get<{ id: number }>(
      "SELECT c.id FROM chunks c JOIN documents d ON d.id = c.document_id WHERE d.path = 'birds/pelicans.txt'",
    );
    expect(hits.map((h) => h.id)).toHaveLength(4);
    expect(hits[hits.length - 1]!.id).toBe(Number(pelican!.id));
    expect((await vectors.counts(old)).embedded).toBe(3);
  });

  it('resumes quietly after a tab closed before the index was first saved', async () => {
    const { store } = await setup(model);
    for (const [p, t, x] of DOCS) await put(store, p, t, x);
    const vectors = createVectorStore(store.sql);
    // A run that stored two vectors and was closed before its first index save.
    const first = await vectors.pending(model, 2);
    const made = await embedder.embedTexts(first.map((c) => c.text));
    await vectors.put(
      model,
      await Promise.all(
        first.map(async (c, i) => ({
          chunkId: c.chunkId,
          textHash: await sha256Hex(c.text),
          vector: made[i]!,
        })),
      ),
    );
    expect(await vectors.loadIndex(model)).toBeNull();
    const embedded: string[] = [];
    const next = createSemanticIndex({
      vectors,
      model,
      embed: async (texts) => (embedded.push(...texts), embedder.embedTexts(texts)),
      hash: sha256Hex,
      createIndex: () => createHnswIndex({ dim: model.dim }),
    });
    await next.start();
    // The two stored vectors are kept (not embedded again), the rest embedded, and no "damaged
    // index" message: nothing was damaged.
    expect(next.status()).toMatchObject({ phase: 'ready', embedded: 4, total: 4, message: null });
    expect(embedded.length).toBe(2);
    expect(await vectors.loadIndex(model)).not.toBeNull();
  });
});

describe('a page of documents (one entry per document)', () => {
  async function library() {
    const s = await setup(model);
    for (const { path, title, text } of [PELICAN_SURVEY, ...HARBOUR_REPORTS])
      await put(s.store, path, title, text);
    await s.semantic.start();
    return s;
  }

  it('shows the top 10 documents even when one document takes the first 20 chunks', async () => {
    const { hybridFor } = await library();
    const hybrid = hybridFor('use-lite');
    // The case under test: a chunk page of 20 would show one or two documents.
    const first20 = await hybrid.search({ query: 'pelican', mode: 'lexical', limit: 20 });
    expect(new Set(first20.hits.map((h) => h.path))).toEqual(new Set(['birds/pelican-survey.txt']));
    for (const mode of ['lexical', 'semantic', 'hybrid'] as const) {
      const res = await hybrid.search({ query: 'pelican', mode, documents: 10 });
      const docs = res.documents!;
      expect(docs, mode).toHaveLength(10);
      expect(new Set(docs.map((d) => d.documentId)).size, mode).toBe(10);
      for (const d of docs) {
        expect(d.passages.length).toBeGreaterThanOrEqual(1);
        expect(d.passages.length).toBeLessThanOrEqual(1 + MORE_PASSAGES);
        expect(d.passages.every((p) => p.documentId === d.documentId)).toBe(true);
      }
      const survey = docs.find((d) => d.path === 'birds/pelican-survey.txt');
      expect(survey?.passages, mode).toHaveLength(1 + MORE_PASSAGES);
      expect(res.hits.map((h) => h.chunkId)).toEqual(
        docs.flatMap((d) => d.passages.map((p) => p.chunkId)),
      );
    }
  });

  it('keeps the document order of best chunk wins (the order the eval measures)', async () => {
    const { hybridFor } = await library();
    const hybrid = hybridFor('use-lite');
    // Lexical and semantic: the order of first appearance in a deep chunk ranking.
    for (const mode of ['lexical', 'semantic'] as const) {
      const chunks = (await hybrid.search({ query: 'pelican on the pier', mode, limit: 100 })).hits;
      const page = await hybrid.search({ query: 'pelican on the pier', mode, documents: 8 });
      const expected = groupByDocument(chunks, BEST_CHUNK_ONLY)
        .slice(0, 8)
        .map((g) => g.path);
      expect(
        page.documents!.map((d) => d.path),
        mode,
      ).toEqual(expected);
      expect(
        page.documents!.map((d) => d.passages[0]!.chunkId),
        mode,
      ).toEqual(expected.map((p) => chunks.find((c) => c.path === p)!.chunkId));
    }
    // Hybrid: the documents of the measured 20 + 20 fusion come first, in its order.
    const fused = (await hybrid.search({ query: 'pelican on the pier', mode: 'hybrid', limit: 40 }))
      .hits;
    const measured = groupByDocument(fused, BEST_CHUNK_ONLY).map((g) => g.path);
    const page = await hybrid.search({
      query: 'pelican on the pier',
      mode: 'hybrid',
      documents: 13,
    });
    expect(page.documents!.map((d) => d.path).slice(0, measured.length)).toEqual(measured);
  });

  it('rates every passage with a relevance band, not a rank', async () => {
    const { hybridFor } = await library();
    const hybrid = hybridFor('use-lite');
    const lexical = await hybrid.search({ query: 'pelican', mode: 'lexical', documents: 10 });
    for (const h of lexical.hits) expect(h.relevance?.basis).toBe('keywords');
    // A query most of whose words no passage holds: even its first hit is Low.
    const poor = await hybrid.search({
      query: 'pelican quasar tectonics marmalade violin',
      mode: 'lexical',
      documents: 5,
    });
    expect(poor.hits.length).toBeGreaterThan(0);
    expect(poor.hits[0]!.relevance?.band).toBe('low');
    const good = await hybrid.search({ query: 'pelican', mode: 'lexical', documents: 5 });
    expect(good.hits[0]!.relevance?.band).toBe('high');
    const hyb = await hybrid.search({ query: 'pelican', mode: 'hybrid', documents: 5 });
    for (const h of hyb.hits) expect(h.relevance).toBeTruthy();
  });

  it('answers filters that match nothing, and an empty query, with an empty page', async () => {
    const { hybridFor } = await library();
    const hybrid = hybridFor('use-lite');
    for (const mode of ['lexical', 'semantic', 'hybrid'] as const) {
      const none = await hybrid.search({
        query: 'pelican',
        mode,
        documents: 10,
        filters: { pathGlob: 'nowhere/**' },
      });
      expect(none.documents, mode).toEqual([]);
      expect(none.hits, mode).toEqual([]);
      const blank = await hybrid.search({ query: '   ', mode, documents: 10 });
      expect(blank.documents, mode).toEqual([]);
    }
  });

  it('says when the model read only the start of a long query (keywords read it all)', async () => {
    const { hybridFor } = await library();
    const hybrid = hybridFor('use-lite', undefined, 128);
    const long = Array.from({ length: 200 }, (_, i) => (i % 10 === 0 ? 'pelican' : `word${i}`));
    for (const mode of ['semantic', 'hybrid'] as const) {
      const res = await hybrid.search({ query: long.join(' '), mode, documents: 5 });
      expect(res.notice?.modelWindowTokens, mode).toBe(128);
      expect(res.notice?.message, mode).toMatch(/Meaning search read only the start/);
      expect(res.documents!.length, mode).toBeGreaterThan(0);
    }
    const lexical = await hybrid.search({ query: long.join(' '), mode: 'lexical', documents: 5 });
    expect(lexical.notice).toBeUndefined();
    const short = await hybrid.search({ query: long.slice(0, 100).join(' '), documents: 5 });
    expect(short.notice).toBeUndefined();
  });
});

describe('withWindowNotice', () => {
  it('adds the model window to a lexical notice, and nothing within the window', () => {
    const lexical = { truncatedChars: 10, rankOnlyTerms: ['the'], message: 'Lexical said so.' };
    const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(' ');
    expect(withWindowNotice(lexical, words(129), 128)).toMatchObject({
      truncatedChars: 10,
      rankOnlyTerms: ['the'],
      modelWindowTokens: 128,
      message: expect.stringMatching(/^Lexical said so\. Meaning search read only/) as unknown,
    });
    expect(withWindowNotice(lexical, words(128), 128)).toBe(lexical);
    expect(withWindowNotice(null, words(500), undefined)).toBeNull();
  });
});
