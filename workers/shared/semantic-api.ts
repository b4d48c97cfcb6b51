// Semantic search status as the UI sees it: which model's vectors are in use and how far the
// embedding backlog is. Plain types only.

/** The model a vector belongs to; vectors of two models or versions never mix in a search. */
export interface EmbeddingModelKey {
  id: string;
  version: string;
  dim: number;
}

export type SemanticPhase = 'starting' | 'indexing' | 'embedding' | 'ready' | 'paused' | 'error';

export interface SemanticStatus {
  phase: SemanticPhase;
  model: EmbeddingModelKey | null;
  /** Chunks with a vector for the active model, of all chunks in the library. */
  embedded: number;
  total: number;
  /** Progress of the current step (rebuilding the index or embedding the backlog). */
  done: number;
  todo: number;
  /** Why the stored index was rebuilt, or why embedding stopped. */
  message: string | null;
  /** Chunks embedded per second over the last few seconds of this run (null until measured). */
  ratePerSecond: number | null;
  /** Seconds until the backlog is done at that rate (null until measured). */
  etaSeconds: number | null;
  /** Embed workers the backlog runs on (0 before any is connected). */
  workers: number;
}
