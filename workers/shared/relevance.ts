// Relevance bands (issue 15 item 6): what a hit's score means, in words a user can trust. A band
// comes from the retrievers' raw scores (BM25 as a share of the query's best attainable score;
// the embedding model's cosine), with thresholds fitted on SciFact TRAIN by
// ml/relevance-fit.ts (relevance-bands.json holds them, with the command and the
// measured precision of each band). Never from a rank: the first hit of a poor query is Low.
// Pure: imports only its fitted data.
import fitted from '../fitted/relevance-bands.json' with { type: 'json' };

export type RelevanceBand = 'high' | 'medium' | 'low';

/** Which score gave the band: keyword matching (BM25) or meaning (the embedding model). */
export type RelevanceBasis = 'keywords' | 'meaning';

export interface Relevance {
  band: RelevanceBand;
  basis: RelevanceBasis;
  /** Share of training passages in this band (same basis and model) that were relevant. */
  precision: number;
}

/** Raw score at or above `high` is High, at or above `medium` Medium, else Low. */
export interface BandThresholds {
  high: number;
  medium: number;
  /** Share of training passages in each band that came from a relevant document. */
  precision: Record<RelevanceBand, number>;
  /** Training passages in each band. */
  count: Record<RelevanceBand, number>;
}

export interface RelevanceFit {
  command: string;
  date: string;
  fittedOn: string;
  /** The calibrated probability of relevance each band starts at. */
  probability: { high: number; medium: number };
  /** Threshold on BM25 / the query's best attainable BM25 (0..1). */
  lexical: BandThresholds;
  /** Thresholds on the cosine, per embedding model id. */
  semantic: Record<string, BandThresholds>;
}

export const RELEVANCE_FIT: RelevanceFit = fitted;

const ORDER: Record<RelevanceBand, number> = { high: 2, medium: 1, low: 0 };

/** The band of a raw score against fitted thresholds. */
export function bandOf(value: number, t: Pick<BandThresholds, 'high' | 'medium'>): RelevanceBand {
  return value >= t.high ? 'high' : value >= t.medium ? 'medium' : 'low';
}

/** The signals a hit was found with; either may be absent (not in that retriever's list). */
export interface RelevanceSignals {
  /** Raw BM25 and the query's best attainable BM25 (same query, same library). */
  lexical?: { score: number; maxScore: number } | undefined;
  /** Cosine to the query under `modelId`. */
  cosine?: number | undefined;
  modelId?: string | undefined;
}

/**
 * The best band any of the hit's signals gives (a hit found by both lists takes the stronger
 * evidence); null when no signal has fitted thresholds (a model never fitted, no BM25).
 */
export function relevanceOf(
  signals: RelevanceSignals,
  fit: RelevanceFit = RELEVANCE_FIT,
): Relevance | null {
  const out: Relevance[] = [];
  const lex = signals.lexical;
  const rated = (t: BandThresholds, value: number, basis: RelevanceBasis): Relevance => {
    const band = bandOf(value, t);
    return { band, basis, precision: t.precision[band] };
  };
  if (lex && lex.maxScore > 0) out.push(rated(fit.lexical, lex.score / lex.maxScore, 'keywords'));
  const sem = signals.modelId !== undefined ? fit.semantic[signals.modelId] : undefined;
  if (sem && signals.cosine !== undefined) out.push(rated(sem, signals.cosine, 'meaning'));
  // Ties keep keywords first: the order of the pushes.
  return out.reduce<Relevance | null>(
    (best, r) => (!best || ORDER[r.band] > ORDER[best.band] ? r : best),
    null,
  );
}

export const BAND_LABEL: Record<RelevanceBand, string> = {
  high: 'High',
  medium: 'Medium',
  low: 'Low',
};

/** What a band means, for its tooltip and accessible name: measured, not a rank. */
export function describeRelevance(r: Relevance): string {
  const how = r.basis === 'keywords' ? 'keyword match' : 'meaning match';
  return (
    `${BAND_LABEL[r.band]} relevance (${how}): on the scientific claims Sift was fitted on, ` +
    `${Math.round(r.precision * 100)}% of passages scoring like this were relevant. It says ` +
    `how well this passage matches the query, not where it ranks.`
  );
}
