// A changing library ranks like a fresh one (issue 15 item 7). Seeded property test: 220 random
// steps of import, re-import with edits, delete, empty documents, duplicate and unchanged
// content, with the semantic index syncing now and then; afterwards lexical, semantic and hybrid
// rankings AND scores must equal those of a library built from scratch with the surviving
// documents. Real wa-sqlite, the real chunker and HNSW; the semantic side uses a seeded
// hashed-bag-of-words test model (same text, same vector), since USE-lite would embed every
// edit and take minutes here. Pinned seeds; SEED=<n> adds one to replay or explore.
import { describe, expect, it } from 'vitest';
import { chunkText } from '../ingest/chunk';
import { sha256Hex } from '../ingest/hash';
import { openTestLibrary } from '../db/node-library.testkit';
import { rebuildTermStats } from '../store/migrations';
import { openNodeDatabase } from '../store/open-database-node';
import { createStore, type Store } from '../store/store';
import { mulberry32, zipfWords } from '../store/store.testkit';
import type { HybridSearch } from './hybrid';
import type { SemanticIndex } from './semantic-index';
import type { SearchMode } from '../shared/types';

const DIM = 32;
const MODEL = { id: 'churn-test-bow', version: '1', dim: DIM };

/** Hashed bag of words, L2-normalised and quantised like canonical vectors. */
function bowVector(text: string): Int16Array {
  const v = new Float64Array(DIM);
  for (const w of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    let h = 2166136261;
    for (let i = 0; i < w.length; i++) h = Math.imul(h ^ w.charCodeAt(i), 16777619);
    const d = (h >>> 0) % DIM;
    v[d] = v[d]! + ((h & 0x100) !== 0 ? 1 : -1);
  }
  const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0)) || 1;
  return Int16Array.from(v, (x) => Math.round((x / norm) * 32767));
}

interface Library {
  store: Store;
  semantic: SemanticIndex;
  hybrid: HybridSearch;
}

async function openLibrary(): Promise<Library> {
  const db = await openNodeDatabase();
  const store = await createStore(db, { clock: () => 0 });
  const { hybrid, semantic } = await openTestLibrary(store, {
    model: MODEL,
    embed: async (texts) => texts.map(bowVector),
    batchSize: 4,
    hybrid: { fusion: { kind: 'rrf' } },
  });
  return { store, semantic, hybrid };
}

async function putText(store: Store, path: string, text: string, hash?: string) {
  return store.putDocument(
    { path, title: `Title ${path}`, mime: 'text/plain', size: text.length, modified: 0, text },
    chunkText(text),
    hash ?? (await sha256Hex(text)),
  );
}

/** Applies `steps` random changes over 40 paths (many empty ones: document ids outgrow chunk ids). */
async function churn(lib: Library, seed: number, steps: number): Promise<void> {
  const rand = mulberry32(seed);
  const paths = Array.from({ length: 40 }, (_, i) => `dir${i % 3}/doc${i}.txt`);
  const texts = new Map<string, string>();
  const pick = <T>(xs: T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const newText = () => zipfWords(rand, Math.floor(rand() * 220), 300).join(' ');
  for (let step = 0; step < steps; step++) {
    const r = rand();
    const path = pick(paths);
    if (r < 0.35) {
      const text = newText();
      await putText(lib.store, path, text);
      texts.set(path, text);
    } else if (r < 0.55 && texts.has(path)) {
      // Re-import with an edit: some words replaced, some appended.
      const words = texts.get(path)!.split(' ');
      for (let i = 0; i < words.length; i++)
        if (rand() < 0.2) words[i] = zipfWords(rand, 1, 300)[0]!;
      const text =
        `${words.join(' ')} ${zipfWords(rand, Math.floor(rand() * 40), 300).join(' ')}`.trim();
      await putText(lib.store, path, text);
      texts.set(path, text);
    } else if (r < 0.7) {
      const doc = await lib.store.getDocumentByPath(path);
      if (doc) await lib.store.deleteDocument(doc.id);
    } else if (r < 0.78) {
      await putText(lib.store, path, '', `empty:${path}:${step}`); // an empty file: no chunks
    } else if (r < 0.88) {
      const from = pick([...texts.keys()]);
      if (from) await putText(lib.store, path, texts.get(from)!); // same content elsewhere
    } else if (texts.has(path)) {
      await putText(lib.store, path, texts.get(path)!); // unchanged re-import
    }
    if (rand() < 0.2) await lib.semantic.sync();
  }
  await lib.semantic.sync();
}

/** The same documents, imported once each in path order into a new library. */
async function rebuilt(from: Library): Promise<Library> {
  const fresh = await openLibrary();
  for (const summary of await from.store.listDocuments()) {
    const doc = await from.store.getDocument(summary.id);
    await putText(fresh.store, doc.path, doc.text, doc.contentHash);
  }
  await fresh.semantic.start();
  return fresh;
}

async function rankings(lib: Library, queries: string[]) {
  const out: Record<string, unknown> = {};
  for (const mode of ['lexical', 'semantic', 'hybrid'] as SearchMode[])
    for (const query of queries) {
      const res = await lib.hybrid.search({ query, mode, limit: 20 });
      out[`${mode}: ${query.slice(0, 40)}`] = res.hits.map((h) => [
        h.path,
        h.seq,
        h.score,
        h.ranks,
      ]);
    }
  return out;
}

const SEEDS = [1, 7, 15, 2026, ...(process.env.SEED ? [Number(process.env.SEED)] : [])];

describe('a changing library ranks like a fresh one', () => {
  it.each(SEEDS)('seed %i: 220 random steps, then the same rankings and scores', async (seed) => {
    const lib = await openLibrary();
    await lib.semantic.start();
    await churn(lib, seed, 220);
    const fresh = await rebuilt(lib);
    const rand = mulberry32(seed + 1);
    const queries = [
      ...Array.from({ length: 6 }, () =>
        zipfWords(rand, 1 + Math.floor(rand() * 5), 300).join(' '),
      ),
      zipfWords(rand, 200, 300).join(' '),
    ];
    expect(await rankings(lib, queries), `seed ${seed}`).toEqual(await rankings(fresh, queries));
    // The document frequencies the store keeps equal a recount from the index.
    const kept = await lib.store.sql.all('SELECT * FROM term_stats ORDER BY term');
    await rebuildTermStats(lib.store.sql);
    expect(kept, `seed ${seed}`).toEqual(
      await lib.store.sql.all('SELECT * FROM term_stats ORDER BY term'),
    );
  });
});

describe('long-query notice through every mode', () => {
  it('hybrid and lexical responses carry the notice of a query longer than the readable length', async () => {
    const lib = await openLibrary();
    await putText(lib.store, 'a.txt', 'alpha beta gamma delta');
    await lib.semantic.start();
    const query = `alpha ${'x'.repeat(25_000)}`;
    for (const mode of ['lexical', 'hybrid'] as SearchMode[]) {
      const res = await lib.hybrid.search({ query, mode });
      expect(res.notice?.truncatedChars, mode).toBeGreaterThan(0);
    }
    expect((await lib.hybrid.search({ query: 'alpha', mode: 'hybrid' })).notice).toBeUndefined();
  });
});
