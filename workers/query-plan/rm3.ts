// RM3 pseudo-relevance feedback (Abdul-Jaleel et al., TREC 2004; Lavrenko & Croft's relevance
// model) on the lexical side: take the top-k lexical documents (injected), estimate
// P(w|R) = sum_d P(w|d) * P(d|q), keep the top `fbTerms` and interpolate with the original
// query (weight `originalWeight`, Anserini's default 0.5). Pure apart from the injected search.
import { contentTokens, tokenize } from './text';
import type { LexicalTopKFn } from './types';

export interface Rm3Config {
  /** Feedback documents (Anserini fbDocs = 10). */
  fbDocs?: number;
  /** Expansion terms kept (Anserini fbTerms = 10). */
  fbTerms?: number;
  /** Weight of the original query model (Anserini originalQueryWeight = 0.5). */
  originalWeight?: number;
  /** Cap on repetitions of one term in `weightedQuery`. Default 4. */
  maxRepeat?: number;
}

export interface Rm3Expansion {
  /** Interpolated term weights, highest first (original terms included). */
  terms: Array<{ term: string; weight: number }>;
  /** The original query followed by the new expansion terms (for a text-only lexical search). */
  expandedQuery: string;
  /** The new terms alone, best first. */
  added: string[];
  /**
   * The interpolated model as a text query: each term repeated in proportion to its weight
   * (at most `maxRepeat` times), for lexical searches that weight repeated query terms (ours
   * does, as Anserini does). This keeps the original terms dominant, unlike `expandedQuery`.
   */
  weightedQuery: string;
  feedbackDocs: number;
}

/** Computes the RM3 expansion from feedback documents (scores are the lexical scores). */
export function rm3Expand(
  query: string,
  docs: Array<{ text: string; score: number }>,
  config: Rm3Config = {},
): Rm3Expansion {
  const fbTerms = config.fbTerms ?? 10;
  const lambda = config.originalWeight ?? 0.5;
  const qTerms = contentTokens(query);
  const used = docs.slice(0, config.fbDocs ?? 10);
  // P(d|q): scores made positive and normalised (BM25 in FTS5 is negative-is-better; we take |score|,
  // and fall back to rank-based weights when all scores are ~0, as on tiny corpora).
  const raw = used.map((d) => Math.abs(d.score));
  const total = raw.reduce((a, b) => a + b, 0);
  const pdq =
    total > 1e-9
      ? raw.map((s) => s / total)
      : used.map((_, i) => 1 / (i + 1) / used.reduce((a, _d, j) => a + 1 / (j + 1), 0));
  const rel = new Map<string, number>();
  used.forEach((d, i) => {
    const toks = contentTokens(d.text).filter((t) => !/^\d+$/.test(t) && t.length > 2);
    if (toks.length === 0) return;
    const tf = new Map<string, number>();
    for (const t of toks) tf.set(t, (tf.get(t) ?? 0) + 1);
    for (const [t, c] of tf) rel.set(t, (rel.get(t) ?? 0) + (c / toks.length) * (pdq[i] ?? 0));
  });
  const top = [...rel.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, fbTerms);
  const relSum = top.reduce((a, [, w]) => a + w, 0) || 1;
  const weights = new Map<string, number>();
  for (const t of qTerms) weights.set(t, (weights.get(t) ?? 0) + lambda / qTerms.length);
  for (const [t, w] of top) weights.set(t, (weights.get(t) ?? 0) + (1 - lambda) * (w / relSum));
  const terms = [...weights.entries()]
    .map(([term, weight]) => ({ term, weight }))
    .sort((a, b) => b.weight - a.weight || (a.term < b.term ? -1 : 1));
  const inQuery = new Set(tokenize(query));
  const added = top.map(([t]) => t).filter((t) => !inQuery.has(t));
  const unit = Math.min(...terms.map((t) => t.weight));
  const maxRepeat = config.maxRepeat ?? 4;
  const weightedQuery = terms
    .flatMap((t) => {
      const n = Math.max(1, Math.min(maxRepeat, Math.round(t.weight / unit)));
      return Array.from({ length: n }, () => t.term);
    })
    .join(' ');
  return {
    terms,
    expandedQuery: added.length ? `${query} ${added.join(' ')}` : query,
    added,
    weightedQuery: weightedQuery || query,
    feedbackDocs: used.length,
  };
}

export function createRm3(deps: { lexicalTopK: LexicalTopKFn }) {
  return {
    /** Runs the first-pass lexical search and returns the expansion. */
    async expand(
      query: string,
      config: Rm3Config = {},
      signal?: AbortSignal,
    ): Promise<Rm3Expansion> {
      const docs = await deps.lexicalTopK(query, config.fbDocs ?? 10, signal);
      return rm3Expand(query, docs, config);
    },
  };
}
