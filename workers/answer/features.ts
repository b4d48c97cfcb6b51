// CRAG-001 features of a passage, all vocabulary-independent (weights come from the library's
// own statistics): keyword overlap (IDF-weighted coverage of the question's terms, adjacent pairs,
// the rarest term), semantic coherence (canonical cosine, its gap to the best and the next
// passage, its z-score in the list), length adequacy, diversity (hit chunks of the document) and
// the retrieval signals (fused, BM25 and cosine ranks and scores).
import { cosine } from '../query-plan/vectors';
import type { Passage } from './passages';
import { windowText } from './passages';
import {
  contentStems,
  coverage,
  idf,
  numbersOf,
  pairCoverage,
  sentences,
  type WeightedTerms,
} from './text';
import type { LexicalStats } from './types';

export interface QueryContext {
  terms: WeightedTerms;
  /** Content stems in query order (for pairs). */
  ordered: string[];
  vector: Int16Array | null;
}

/** The question's distinct content stems weighted by IDF over the library's chunks. */
export async function queryContext(
  question: string,
  stats: LexicalStats,
  vector: Int16Array | null,
): Promise<QueryContext> {
  const ordered = contentStems(question);
  const words = new Map<string, string>(); // stem -> a surface word for the stats lookup
  const raw = question.toLowerCase().match(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu) ?? [];
  for (const w of raw) {
    const s = contentStems(w)[0];
    if (s && !words.has(s)) words.set(s, w);
  }
  const stems = [...new Set(ordered)];
  const { total, df } = await stats.docFreq(stems.map((s) => words.get(s) ?? s));
  const weights = stems.map((_, i) => idf(Math.max(total, 1), Math.min(df[i] ?? 0, total)));
  return {
    terms: { stems, weights, total: weights.reduce((a, b) => a + b, 0) },
    ordered,
    vector,
  };
}

/**
 * Local specificity: the question's terms weighted by how few of the top passages hold them.
 * On-topic passages share the topic's terms; the one that answers also holds the claim's
 * specific entities, which the others lack. Out-of-fold SciFact train (MiniLM): F1 at balanced
 * accuracy >= 0.87 0.696 -> 0.705 (experiments/crag-explore-signals.ts); on SciFact test the
 * refit with them raised CORRECT coverage 0.450 -> 0.473 but not F1 (0.669 -> 0.652).
 */
export const LOCAL_FEATURES = [
  'locCovW',
  'onlyW',
  'specCov',
  'topicShare',
  'sentGapOther',
] as const;

export const PASSAGE_FEATURES = [
  'rankInv',
  'logRank',
  'fusedRel',
  'bm25Norm',
  'bm25Rel',
  'lexRankInv',
  'cos',
  'cosGap',
  'cosNext',
  'cosZ',
  'semRankInv',
  'covW',
  'covP',
  'covTitleW',
  'pairs',
  'rarestHit',
  'missingMax',
  'lenLog',
  'chunksHit',
  'qTerms',
  'qTopCos',
  'cosXcov',
  'sentCovW',
  'sentPairs',
  'rareCov',
  'numHit',
  'bothLists',
  'covGap',
  'bm25Next',
  'qBm25Margin',
  'simMaxOther',
  'simMeanOther',
  'simToTop',
  'cos2nd',
  'cosMeanChunks',
  ...LOCAL_FEATURES,
] as const;

/**
 * The features that need the query's and the chunks' vectors (all 0 in a library without them:
 * no semantic index yet, or a lexical-only search). The fit's vector-free variant leaves them out.
 */
export const VECTOR_FEATURES = [
  'cos',
  'cosGap',
  'cosNext',
  'cosZ',
  'semRankInv',
  'qTopCos',
  'cosXcov',
  'bothLists',
  'simMaxOther',
  'simMeanOther',
  'simToTop',
  'cos2nd',
  'cosMeanChunks',
] as const;

/**
 * The features of the vector-free variant: those a retrieval without vectors gives values to,
 * less the passage length (`lenLog`): SciFact's passages are abstracts (3 of 8,090 train passages
 * under 33 words), so the trees read a short passage by extrapolation, and fitted on lexical-only
 * retrievals they called three one-line notes with one question word each CORRECT.
 */
export const LEXICAL_FEATURES = PASSAGE_FEATURES.filter(
  (f) => !(VECTOR_FEATURES as readonly string[]).includes(f) && f !== 'lenLog',
);

/** Feature key: 1 when the retrieval had vectors (query and stored chunks), else 0. */
export const VECTORS_FLAG = 'vectors';

/** Query terms whose weight is at least the median (the question's distinctive terms). */
function rareTerms(q: QueryContext): WeightedTerms {
  const sorted = [...q.terms.weights].sort((a, b) => a - b);
  const median = sorted[Math.floor((sorted.length - 1) / 2)] ?? 0;
  const keep = q.terms.stems.map((_, i) => q.terms.weights[i]! >= median);
  const stems = q.terms.stems.filter((_, i) => keep[i]);
  const weights = q.terms.weights.filter((_, i) => keep[i]);
  return { stems, weights, total: weights.reduce((a, b) => a + b, 0) };
}

