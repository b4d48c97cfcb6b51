// A claim check (issue 17 item 4+5): search the library (optionally one project, optionally a
// minimum grade — B or better for key claims), judge the distinct sources of the hits with the
// stance model, and triangulate. Search, document text and provenance are injected, so the same
// check runs on the lexical, hybrid or planned search. Cancellable between sources; a source that
// disappears mid-check is skipped and reported, never thrown. Imports shared and projects.
import { createError } from '../shared/errors';
import type { QualityGrade, SearchHit, SearchRequest } from '../shared/types';
import type { EvidenceJudge, SourceJudgement } from './evidence';
import type { Provenance } from './provenance';
import { triangulate, type JudgedSource, type Triangulation } from './triangulation';

export interface ClaimCheckDeps {
  judge: EvidenceJudge;
  search(request: SearchRequest): Promise<{ hits: SearchHit[] }>;
  /** The document's text, or null when it was deleted meanwhile. */
  documentText(documentId: number): Promise<string | null>;
  provenance(documentId: number): Promise<Provenance | null>;
  now?: () => number;
}

export interface ClaimCheckOptions {
  project?: number;
  minGrade?: QualityGrade;
  /** How many distinct sources to judge (default 8). */
  sources?: number;
  signal?: { aborted: boolean };
}

export interface ClaimEvidence extends JudgedSource {
  documentId: number;
  judgement: SourceJudgement;
}

export interface ClaimCheck {
  claim: string;
  triangulation: Triangulation;
  evidence: ClaimEvidence[];
  /** Sources that vanished between search and judgement. */
  skipped: number[];
  tookMs: number;
}

/** @throws AppError ABORTED when `signal.aborted` turns true. */
export async function checkClaim(
  deps: ClaimCheckDeps,
  claim: string,
  options: ClaimCheckOptions = {},
): Promise<ClaimCheck> {
  const now = deps.now ?? (() => performance.now());
  const t0 = now();
  const limit = options.sources ?? 8;
  const filters = {
    ...(options.project !== undefined ? { project: options.project } : {}),
    ...(options.minGrade ? { minGrade: options.minGrade } : {}),
  };
  const { hits } = await deps.search({ query: claim, limit: limit * 4, filters });
  const docIds = [...new Set(hits.map((h) => h.documentId))].slice(0, limit);
  const view = await deps.judge.claimView(claim);
  const evidence: ClaimEvidence[] = [];
  const skipped: number[] = [];
  for (const id of docIds) {
    if (options.signal?.aborted) throw createError('ABORTED', { reason: 'Claim check cancelled.' });
    const [text, provenance] = await Promise.all([deps.documentText(id), deps.provenance(id)]);
    if (text === null || provenance === null) {
      skipped.push(id);
      continue;
    }
    const judgement = await deps.judge.judge(view, text);
    evidence.push({
      id: String(id),
      documentId: id,
      provenance,
      stance: judgement.stance,
      supportScore: judgement.supportScore,
      judgement,
    });
  }
  const tri = triangulate(evidence, options.minGrade ? { minGrade: options.minGrade } : {});
  return { claim, triangulation: tri, evidence, skipped, tookMs: now() - t0 };
}
