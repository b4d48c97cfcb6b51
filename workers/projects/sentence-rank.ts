// BM25 over a handful of sentences (one abstract or one document's strips): which sentences are
// lexically closest to a claim. The collection statistics are the given sentences themselves
// unless document frequencies from a larger collection are passed. `rankSentences` adds where each
// sentence sits in its source and whether it reports figures (findings come late in an abstract),
// through a logistic model fitted on SciFact claims_train rationales
// (ml/sentence-pick-fit.ts, workers/fitted/sentence-pick.json, injected by the caller). Pure.
import { standardProbability, type StandardLogistic } from '../shared/standard-logistic';
import { contentStems } from '../text-features/stance-cues';

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

/** A fitted logistic model over PICK_FEATURES (the shared standardised scorer's shape). */
export type PickModel = StandardLogistic;

export const PICK_FEATURES = [
  'bmRel',
  'bmRankInv',
  'overlap',
  'relPos',
  'relEnd',
  'lastQuarter',
  'firstSentence',
  'digits',
  'lenLog',
] as const;

/**
 * Feature values of each sentence of one source for `query` (input order): BM25 relative to the
 * source's best and its rank, share of the query's content words, relative position (offsets
 * against `length`, the source's text length), figures, length. Vocabulary-free.
 */
export function pickFeatures(
  query: string,
  sentences: ReadonlyArray<{ text: string; start: number; end: number }>,
  length: number,
): Array<Record<string, number>> {
  const bm = bm25Sentences(
    query,
    sentences.map((s) => s.text),
  );
  const best = Math.max(1e-9, ...bm);
  const rank = new Map(
    bm
      .map((v, i) => ({ v, i }))
      .sort((a, b) => b.v - a.v || a.i - b.i)
      .map((x, r) => [x.i, r + 1]),
  );
  const q = new Set(contentStems(query));
  const len = Math.max(1, length);
  return sentences.map((s, i) => {
    const stems = contentStems(s.text);
    return {
      bmRel: bm[i]! / best,
      bmRankInv: 1 / rank.get(i)!,
      overlap: stems.filter((t) => q.has(t)).length / Math.max(1, q.size),
      relPos: s.start / len,
      relEnd: s.end / len,
      lastQuarter: s.end / len > 0.75 ? 1 : 0,
      firstSentence: s.start / len < 0.02 ? 1 : 0,
      digits: Math.min(3, (s.text.match(/\p{N}/gu) ?? []).length / 3),
      lenLog: Math.log(1 + stems.length),
    };
  });
}

/** P(rationale) of each feature row under `model`. */
export function pickProbabilities(model: PickModel, rows: Array<Record<string, number>>): number[] {
  return rows.map((r) => standardProbability(model, r));
}

/**
 * Indexes of the `k` sentences most likely to be rationale under `model` (best first; ties:
 * earlier sentence first); `length` is the source text's length (default: the last sentence's end).
 */
export function rankSentences(
  query: string,
  sentences: ReadonlyArray<{ text: string; start: number; end: number }>,
  k: number,
  model: PickModel,
  length = Math.max(0, ...sentences.map((s) => s.end)),
): number[] {
  const p = pickProbabilities(model, pickFeatures(query, sentences, length));
  return p
    .map((v, i) => ({ v, i }))
    .sort((x, y) => y.v - x.v || x.i - y.i)
    .slice(0, k)
    .map((x) => x.i);
}