/**
 * Sentence-level address of the question: the best single sentence's weighted coverage and
 * adjacent-pair coverage (does one sentence hold the question's entities together), coverage
 * of the distinctive terms, and the share of the question's numbers present (1 when none).
 */
function sentenceFeatures(
  q: QueryContext,
  p: Passage,
  rare: WeightedTerms,
  qNums: string[],
  all: Set<string>,
) {
  let sentCovW = 0;
  let sentPairs = 0;
  const text = windowText(p);
  for (const s of [{ text: p.title }, ...sentences(text)]) {
    const st = contentStems(s.text);
    sentCovW = Math.max(sentCovW, coverage(q.terms, new Set(st)).weighted);
    sentPairs = Math.max(sentPairs, pairCoverage(q.ordered, st));
  }
  const nums = new Set(numbersOf(`${p.title} ${text}`));
  return {
    sentCovW,
    sentPairs,
    rareCov: coverage(rare, all).weighted,
    numHit: qNums.length ? qNums.filter((n) => nums.has(n)).length / qNums.length : 1,
  };
}

/**
 * Each passage's local specificity among the others (LOCAL_FEATURES): its weighted coverage of
 * the question's terms with each term discounted by how many other passages hold it, the weight
 * of the terms only it holds, its coverage of the terms fewer than half the passages hold (1 when
 * every term is shared), the weight share of those shared topic terms (the same for every
 * passage), and its best sentence's coverage minus the best of the others'.
 */
export function localFeatures(
  q: QueryContext,
  sets: Array<Set<string>>,
  sentCovW: number[],
): Array<Record<string, number>> {
  const n = Math.max(1, sets.length);
  const holders = q.terms.stems.map((s) => sets.filter((x) => x.has(s)).length);
  const total = q.terms.total || 1;
  let topic = 0;
  holders.forEach((h, j) => {
    if (h >= n / 2) topic += q.terms.weights[j]!;
  });
  return sets.map((set, i) => {
    let local = 0;
    let only = 0;
    let specific = 0;
    q.terms.stems.forEach((s, j) => {
      if (!set.has(s)) return;
      const w = q.terms.weights[j]!;
      local += w * (1 - (holders[j]! - 1) / Math.max(1, n - 1));
      if (holders[j] === 1) only += w;
      if (holders[j]! < n / 2) specific += w;
    });
    return {
      locCovW: local / total,
      onlyW: only / total,
      specCov: total - topic > 0 ? specific / (total - topic) : 1,
      topicShare: topic / total,
      sentGapOther: sentCovW[i]! - Math.max(0, ...sentCovW.filter((_, j) => j !== i)),
    };
  });
}

/**
 * Semantic neighbourhood of each passage from its stored chunk vectors (all 0 without a query
 * vector): its best chunk's (the one nearest the question) cosine to the other passages' best
 * chunks (max and mean) and to the first passage's, and the second-best and mean cosine of its
 * chunks to the question. A relevant passage tends to stand apart from the topical neighbours
 * that crowd the list (out-of-fold SciFact train: F1 at balanced accuracy >= 0.87 from 0.662 to
 * 0.688).
 */
function neighbourFeatures(
  q: QueryContext,
  passages: Passage[],
  vectors: Map<number, Int16Array>,
): Array<Record<string, number>> {
  const qv = q.vector && q.vector.length > 0 ? q.vector : null;
  const best = passages.map((p) => {
    let v: Int16Array | null = null;
    let top = -2;
    const cs: number[] = [];
    if (qv)
      for (const id of p.chunkIds) {
        const x = vectors.get(id);
        if (!x || x.length !== qv.length) continue;
        const c = cosine(qv, x);
        cs.push(c);
        if (c > top) {
          top = c;
          v = x;
        }
      }
    cs.sort((a, b) => b - a);
    return {
      v,
      cos2nd: cs[1] ?? cs[0] ?? 0,
      cosMeanChunks: cs.length ? cs.reduce((a, b) => a + b, 0) / cs.length : 0,
    };
  });
  const first = best[0]?.v ?? null;
  return best.map((b, i) => {
    const others: number[] = [];
    if (b.v)
      best.forEach((o, j) => {
        if (j !== i && o.v) others.push(cosine(b.v!, o.v));
      });
    return {
      simMaxOther: others.length ? Math.max(...others) : 0,
      simMeanOther: others.length ? others.reduce((a, c) => a + c, 0) / others.length : 0,
      simToTop: i === 0 ? (b.v ? 1 : 0) : b.v && first ? cosine(b.v, first) : 0,
      cos2nd: b.cos2nd,
      cosMeanChunks: b.cosMeanChunks,
    };
  });
}

