// Safe top-k pruning for BM25 over many query terms (MaxScore, Turtle & Flood 1995): terms are
// read rarest-impact-last; once the k-th best partial score beats what all unread terms could
// still add, no unseen chunk can reach the top k, and the unread terms are added only to the
// chunks that still can. Pure arithmetic over plain arrays: must not import anything.

/** One query term (stem) as the ranking reads it. */
export interface TermPlan {
  stem: string;
  /** Query-term weight (how often the query says it). */
  q: number;
  /** Document frequency in the IDF's unit (documents or chunks). */
  df: number;
  /** Chunks holding the term: the cost of reading its posting list. */
  chunks: number;
  idf: number;
  /** Upper bound of the term's BM25 contribution to any chunk: q * idf * (k1 + 1). */
  ub: number;
}

/** Robertson-Sparck Jones IDF as Lucene/Anserini compute it (always > 0 while df <= n). */
export function bm25Idf(n: number, df: number): number {
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

/**
 * The terms of a query in reading order: highest upper bound first, ties by stem (so the order,
 * and with it every floating-point sum, is the same on every run). Terms the index does not
 * hold (df 0) are left out: they add nothing.
 */
export function planTerms(
  terms: ReadonlyArray<{ stem: string; q: number; df: number; chunks: number }>,
  n: number,
  k1: number,
): TermPlan[] {
  return terms
    .filter((t) => t.df > 0)
    .map((t) => {
      const idf = bm25Idf(n, t.df);
      return { ...t, idf, ub: t.q * idf * (k1 + 1) };
    })
    .sort((a, b) => b.ub - a.ub || (a.stem < b.stem ? -1 : a.stem > b.stem ? 1 : 0));
}

/**
 * The best BM25 score any chunk could reach for the query: the sum of every query stem's upper
 * bound, stems the library does not hold (df 0) included at their IDF, so a query whose words are
 * missing from the library has a high bar. Normalises scores across queries (relevance bands,
 * workers/shared/relevance.ts); the ranking does not use it.
 */
export function queryMaxScore(
  weights: ReadonlyMap<string, number>,
  plan: readonly TermPlan[],
  n: number,
  k1: number,
): number {
  const df = new Map(plan.map((t) => [t.stem, t.df]));
  let max = 0;
  for (const [stem, q] of [...weights].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)))
    max += q * bm25Idf(n, Math.min(df.get(stem) ?? 0, n)) * (k1 + 1);
  return max;
}

/** rest[i] = sum of ub over plan[i..]: what the terms from i on could add to any chunk. */
export function suffixBounds(plan: readonly TermPlan[]): Float64Array {
  const rest = new Float64Array(plan.length + 1);
  for (let i = plan.length - 1; i >= 0; i--) rest[i] = rest[i + 1]! + plan[i]!.ub;
  return rest;
}

/**
 * Slack for floating-point rounding: a bound `rest` is treated as `rest * (1 + 1e-9) + 1e-12`,
 * far above the error of summing a few thousand positive terms, far below any real gap.
 */
export function padded(rest: number): number {
  return rest * (1 + 1e-9) + 1e-12;
}

/** The k-th largest of `scores[id]` over `ids` (k >= 1, k <= ids.length), by quickselect. */
export function kthLargest(scores: Float64Array, ids: readonly number[], k: number): number {
  // A plain loop: Float64Array.from with a map function costs several times more (V8).
  const a = new Float64Array(ids.length);
  for (let i = 0; i < ids.length; i++) a[i] = scores[ids[i]!]!;
  let lo = 0;
  let hi = a.length - 1;
  const target = k - 1;
  while (lo < hi) {
    const pivot = a[(lo + hi) >> 1]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i]! > pivot) i++;
      while (a[j]! < pivot) j--;
      if (i <= j) {
        const t = a[i]!;
        a[i] = a[j]!;
        a[j] = t;
        i++;
        j--;
      }
    }
    if (target <= j) hi = j;
    else if (target >= i) lo = i;
    else break;
  }
  return a[target]!;
}
