// Rank fusion for hybrid retrieval (CFS-012 section 4): Reciprocal Rank Fusion with
// 1/(k + rank + 1) on 0-based ranks, weighted RRF, min-max score combination, and an adaptive
// weighting that reads how far to trust each list from the lists themselves.
// Pure functions over plain data: must not import the store, the index or any worker.
import { compareRanked } from '../shared/ranking';

/** One retriever's candidate. `score` is that retriever's own score, higher = better. */
export interface RankedCandidate {
  chunkId: number;
  path: string;
  seq: number;
  score: number;
}

/** A named ranked list (best first), e.g. { name: 'semantic', items }. */
export interface RankedList<T extends RankedCandidate = RankedCandidate> {
  name: string;
  items: readonly T[];
}

export interface FusedCandidate<T extends RankedCandidate = RankedCandidate> {
  chunkId: number;
  path: string;
  seq: number;
  /** Fused score: higher first. Comparable only within one fusion call. */
  score: number;
  /** 1-based rank in each list that found the chunk (the "found by" display). */
  ranks: Record<string, number>;
  /** The list's own score for the chunk, per list. */
  listScores: Record<string, number>;
  /** The candidate as the first list that found it reported it. */
  item: T;
}

/** CFS-012: k = 60 ("empirically effective"; Cormack et al. 2009). */
export const RRF_K = 60;

/** One list's RRF contribution for a 0-based rank: 1/(k + rank + 1) as CFS-012 writes it. */
export function rrfTerm(rank: number, k = RRF_K): number {
  return 1 / (k + rank + 1);
}

/**
 * Sums `contribution(list, rank, item)` per chunk over the lists in the order given (so the
 * floating-point sums are the same on every run), then sorts with the one ranking order (compareRanked). A chunk that a
 * list repeats keeps its first (best) rank there.
 */
function combine<T extends RankedCandidate>(
  lists: readonly RankedList<T>[],
  contribution: (listIndex: number, rank: number, item: T) => number,
): FusedCandidate<T>[] {
  const byId = new Map<number, FusedCandidate<T>>();
  lists.forEach((list, li) => {
    const seen = new Set<number>();
    list.items.forEach((item, rank) => {
      if (seen.has(item.chunkId)) return;
      seen.add(item.chunkId);
      let fused = byId.get(item.chunkId);
      if (!fused) {
        fused = {
          chunkId: item.chunkId,
          path: item.path,
          seq: item.seq,
          score: 0,
          ranks: {},
          listScores: {},
          item,
        };
        byId.set(item.chunkId, fused);
      }
      fused.score += contribution(li, rank, item);
      fused.ranks[list.name] = rank + 1;
      fused.listScores[list.name] = item.score;
    });
  });
  return [...byId.values()].sort(compareRanked);
}

function weightOf(weights: Readonly<Record<string, number>> | undefined, name: string): number {
  const w = weights?.[name];
  return w === undefined ? 1 : w;
}

/** Plain RRF (every list weight 1), CFS-012 section 4. */
export function reciprocalRankFusion<T extends RankedCandidate>(
  lists: readonly RankedList<T>[],
  options: { k?: number | undefined } = {},
): FusedCandidate<T>[] {
  const k = options.k ?? RRF_K;
  return combine(lists, (_li, rank) => rrfTerm(rank, k));
}

/** Weighted RRF: list `name` contributes weights[name] / (k + rank + 1); missing weights are 1. */
export function weightedRrf<T extends RankedCandidate>(
  lists: readonly RankedList<T>[],
  weights: Readonly<Record<string, number>>,
  options: { k?: number | undefined } = {},
): FusedCandidate<T>[] {
  const k = options.k ?? RRF_K;
  const w = lists.map((l) => weightOf(weights, l.name));
  return combine(lists, (li, rank) => w[li]! * rrfTerm(rank, k));
}

/** Min-max normalisation of one list's scores to [0, 1]; a flat list maps to all 1. */
export function minMaxNormalise(scores: readonly number[]): number[] {
  if (scores.length === 0) return [];
  let min = Infinity;
  let max = -Infinity;
  for (const s of scores) {
    if (s < min) min = s;
    if (s > max) max = s;
  }
  const range = max - min;
  return scores.map((s) => (range > 0 ? (s - min) / range : 1));
}

/**
 * Score combination (CombSUM of min-max normalised scores, Anserini's "interpolation"):
 * sum of weights[name] * normalised score; a chunk a list did not return adds 0 for it.
 */
export function minMaxFusion<T extends RankedCandidate>(
  lists: readonly RankedList<T>[],
  weights: Readonly<Record<string, number>> = {},
): FusedCandidate<T>[] {
  const norm = lists.map((l) => minMaxNormalise(l.items.map((i) => i.score)));
  const w = lists.map((l) => weightOf(weights, l.name));
  return combine(lists, (li, rank) => w[li]! * norm[li]![rank]!);
}

// ---- adaptive weighting --------------------------------------------------------------------

