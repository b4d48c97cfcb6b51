// Test kit: a library in Node searched exactly as the app searches it (library-search.ts) over
// one semantic index of a given embedder (the real USE-lite, or a test model), stored in the
// store's chunk_vectors and indexed with HNSW. For tests that must rank as the app ranks
// (search contract, churn, Chromium-vs-Node determinism). Not imported by product code.
import { sha256Hex } from '../ingest/hash';
import type { HybridOptions } from '../search/hybrid';
import { createSemanticIndex, type SemanticIndex } from '../search/semantic-index';
import type { Store } from '../store/store';
import { createVectorStore } from '../store/vectors';
import { createHnswIndex } from '../vector';
import { createLibrarySearch, indexAsSource, type LibrarySearch } from './library-search';

export interface TestLibraryOptions {
  model: { id: string; version: string; dim: number };
  embed(texts: string[], signal: AbortSignal): Promise<Int16Array[]>;
  /** Chunks per embedder call (default the index's). */
  batchSize?: number;
  hybrid?: HybridOptions;
}

/** The store's search with a semantic index over `embed`; call `semantic.start()` to embed. */
export async function openTestLibrary(
  store: Store,
  options: TestLibraryOptions,
): Promise<LibrarySearch & { semantic: SemanticIndex }> {
  const { id, version, dim } = options.model;
  const semantic = createSemanticIndex({
    vectors: createVectorStore(store.sql),
    model: { id, version, dim },
    embed: options.embed,
    hash: sha256Hex,
    createIndex: () => createHnswIndex({ dim }),
    ...(options.batchSize !== undefined ? { batchSize: options.batchSize } : {}),
  });
  const search = await createLibrarySearch(store, indexAsSource(semantic), options.hybrid);
  return { ...search, semantic };
}
