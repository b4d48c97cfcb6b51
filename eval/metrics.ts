// Retrieval metrics with pytrec_eval / trec_eval definitions (as BEIR reports them).
// Owns: nDCG@k, Recall@k, MRR@k per query and their mean. Pure: imports nothing.

/** qrels[queryId][docId] = graded relevance (> 0 is relevant). */
export type Qrels = Record<string, Record<string, number>>;
/** run[queryId] = retrieved docs with scores (any order; see `rankRun`). */
export type Run = Record<string, Array<{ docId: string; score: number }>>;

/**
 * trec_eval's order: score descending, ties by document id descending (string order). Using it
 * makes our numbers equal pytrec_eval's on the same run file.
 */
export function rankRun(list: Array<{ docId: string; score: number }>): string[] {
  return [...list]
    .sort((a, b) =>
      b.score !== a.score ? b.score - a.score : a.docId < b.docId ? 1 : a.docId > b.docId ? -1 : 0,
    )
    .map((d) => d.docId);
}

/** nDCG@k with linear gain (trec_eval ndcg_cut): DCG = sum rel_i / log2(i + 1), i from 1. */
export function ndcgAt(ranked: string[], rels: Record<string, number>, k: number): number {
  let dcg = 0;
  ranked.slice(0, k).forEach((doc, i) => {
    const rel = rels[doc] ?? 0;
    if (rel > 0) dcg += rel / Math.log2(i + 2);
  });
  const ideal = Object.values(rels)
    .filter((r) => r > 0)
    .sort((a, b) => b - a)
    .slice(0, k);
  const idcg = ideal.reduce((sum, rel, i) => sum + rel / Math.log2(i + 2), 0);
  return idcg > 0 ? dcg / idcg : 0;
}

/** Relevant documents in the top k over all relevant documents. */
export function recallAt(ranked: string[], rels: Record<string, number>, k: number): number {
  const relevant = Object.entries(rels).filter(([, r]) => r > 0).length;
  if (relevant === 0) return 0;
  return ranked.slice(0, k).filter((d) => (rels[d] ?? 0) > 0).length / relevant;
}

/** 1 / rank of the first relevant document within the top k (0 if none), as BEIR's mrr@k. */
export function mrrAt(ranked: string[], rels: Record<string, number>, k: number): number {
  const i = ranked.slice(0, k).findIndex((d) => (rels[d] ?? 0) > 0);
  return i < 0 ? 0 : 1 / (i + 1);
}

export interface EvalScores {
  'nDCG@10': number;
  'Recall@100': number;
  'MRR@10': number;
  queries: number;
}

/**
 * Means over every query in the qrels (a query with no results scores 0). BEIR convention:
 * a retrieved document whose id equals the query id is dropped first (ArguAna-style sets).
 */
export function evaluate(qrels: Qrels, run: Run): EvalScores {
  const ids = Object.keys(qrels);
  let ndcg = 0;
  let recall = 0;
  let mrr = 0;
  for (const qid of ids) {
    const rels = qrels[qid] ?? {};
    const ranked = rankRun((run[qid] ?? []).filter((d) => d.docId !== qid));
    ndcg += ndcgAt(ranked, rels, 10);
    recall += recallAt(ranked, rels, 100);
    mrr += mrrAt(ranked, rels, 10);
  }
  const n = ids.length || 1;
  return { 'nDCG@10': ndcg / n, 'Recall@100': recall / n, 'MRR@10': mrr / n, queries: ids.length };
}