/** Feature values for each passage (same order). `vectors`: stored chunk vectors by id. */
export function passageFeatures(
  q: QueryContext,
  passages: Passage[],
  vectors: Map<number, Int16Array>,
  question = '',
): Array<Record<string, number>> {
  // each passage's content stems (body, title, both), tokenised once for every feature group
  const words = passages.map((p) => {
    const body = contentStems(windowText(p));
    const title = contentStems(p.title);
    return { body, title, all: new Set([...body, ...title]) };
  });
  const base = baseFeatures(q, passages, vectors, words);
  const rare = rareTerms(q);
  const qNums = numbersOf(question);
  const bm25 = base.map((f) => f.bm25Norm!);
  const sortedBm25 = [...bm25].sort((a, b) => b - a);
  const maxCov = Math.max(0, ...base.map((f) => f.covW!));
  const near = neighbourFeatures(q, passages, vectors);
  const qv = q.vector && q.vector.length > 0 ? q.vector : null;
  const hasVectors =
    qv && passages.some((p) => p.chunkIds.some((id) => vectors.get(id)?.length === qv.length))
      ? 1
      : 0;
  const sent = passages.map((p, i) => sentenceFeatures(q, p, rare, qNums, words[i]!.all));
  const local = localFeatures(
    q,
    words.map((w) => w.all),
    sent.map((x) => x.sentCovW),
  );
  return passages.map((_, i) => {
    const f = base[i]!;
    return {
      ...f,
      ...sent[i]!,
      ...local[i]!,
      // not a model input: marks a retrieval scored without vectors (no query vector or no
      // stored chunk vector), which the evaluator scores with the fit's vector-free variant
      [VECTORS_FLAG]: hasVectors,
      ...near[i]!,
      bothLists: f.lexRankInv! > 0 && f.semRankInv! > 0 ? 1 : 0,
      covGap: f.covW! - maxCov,
      bm25Next: i + 1 < bm25.length ? bm25[i]! - bm25[i + 1]! : 0,
      qBm25Margin: (sortedBm25[0] ?? 0) - (sortedBm25[1] ?? 0),
    };
  });
}

function baseFeatures(
  q: QueryContext,
  passages: Passage[],
  vectors: Map<number, Int16Array>,
  words: Array<{ body: string[]; title: string[]; all: Set<string> }>,
): Array<Record<string, number>> {
  const cosOf = (p: Passage): number => {
    let best = -1;
    for (const h of p.hits) if (h.cosine !== null) best = Math.max(best, h.cosine);
    if (q.vector && q.vector.length > 0)
      for (const id of p.chunkIds) {
        const v = vectors.get(id);
        if (v && v.length === q.vector.length) best = Math.max(best, cosine(q.vector, v));
      }
    return best < -0.5 ? 0 : best;
  };
  const cos = passages.map(cosOf);
  const mean = cos.reduce((a, b) => a + b, 0) / Math.max(1, cos.length);
  const sd = Math.sqrt(cos.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, cos.length)) || 1;
  const topCos = Math.max(0, ...cos);
  const bm25 = passages.map((p) => Math.max(0, ...p.hits.map((h) => h.lexicalScore ?? 0)));
  const maxBm25 = Math.max(0, ...bm25);
  const topFused = Math.max(1e-9, ...passages.map((p) => p.hits[0]?.fusedScore ?? 0));
  const rarest = q.terms.weights.indexOf(Math.max(...q.terms.weights));
  const maxW = Math.max(1e-9, ...q.terms.weights);
  return passages.map((p, i) => {
    const { body, title, all } = words[i]!;
    const cov = coverage(q.terms, all);
    const lex = p.hits.map((h) => h.lexicalRank).filter((r): r is number => r !== null);
    const sem = p.hits.map((h) => h.semanticRank).filter((r): r is number => r !== null);
    let missingMax = 0;
    q.terms.stems.forEach((s, j) => {
      if (!all.has(s)) missingMax = Math.max(missingMax, q.terms.weights[j]! / maxW);
    });
    const c = cos[i]!;
    const covW = cov.weighted;
    return {
      rankInv: 1 / p.rank,
      logRank: Math.log(p.rank),
      fusedRel: (p.hits[0]?.fusedScore ?? 0) / topFused,
      bm25Norm: q.terms.total > 0 ? bm25[i]! / q.terms.total : 0,
      bm25Rel: maxBm25 > 0 ? bm25[i]! / maxBm25 : 0,
      lexRankInv: lex.length ? 1 / Math.min(...lex) : 0,
      cos: c,
      cosGap: c - topCos,
      cosNext: i + 1 < cos.length ? c - cos[i + 1]! : 0,
      cosZ: (c - mean) / sd,
      semRankInv: sem.length ? 1 / Math.min(...sem) : 0,
      covW,
      covP: cov.plain,
      covTitleW: coverage(q.terms, new Set(title)).weighted,
      pairs: pairCoverage(q.ordered, [...title, ...body]),
      rarestHit: rarest >= 0 && all.has(q.terms.stems[rarest]!) ? 1 : 0,
      missingMax,
      lenLog: Math.log(1 + body.length),
      chunksHit: p.hits.length,
      qTerms: q.terms.stems.length,
      qTopCos: topCos,
      cosXcov: c * covW,
    };
  });
}
