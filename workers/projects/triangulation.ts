// Triangulation of a claim (WSOP phase_5 "ProofGuard"): from the judged sources of a claim, its
// status — VERIFIED (>= 3 independent supporting sources), LIKELY (1-2), UNVERIFIED (none),
// CONTESTED (a credible source contradicts it) — with the sources behind it; and the protocol's
// objective measures over a project's claims (triangulation coverage, tier-1 ratio).
// Independence: sources sharing a registered domain, author or publisher count once.
import type { QualityGrade } from '../shared/types';
import { gradeAtLeast, type Provenance } from './provenance';
import type { Stance } from './stance-model';

export type TriangulationStatus = 'VERIFIED' | 'LIKELY' | 'UNVERIFIED' | 'CONTESTED';

export interface JudgedSource {
  id: string;
  provenance: Provenance;
  stance: Stance;
  supportScore: number;
}

export interface Triangulation {
  status: TriangulationStatus;
  /** Independent supporting sources (one per independence group). */
  independentSupport: number;
  supporting: JudgedSource[];
  contradicting: JudgedSource[];
}

export const VERIFIED_SOURCES = 3;
/** A contradiction from a source graded this or better makes the claim CONTESTED. */
export const CREDIBLE_GRADE: QualityGrade = 'C';

/** Groups sources that are not independent (same registered domain, author or publisher). */
export function independentGroups(sources: JudgedSource[]): JudgedSource[][] {
  const parent = sources.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
  const keyOwner = new Map<string, number>();
  sources.forEach((s, i) => {
    const p = s.provenance;
    const keys = [
      p.domain ? `d:${p.domain}` : null,
      p.author ? `a:${p.author.trim().toLowerCase()}` : null,
      p.publisher ? `p:${p.publisher.trim().toLowerCase()}` : null,
      // A local file with no domain/author/publisher is its own group.
    ].filter((k): k is string => k !== null);
    for (const k of keys) {
      const owner = keyOwner.get(k);
      if (owner === undefined) keyOwner.set(k, i);
      else parent[find(i)] = find(owner);
    }
  });
  const groups = new Map<number, JudgedSource[]>();
  sources.forEach((s, i) => {
    const r = find(i);
    groups.set(r, [...(groups.get(r) ?? []), s]);
  });
  return [...groups.values()];
}

export function triangulate(
  sources: JudgedSource[],
  options: { minGrade?: QualityGrade } = {},
): Triangulation {
  const eligible = options.minGrade
    ? sources.filter((s) => gradeAtLeast(s.provenance.grade, options.minGrade!))
    : sources;
  const supporting = eligible.filter((s) => s.stance === 'SUPPORT');
  const contradicting = eligible.filter((s) => s.stance === 'CONTRADICT');
  const independentSupport = independentGroups(supporting).length;
  const credibleContradiction = contradicting.some((s) =>
    gradeAtLeast(s.provenance.grade, CREDIBLE_GRADE),
  );
  const status: TriangulationStatus = credibleContradiction
    ? 'CONTESTED'
    : independentSupport >= VERIFIED_SOURCES
      ? 'VERIFIED'
      : independentSupport > 0
        ? 'LIKELY'
        : 'UNVERIFIED';
  return { status, independentSupport, supporting, contradicting };
}

export interface ObjectiveMeasures {
  /** (claims_with_3_sources / total_claims) * 100; target >= 90. */
  triangulationCoverage: number;
  /** tier_1_sources / total_sources over every distinct source cited as evidence; target >= 0.5. */
  tier1Ratio: number;
  /** sum(query_latencies) / query_count in ms; target < 5000. */
  averageLatencyMs: number | null;
  claims: number;
  sources: number;
  byStatus: Record<TriangulationStatus, number>;
}

export function objectiveMeasures(
  results: Triangulation[],
  latenciesMs: number[] = [],
): ObjectiveMeasures {
  const byStatus: Record<TriangulationStatus, number> = {
    VERIFIED: 0,
    LIKELY: 0,
    UNVERIFIED: 0,
    CONTESTED: 0,
  };
  const sources = new Map<string, Provenance>();
  let withThree = 0;
  for (const r of results) {
    byStatus[r.status]++;
    if (r.independentSupport >= VERIFIED_SOURCES) withThree++;
    for (const s of [...r.supporting, ...r.contradicting]) sources.set(s.id, s.provenance);
  }
  const tier1 = [...sources.values()].filter((p) => p.tier === 1).length;
  return {
    triangulationCoverage: results.length ? (withThree / results.length) * 100 : 0,
    tier1Ratio: sources.size ? tier1 / sources.size : 0,
    averageLatencyMs: latenciesMs.length
      ? latenciesMs.reduce((a, b) => a + b, 0) / latenciesMs.length
      : null,
    claims: results.length,
    sources: sources.size,
    byStatus,
  };
}
