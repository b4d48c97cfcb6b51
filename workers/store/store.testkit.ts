// Test helpers for workers/store: a fresh in-memory library with real wa-sqlite (Node only).
import type { ChunkInput, DocumentInput } from '../shared/types';
import { createLexicalSearch, type LexicalSearch } from './lexical-search';
import type { OpenedDatabase } from './open-database';
import { openNodeDatabase } from './open-database-node';
import { createStore, type Store } from './store';

export interface TestLibrary {
  db: OpenedDatabase;
  store: Store;
  search: LexicalSearch;
  close(): Promise<void>;
}

export async function openTestLibrary(): Promise<TestLibrary> {
  const db = await openNodeDatabase();
  let t = 1_000;
  const store = await createStore(db, { clock: () => t++ });
  const search = await createLexicalSearch(db.sql, { now: () => 0, version: store.version });
  return { db, store, search, close: () => db.close() };
}

export function doc(path: string, text: string, extra: Partial<DocumentInput> = {}): DocumentInput {
  return { path, title: path, mime: 'text/plain', size: text.length, modified: 0, text, ...extra };
}

/**
 * Fixed 200-character chunks (exact slices, no overlap). The store must not depend on the ingest
 * layer; the eval harness exercises the real chunker.
 */
export function chunksOf(text: string, size = 200): ChunkInput[] {
  const out: ChunkInput[] = [];
  for (let start = 0, seq = 0; start < text.length; start += size, seq++) {
    const end = Math.min(text.length, start + size);
    out.push({ seq, start, end, text: text.slice(start, end) });
  }
  return out;
}

/** Stores a document with its chunks; the hash is the path + text (unique per test doc). */
export async function put(
  store: Store,
  input: DocumentInput,
  hash = `${input.path}:${input.text}`,
) {
  return store.putDocument(input, chunksOf(input.text), hash);
}

export { mulberry32 } from '../shared/rng.testkit';

/**
 * `n` words drawn from a Zipf-like vocabulary of `vocab` made-up words (word i has weight
 * 1/(i+1)), so a few words are everywhere and most are rare, as in real text.
 */
export function zipfWords(rand: () => number, n: number, vocab = 2000): string[] {
  let total = 0;
  for (let i = 0; i < vocab; i++) total += 1 / (i + 1);
  const out: string[] = [];
  for (let k = 0; k < n; k++) {
    let x = rand() * total;
    let i = 0;
    while (i < vocab - 1 && (x -= 1 / (i + 1)) > 0) i++;
    out.push(`w${i.toString(36)}q`);
  }
  return out;
}
