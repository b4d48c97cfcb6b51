// The library's search over one store, wired in one place: BM25 lexical search, the chunk
// look-ups, and the hybrid search on the current semantic side, with the cache version that
// library writes and index changes (embedding progress) both bump. The library service composes
// it, and the tests that must rank exactly as the app does (search contract, churn, determinism)
// build their library with it.
import { createHybridSearch, type HybridDeps, type HybridOptions } from '../search/hybrid';
import type { HybridSearch } from '../search/hybrid';
import type { SemanticIndex } from '../search/semantic-index';
import { createChunkLookup, type ChunkLookup } from '../store/chunk-lookup';
import { createLexicalSearch, type LexicalSearch } from '../store/lexical-search';
import type { Store } from '../store/store';

/** Where the semantic side comes from: SemanticSync in the app, one index in tests. */
export interface SemanticSource {
  /** The semantic side now, null while no model is connected; read at every search. */
  side(): HybridDeps['semantic'];
  /** Bumped whenever the index changes. */
  generation(): number;
}

export interface LibrarySearch {
  lexical: LexicalSearch;
  lookup: ChunkLookup;
  hybrid: HybridSearch;
}

export async function createLibrarySearch(
  store: Pick<Store, 'sql' | 'version'>,
  semantic: SemanticSource,
  options: HybridOptions = {},
): Promise<LibrarySearch> {
  const lexical = await createLexicalSearch(store.sql, { version: () => store.version() });
  const lookup = createChunkLookup(store.sql);
  const hybrid = createHybridSearch(
    {
      lexical,
      get semantic() {
        return semantic.side();
      },
      allowedChunkIds: lookup.allowedChunkIds,
      chunkKeys: lookup.chunkKeys,
      buildHits: lexical.buildHits,
      // Library writes and index changes (embedding progress) both invalidate cached answers.
      version: () => store.version() * 1_000_003 + semantic.generation(),
    },
    options, // without a fusion: chosen per model (see workers/search/model-fusion.ts)
  );
  return { lexical, lookup, hybrid };
}

/**
 * One semantic index as the whole semantic side (tests and tools with a fixed model), naming its
 * model as the app's side does, so the fusion follows the model here too.
 */
export function indexAsSource(index: SemanticIndex): SemanticSource {
  const side: NonNullable<HybridDeps['semantic']> = {
    embedQuery: (text) => index.embedQuery(text),
    search: (q, k, filter) => index.search(q, k, filter),
    embedQueries: (texts) => index.embedQueries(texts),
    storedVectors: (ids) => index.storedVectors(ids),
    get modelId() {
      return index.status().model?.id;
    },
  };
  return { side: () => side, generation: () => index.generation() };
}
