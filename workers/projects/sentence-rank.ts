// BM25 over a handful of sentences (one abstract or one document's strips): which sentences are
// lexically closest to a claim. The collection statistics are the given sentences themselves
// unless document frequencies from a larger collection are passed. Pure; imports projects only.
import { contentStems } from './stance-cues';

export interface CollectionStats {
  docCount: number;
  docFreq(term: string): number;
}

/** BM25 (k1 1.2, b 0.75, Lucene's non-negative IDF) of each sentence for `query`, in input order. */
export function bm25Sentences(
  query: string,
  sentences: string[],
  stats?: CollectionStats,
): number[] {
  const k1 = 1.2;
  const b = 0.75;
  const docs = sentences.map(contentStems);
  const avgLen = docs.reduce((s, d) => s + d.length, 0) / Math.max(1, docs.length);
  const local = new Map<string, number>();
  for (const d of docs) for (const t of new Set(d)) local.set(t, (local.get(t) ?? 0) + 1);
  const n = stats?.docCount ?? docs.length;
  const df = (t: string) => (stats ? stats.docFreq(t) : (local.get(t) ?? 0));
  const terms = [...new Set(contentStems(query))];
  return docs.map((d) => {
    const tf = new Map<string, number>();
    for (const t of d) tf.set(t, (tf.get(t) ?? 0) + 1);
    let score = 0;
    for (const t of terms) {
      const f = tf.get(t) ?? 0;
      if (f === 0) continue;
      const idf = Math.log(1 + (n - df(t) + 0.5) / (df(t) + 0.5));
      score += (idf * f * (k1 + 1)) / (f + k1 * (1 - b + (b * d.length) / Math.max(1e-9, avgLen)));
    }
    return score;
  });
}

/** Indexes of the `k` best sentences by BM25, best first (ties: earlier sentence first). */
export function topSentences(
  query: string,
  sentences: string[],
  k: number,
  stats?: CollectionStats,
): number[] {
  const scores = bm25Sentences(query, sentences, stats);
  return scores
    .map((s, i) => ({ s, i }))
    .sort((x, y) => y.s - x.s || x.i - y.i)
    .slice(0, k)
    .map((x) => x.i);
}
