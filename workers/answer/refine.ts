// CRAG-003/004 knowledge refinement: decompose each passage window into strips (sentences,
// long ones split at clauses), score each strip against the question with the fitted strip
// model, keep those above the fitted threshold, recompose in source order (documents by rank,
// strips by offset) with document, chunk, exact offsets and score.
import type { Strip } from '../shared/answer-api';
import { approxTokenCount } from '../query-plan/text';
import type { QueryContext } from './features';
import { assertFittedFeatures } from '../shared/fitted-features';
import { fittedKeyFor, logisticScore, type FittedModel } from './fitted';
import type { Passage } from './passages';
import { contentStems, coverage, pairCoverage, strips as splitStrips, type Span } from './text';

export const STRIP_FEATURES = [
  'pLogit',
  'passageRankInv',
  'covW',
  'covP',
  'pairs',
  'rarestHit',
  'lenLog',
  'bestInPassage',
  'orderInPassage',
] as const;

export interface ScoredStrip extends Strip {
  passageRank: number;
  features: Record<string, number>;
}

export interface Refinement {
  /** Every strip of the windows, scored (source order). */
  all: ScoredStrip[];
  /** Strips kept (score >= fitted keep), recomposed in source order. */
  kept: ScoredStrip[];
  retrievedTokens: number;
  keptTokens: number;
}

function chunkAt(p: Passage, offset: number): number | null {
  const hit = p.hits.find((h) => offset >= h.start && offset < h.end);
  return hit?.chunkId ?? p.chunkIds[0] ?? null;
}

/** Strips of a passage window with their features (scores filled by `refine`). */
export function passageStrips(
  q: QueryContext,
  p: Passage,
  passageScore: number,
): Array<{ span: Span; features: Record<string, number> }> {
  const spans: Span[] = p.text
    ? p.ranges.flatMap((r) => splitStrips(p.text, r.start, r.end))
    : p.hits.flatMap((h) => splitStrips(h.text).map((s) => ({ ...s, start: -1, end: -1 })));
  // Overlapping chunk windows are merged already; identical spans can still repeat: keep one.
  const seen = new Set<string>();
  const unique = spans.filter((s) => {
    const k = `${s.start}:${s.text}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
  const rarest = q.terms.weights.indexOf(Math.max(...q.terms.weights));
  const rows = unique.map((span) => {
    const st = contentStems(span.text);
    const set = new Set(st);
    const cov = coverage(q.terms, set);
    return {
      span,
      cov,
      features: {
        pLogit: Math.log(Math.max(1e-4, passageScore) / Math.max(1e-4, 1 - passageScore)),
        passageRankInv: 1 / p.rank,
        covW: cov.weighted,
        covP: cov.plain,
        pairs: pairCoverage(q.ordered, st),
        rarestHit: rarest >= 0 && set.has(q.terms.stems[rarest]!) ? 1 : 0,
        lenLog: Math.log(1 + st.length),
        bestInPassage: 0,
        orderInPassage: 0,
        // Where the strip sits in its document and whether it reports figures: the rationale
        // ranker's (rationale-rank.ts) features, not the strip model's.
        ...positionFeatures(span, p.text.length),
        digits: Math.min(3, (span.text.match(/\p{N}/gu) ?? []).length / 3),
      },
    };
  });
  const best = Math.max(0, ...rows.map((r) => r.cov.weighted));
  const order = [...rows].sort((a, b) => b.cov.weighted - a.cov.weighted);
  order.forEach((r, i) => {
    r.features.bestInPassage = best > 0 ? r.cov.weighted / best : 0;
    r.features.orderInPassage = 1 / (i + 1);
  });
  return rows.map(({ span, features }) => ({ span, features }));
}

/** Relative start and end of a strip in its document (absent when the offsets are unknown). */
function positionFeatures(span: Span, length: number): Record<string, number> {
  if (span.start < 0 || length <= 0) return {};
  return { relPos: span.start / length, relEnd: span.end / length };
}

export function refine(
  q: QueryContext,
  passages: Passage[],
  passageScores: number[],
  fitted: FittedModel,
): Refinement {
  const file = `workers/fitted/evaluator-${fittedKeyFor(fitted.modelId)}.json`;
  assertFittedFeatures(fitted.strip, STRIP_FEATURES, file, 'evaluator');
  const all: ScoredStrip[] = [];
  passages.forEach((p, i) => {
    for (const { span, features } of passageStrips(q, p, passageScores[i] ?? 0)) {
      all.push({
        id: `d${p.documentId}:${span.start}-${span.end}`,
        source: 'library',
        documentId: p.documentId,
        chunkId: chunkAt(p, span.start),
        path: p.path,
        title: p.title,
        start: span.start,
        end: span.end,
        text: span.text,
        score: logisticScore(fitted.strip, features),
        passageRank: p.rank,
        features,
      });
    }
  });
  const kept = all.filter((s) => s.score >= fitted.strip.keep);
  const tokens = (list: ScoredStrip[]) => list.reduce((a, s) => a + approxTokenCount(s.text), 0);
  const retrievedTokens = passages.reduce(
    (a, p) =>
      a +
      (p.text
        ? p.ranges.reduce((b, r) => b + approxTokenCount(p.text.slice(r.start, r.end)), 0)
        : p.hits.reduce((b, h) => b + approxTokenCount(h.text), 0)),
    0,
  );
  return { all, kept, retrievedTokens, keptTokens: tokens(kept) };
}
