// Registry of retrieval modes for `npm run eval -- --mode <name>` and the benchmarks.
// A later issue adds a mode with one line here and one module implementing `Retriever`.
import type { BeirDoc } from './beir';
import { createLexicalRetriever } from './lexical-mode';
import { createSemanticRetriever } from './semantic-mode';
import { createHybridRetriever } from './hybrid-mode';
import { createPlannableHybrid } from './research-hybrid';
import { plannedMode } from './research-modes';
import { createRelatedRetriever } from './related-mode';

export interface RankedDoc {
  docId: string;
  score: number;
}

export interface IndexReport {
  documents: number;
  chunks: number;
}

/**
 * A retriever under evaluation. Lifecycle: `index` once with the whole corpus, then `search`
 * any number of times, then `close`.
 */
export interface Retriever {
  /** Indexes the corpus; `onProgress(done, total)` may be called as documents are stored. */
  index(docs: BeirDoc[], onProgress?: (done: number, total: number) => void): Promise<IndexReport>;
  /** The top `k` documents for a query, best first (document-level, not chunk-level). */
  search(query: string, k: number): Promise<RankedDoc[]>;
  close(): Promise<void>;
}

/** Options from the command line (`--key value`), passed through untouched. */
export type RetrieverFactory = (options: Record<string, string>) => Promise<Retriever>;

export const MODES: Record<string, RetrieverFactory> = {
  lexical: createLexicalRetriever,
  semantic: createSemanticRetriever,
  hybrid: createHybridRetriever,
  'lexical+rm3': plannedMode(createLexicalRetriever, 'rm3'),
  'lexical+wordnet': plannedMode(createLexicalRetriever, 'wordnet'),
  'lexical+keyphrases': plannedMode(createLexicalRetriever, 'keyphrases'),
  'hybrid+rm3': plannedMode(createPlannableHybrid, 'rm3'),
  'hybrid+wordnet': plannedMode(createPlannableHybrid, 'wordnet'),
  'hybrid+keyphrases': plannedMode(createPlannableHybrid, 'keyphrases'),
  hyde: plannedMode(createPlannableHybrid, 'hyde'),
  fusion: plannedMode(createPlannableHybrid, 'fusion'),
  routed: plannedMode(createPlannableHybrid, 'routed'),
  // Find related (More like this): the query text is the passage (workers/search/related.ts).
  related: createRelatedRetriever,
};
