// The retriever contract every eval mode implements (`npm run eval -- --mode <name>`). Mode
// modules import only this file, and eval/modes.ts (the registry) imports the modes, so the
// imports run one way.
import type { BeirDoc } from './beir';

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