/** What the adaptive weighting read from the two lists (shown in eval output and debug UI). */
export interface FusionSignals {
  /** Share of the semantic top N in the lexical top N (or top agreementLexicalDepth), 0..1. */
  agreement: number;
  /** Top-hit z-score within each list: (s1 - mean) / std over the list's scores (scale-free). */
  semanticTopZ: number;
  lexicalTopZ: number;
  /** squash(confidenceScale * (topZ - confidenceMid)) per list (0..1). */
  semanticConfidence: number;
  lexicalConfidence: number;
}

export interface AdaptiveParams {
  /**
   * Prior weights for the library and model (e.g. calibrated once per model on a train split,
   * or learned from the library). The query-level signals scale these.
   */
  prior: { semantic: number; lexical: number };
  /** 0..1: how much list agreement scales the semantic weight (0 = ignore agreement). */
  agreementGain: number;
  /** Depth N of the agreement overlap. */
  agreementDepth: number;
  /**
   * Optional: look the semantic top-N up in this deeper lexical prefix instead (agreement =
   * share of the semantic top N that the lexical top `agreementLexicalDepth` also found).
   * Unset: the symmetric top-N overlap.
   */
  agreementLexicalDepth?: number | undefined;
  /**
   * Integer p >= 1: the agreement term uses agreement^p, so a dense list that shares little with
   * the lexical one is trusted much less than one that shares a lot (p = 1: linear). Integer
   * powers by repeated multiplication, because Math.pow is engine-approximated.
   */
  agreementPower: number;
  /** 0..1: how much each list's own confidence scales its weight (0 = ignore). */
  confidenceGain: number;
  /** Top-hit z-score at which a list counts as half-confident. */
  confidenceMid: number;
  /** Steepness of the confidence sigmoid (`squash`). */
  confidenceScale: number;
  /** Floor for each weight after scaling (keeps a list from vanishing entirely unless 0). */
  minWeight: number;
}

/**
 * Chosen on SciFact TRAIN queries only (ml/hybrid-tune.ts; eval/README.md "Hybrid
 * retrieval"): equal priors (no per-dataset constant) and the dense weight gated by
 * agreement^2, agreement = share of the dense top 5 that the lexical top 10 also found. A dense
 * list whose best hits the lexical list does not corroborate barely moves it (USE-lite on
 * SciFact train: nDCG@10 0.6870 vs lexical 0.6877, plain RRF 0.5914); lists that corroborate
 * each other fuse as weighted RRF (0.6 -> 0.36, 1 -> 1). The top-5-in-top-10 form scored the
 * same as the symmetric top-10 overlap on real train queries and better when the dense list
 * was made stronger in simulation.
 */
export const DEFAULT_ADAPTIVE: AdaptiveParams = {
  prior: { semantic: 1, lexical: 1 },
  agreementGain: 1,
  agreementDepth: 5,
  agreementLexicalDepth: 10,
  agreementPower: 2,
  confidenceGain: 0.5,
  confidenceMid: 2,
  confidenceScale: 1.5,
  // Small but not 0: chunks only the weak list found still keep that list's order at the tail.
  minWeight: 0.01,
};

/** (s1 - mean) / std over a list's scores; 0 for fewer than 2 scores or a flat list. */
export function topZ(scores: readonly number[]): number {
  const n = scores.length;
  if (n < 2) return 0;
  let mean = 0;
  for (const s of scores) mean += s;
  mean /= n;
  let v = 0;
  for (const s of scores) v += (s - mean) * (s - mean);
  const std = Math.sqrt(v / n);
  if (!(std > 0)) return 0;
  let top = -Infinity;
  for (const s of scores) if (s > top) top = s;
  return (top - mean) / std;
}

/** Share of the top-`depth` chunk ids two lists have in common (0..1; 0 when either is empty). */
export function agreementAt(
  a: readonly { chunkId: number }[],
  b: readonly { chunkId: number }[],
  depth: number,
): number {
  const n = Math.min(depth, a.length, b.length);
  if (n === 0) return 0;
  const top = new Set(a.slice(0, depth).map((x) => x.chunkId));
  let common = 0;
  for (const x of b.slice(0, depth)) if (top.has(x.chunkId)) common++;
  return common / Math.min(depth, Math.max(a.length, b.length));
}

/** Share of `a`'s top `depthA` that `b`'s top `depthB` also holds (0..1; 0 when either is empty). */
export function agreementIn(
  a: readonly { chunkId: number }[],
  b: readonly { chunkId: number }[],
  depthA: number,
  depthB: number,
): number {
  const n = Math.min(depthA, a.length);
  if (n === 0 || b.length === 0) return 0;
  const inB = new Set(b.slice(0, depthB).map((x) => x.chunkId));
  let common = 0;
  for (const x of a.slice(0, n)) if (inB.has(x.chunkId)) common++;
  return common / n;
}

