// Registry of retrieval modes for `npm run eval -- --mode <name>` and the benchmarks: a mode is
// one module implementing `Retriever` (eval/retriever.ts) and one line here. Mode modules
// never import this file.
import { createLexicalRetriever } from './lexical-mode';
import { createSemanticRetriever } from './semantic-mode';
import { createHybridRetriever } from './hybrid-mode';
import { createPlannableHybrid } from './research-hybrid';
import { plannedMode } from './research-modes';
import { createRelatedRetriever } from './related-mode';
import { createPageRetriever } from './page-mode';

export type { IndexReport, RankedDoc, Retriever, RetrieverFactory } from './retriever';
import type { RetrieverFactory } from './retriever';

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
  // The app's results page: one entry per document (workers/shared/document-results.ts).
  page: createPageRetriever,
};
