// Document-level evidence (issue 15 item 6): a document is ranked on all its matching chunks,
// its best chunk's score plus a damped sum of its next ones, so a document whose several
// passages match is preferred over one lucky chunk. Groups a ranked chunk list by document.
// Pure.
import { compareRanked, type Rankable } from '../shared/ranking';

/** score(document) = s1 + decay * s2 + decay^2 * s3 + ... over its best `depth` chunks. */
export interface DocumentEvidence {
  decay: number;
  depth: number;
}

/** Parses `--docDecay` / `--docDepth` style options over a default (eval CLI). */
export function evidenceFrom(
  options: Record<string, string | undefined>,
  fallback: DocumentEvidence,
): DocumentEvidence {
  return {
    decay: options.docDecay !== undefined ? Number(options.docDecay) : fallback.decay,
    depth: options.docDepth !== undefined ? Number(options.docDepth) : fallback.depth,
  };
}

/** Best chunk only: the ranking before document evidence (decay 0). */
export const BEST_CHUNK_ONLY: DocumentEvidence = { decay: 0, depth: 1 };

/**
 * Lexical: fitted on SciFact TRAIN (ml/doc-evidence-tune.ts, ml/README.md "Document-
 * level evidence"): best chunk only scored 0.6889 nDCG@10; every damped sum scored lower (decay
 * 0.05: 0.6887, 0.2: 0.6875, 0.5 over 3 chunks: 0.6802). SciFact abstracts are 4 chunks at most
 * on average; the grouping still shows one entry per document with its passages beneath.
 */
export const DEFAULT_DOCUMENT_EVIDENCE: DocumentEvidence = BEST_CHUNK_ONLY;
/**
 * Hybrid (fused RRF chunk scores), fitted on SciFact TRAIN with all-MiniLM-L6-v2: best chunk only
 * 0.7268 nDCG@10; decay 0.05: 0.7243, 0.1: 0.7218, 0.2: 0.7157 (ml/README.md).
 */
export const DEFAULT_HYBRID_DOCUMENT_EVIDENCE: DocumentEvidence = BEST_CHUNK_ONLY;

export interface DocumentGroup<T> {
  path: string;
  score: number;
  /** The document's chunks in the list, best first. */
  passages: T[];
}

/**
 * Groups a ranked chunk list (best first, as compareRanked orders it) by document and scores
 * each document with `evidence`; documents come back score desc, then path asc. Powers of decay
 * by repeated multiplication (Math.pow is engine-approximated; the order must be the same on
 * every device).
 */
export function groupByDocument<T extends Rankable>(
  ranked: readonly T[],
  evidence: DocumentEvidence,
): DocumentGroup<T>[] {
  const groups = new Map<string, DocumentGroup<T>>();
  for (const item of [...ranked].sort(compareRanked)) {
    let g = groups.get(item.path);
    if (!g) groups.set(item.path, (g = { path: item.path, score: 0, passages: [] }));
    g.passages.push(item);
  }
  for (const g of groups.values()) {
    let weight = 1;
    let score = 0;
    for (let i = 0; i < Math.min(g.passages.length, Math.max(1, evidence.depth)); i++) {
      score += weight * g.passages[i]!.score;
      weight *= evidence.decay;
    }
    g.score = score;
  }
  return [...groups.values()].sort(
    (a, b) => b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0),
  );
}