/**
 * A sigmoid from +, -, *, / only (x / (1 + |x|) moved to (0, 1)): those are correctly rounded
 * on every engine, while Math.exp is only "implementation-approximated" in ECMAScript, and the
 * fused order must be the same on every device (CFS-012 section 6).
 */
export function squash(x: number): number {
  return 0.5 + (0.5 * x) / (1 + Math.abs(x));
}

/**
 * Per-query weights for the semantic and lexical lists. Each prior is scaled by
 * (1 - confidenceGain) + confidenceGain * confidence(list); the semantic weight is further
 * scaled by (1 - agreementGain) + agreementGain * agreement^agreementPower, because a dense list
 * that shares nothing with the lexical one is more often the wrong one on keyword-heavy
 * collections (SciFact train: trusting USE-lite costs 0.13 nDCG@10 on queries with agreement
 * below 0.1 and 0.02 above 0.5), while
 * the lexical list keeps its own evidence (term matches). Weights are returned as given scale
 * (not normalised): only their ratio matters to the fused order.
 */
export function adaptiveWeights(
  semantic: readonly RankedCandidate[],
  lexical: readonly RankedCandidate[],
  params: AdaptiveParams = DEFAULT_ADAPTIVE,
): { weights: { semantic: number; lexical: number }; signals: FusionSignals } {
  const semanticTopZ = topZ(semantic.map((c) => c.score));
  const lexicalTopZ = topZ(lexical.map((c) => c.score));
  const conf = (z: number, n: number): number =>
    n === 0 ? 0 : squash(params.confidenceScale * (z - params.confidenceMid));
  const semanticConfidence = conf(semanticTopZ, semantic.length);
  const lexicalConfidence = conf(lexicalTopZ, lexical.length);
  const agreement =
    params.agreementLexicalDepth === undefined
      ? agreementAt(semantic, lexical, params.agreementDepth)
      : agreementIn(semantic, lexical, params.agreementDepth, params.agreementLexicalDepth);
  let gate = 1;
  for (let i = 0; i < Math.max(1, Math.floor(params.agreementPower)); i++) gate *= agreement;
  const cg = params.confidenceGain;
  const ag = params.agreementGain;
  const floor = (w: number, prior: number): number =>
    prior === 0 ? 0 : Math.max(params.minWeight, w);
  const s = params.prior.semantic * (1 - cg + cg * semanticConfidence) * (1 - ag + ag * gate);
  const l = params.prior.lexical * (1 - cg + cg * lexicalConfidence);
  return {
    weights: { semantic: floor(s, params.prior.semantic), lexical: floor(l, params.prior.lexical) },
    signals: { agreement, semanticTopZ, lexicalTopZ, semanticConfidence, lexicalConfidence },
  };
}

// ---- one entry point for the hybrid search ----------------------------------------------

/** A serialisable choice of fusion (settings, eval CLI flags); `custom` plugs in any weighting. */
export type FusionMethod =
  | { kind: 'rrf'; k?: number | undefined }
  | { kind: 'weighted-rrf'; k?: number | undefined; weights: { semantic: number; lexical: number } }
  | { kind: 'minmax'; weights?: { semantic: number; lexical: number } | undefined }
  | {
      kind: 'adaptive';
      combine?: 'rrf' | 'minmax';
      k?: number | undefined;
      params?: Partial<AdaptiveParams>;
    };

export interface FusionResult<T extends RankedCandidate> {
  items: FusedCandidate<T>[];
  weights: { semantic: number; lexical: number };
  signals: FusionSignals | null;
}

/** Fuses the semantic and lexical lists (both best first) with the chosen method. */
export function fuseHybrid<T extends RankedCandidate>(
  semantic: readonly T[],
  lexical: readonly T[],
  method: FusionMethod = { kind: 'rrf' },
): FusionResult<T> {
  const lists: RankedList<T>[] = [
    { name: 'semantic', items: semantic },
    { name: 'lexical', items: lexical },
  ];
  switch (method.kind) {
    case 'rrf':
      return {
        items: reciprocalRankFusion(lists, { k: method.k }),
        weights: { semantic: 1, lexical: 1 },
        signals: null,
      };
    case 'weighted-rrf':
      return {
        items: weightedRrf(lists, method.weights, { k: method.k }),
        weights: { ...method.weights },
        signals: null,
      };
    case 'minmax': {
      const weights = method.weights ?? { semantic: 1, lexical: 1 };
      return { items: minMaxFusion(lists, weights), weights: { ...weights }, signals: null };
    }
    case 'adaptive': {
      const params: AdaptiveParams = {
        ...DEFAULT_ADAPTIVE,
        ...method.params,
        prior: { ...DEFAULT_ADAPTIVE.prior, ...method.params?.prior },
      };
      const { weights, signals } = adaptiveWeights(semantic, lexical, params);
      const items =
        method.combine === 'minmax'
          ? minMaxFusion(lists, weights)
          : weightedRrf(lists, weights, { k: method.k });
      return { items, weights, signals };
    }
  }
}
