// Citation audit (spec: advanced-retrieval-colbert-hyde.md, "citation_audit_with_colbert"): for a
// cited sentence, read the cited source's passages closest to it and score how well the source
// supports it. PASS when the support score is above AUDIT_PASS (the spec's 0.7), REVIEW below,
// SOURCE_NOT_INDEXED when the source is not in the library (removed after it was cited, or never
// imported) — a value, never an exception.
import { sourceStance, type EvidenceJudge, type JudgedSentence } from './evidence';
import type { TextView } from '../text-features/stance-features';
import type { Stance } from './stance-model';

export const AUDIT_PASS = 0.7;

export type AuditStatus = 'PASS' | 'REVIEW' | 'SOURCE_NOT_INDEXED';

export interface CitationAudit {
  status: AuditStatus;
  /** 0..1; absent when the source is not indexed. */
  supportScore?: number;
  /** What the source says about the claim (a contradicting source is flagged even when it PASSes as relevant). */
  stance?: Stance;
  /** The source's passage that speaks most to the claim. */
  passage?: JudgedSentence;
}

export async function auditCitation(
  judge: EvidenceJudge,
  claim: TextView & { text: string },
  source: { text: string } | null,
): Promise<CitationAudit> {
  if (!source) return { status: 'SOURCE_NOT_INDEXED' };
  const j = await judge.judge(claim, source.text);
  const a = judge.auditCalibration;
  const score =
    j.sentences.length === 0
      ? 0
      : a
        ? auditScore(a, [j.supportScore, j.maxCosine, j.maxOverlap])
        : j.supportScore;
  const passage = [...j.sentences].sort((a, b) => a.probs[2] - b.probs[2] || a.start - b.start)[0];
  return {
    status: score > AUDIT_PASS ? 'PASS' : 'REVIEW',
    supportScore: score,
    // The sentences' own label, before the claim check's evidence gate and its SUPPORT bias: the
    // audit's support score already says whether the source speaks to the sentence.
    stance: sourceStance(j.sentences),
    ...(passage ? { passage } : {}),
  };
}

/** The calibrated audit score for [max 1-P(NEUTRAL), max cosine, max overlap]. */
export function auditScore(
  a: NonNullable<EvidenceJudge['auditCalibration']>,
  x: [number, number, number],
): number {
  return (
    1 / (1 + Math.exp(-(a.intercept + a.notNeutral * x[0] + a.cosine * x[1] + a.overlap * x[2])))
  );
}
