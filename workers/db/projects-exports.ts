// Library data -> the projects room's export shapes (issue 17 item 8): documents to export sources
// with provenance, stored claim checks to triangulations and retrieval stats, an answer to the
// report's answer section. Also the stored form of a claim check (`ClaimCheckView`). Reads no
// settings, so no API key can reach an export.
import type { StoredAnswer } from '../shared/answer-history-api';
import {
  claimCheckOf,
  type AuditRowView,
  type ClaimCheckView,
  type ClaimEvidenceView,
  type Project,
  type ProjectClaim,
  type ProjectExportFiles,
} from '../shared/projects-api';
import { pagesOf, type PageStarts } from '../shared/pages';
import { safeJson } from '../shared/safe-markdown';
import type { DocumentSummary, QualityGrade } from '../shared/types';
import type { JudgedSentence } from '../projects/evidence';
import type { ClaimCheck } from '../projects/claim-check';
import {
  indexMetadata,
  projectReport,
  retrievalAudit,
  type AuditRow,
  type ExportSource,
  type RetrievalStats,
} from '../projects/exports';
import { provenanceOf, type Provenance, type ProvenanceTier } from '../projects/provenance';
import { citeAuthorYear, type DocumentBiblio } from '../shared/biblio';
import {
  objectiveMeasures,
  type JudgedSource,
  type Triangulation,
} from '../projects/triangulation';

/**
 * A library document's provenance: its URL when it came from the web, else its path; a grade the
 * library stored for it wins over the grade table's.
 */
export function provenanceOfDocument(d: {
  path: string;
  title: string;
  importedAt: number;
  sourceUrl: string | null;
  qualityGrade: QualityGrade | null;
}): Provenance {
  const p = provenanceOf(
    { location: d.sourceUrl ?? d.path, title: d.title, date: d.importedAt },
    undefined,
  );
  return d.qualityGrade ? { ...p, grade: d.qualityGrade } : p;
}

/**
 * The stored form of a claim check: every judged source with its role in the triangulation, and
 * each sentence's PDF pages from its document's page starts (`pageStarts`, absent: no pages).
 */
export function toClaimView(
  r: ClaimCheck,
  minGrade: QualityGrade | null,
  pageStarts: (documentId: number) => PageStarts | null = () => null,
): ClaimCheckView {
  const supporting = new Set(r.triangulation.supporting.map((s) => s.id));
  const contradicting = new Set(r.triangulation.contradicting.map((s) => s.id));
  return {
    claim: r.claim,
    status: r.triangulation.status,
    independentSupport: r.triangulation.independentSupport,
    evidence: r.evidence.map((e): ClaimEvidenceView => ({
      documentId: e.documentId,
      provenance: e.provenance,
      stance: e.stance,
      supportScore: e.supportScore,
      judgedBy: e.judgement.judgedBy,
      role: supporting.has(e.id)
        ? 'supporting'
        : contradicting.has(e.id)
          ? 'contradicting'
          : 'neutral',
      sentences: e.judgement.sentences.map((s) => {
        const pages = pagesOf(pageStarts(e.documentId), s.start, s.end);
        return {
          text: s.text,
          start: s.start,
          end: s.end,
          stance: s.stance,
          probs: s.probs,
          evidence: s.evidence,
          ...(pages ? { pages } : {}),
        };
      }),
    })),
    skipped: r.skipped,
    tookMs: r.tookMs,
    minGrade,
  };
}

function triangulationOf(v: ClaimCheckView): Triangulation {
  const judged = (role: ClaimEvidenceView['role']): JudgedSource[] =>
    v.evidence
      .filter((e) => e.role === role)
      .map((e) => ({
        id: String(e.documentId),
        provenance: e.provenance as Provenance,
        stance: e.stance,
        supportScore: e.supportScore,
      }));
  return {
    status: v.status,
    independentSupport: v.independentSupport,
    supporting: judged('supporting'),
    contradicting: judged('contradicting'),
  };
}

/** Retrieval stats over the project's claim checks (one evidence search per checked claim). */
function retrievalStats(views: ClaimCheckView[]): RetrievalStats {
  const n = views.length;
  const relevance = views.map((v) => Math.max(0, ...v.evidence.map((e) => e.supportScore)));
  return {
    total_queries: n,
    avg_results_per_query: n ? views.reduce((s, v) => s + v.evidence.length, 0) / n : 0,
    cache_hit_rate: 0,
    zero_result_queries: views.filter((v) => v.evidence.length === 0).length,
    ...(n ? { avg_relevance: relevance.reduce((a, b) => a + b, 0) / n } : {}),
  };
}

function auditRows(rows: AuditRowView[]): AuditRow[] {
  return rows.map((r) => ({
    claim: r.claim,
    citedSource: r.citedSource,
    audit: {
      status: r.status,
      ...(r.supportScore === null ? {} : { supportScore: r.supportScore }),
      ...(r.stance === null ? {} : { stance: r.stance }),
      // Only the passage's text and offsets reach an export.
      ...(r.passage ? { passage: r.passage as JudgedSentence } : {}),
    },
    ...(r.passage?.pages ? { pages: r.passage.pages } : {}),
  }));
}

function answerSection(a: StoredAnswer, citeOf: (documentId: number | null) => string | null) {
  const tierOf = (t: string | undefined): ProvenanceTier | undefined => {
    const n = Number(t);
    return n >= 1 && n <= 5 ? (n as ProvenanceTier) : undefined;
  };
  return {
    sentences: a.sentences.map((s) => ({ text: s.text, citations: s.citations })),
    citations: a.references.map((r) => {
      const citation = citeOf(r.documentId);
      return {
        n: r.n,
        provenance: {
          ...provenanceOf(
            { location: r.url ?? r.path, title: r.title, date: a.createdAt },
            tierOf(r.tier),
          ),
          ...(citation ? { citation } : {}),
        },
      };
    }),
  };
}

export function buildExports(input: {
  project: Project;
  documents: DocumentSummary[];
  claims: ProjectClaim[];
  audit: AuditRowView[];
  answer: StoredAnswer | null;
  /** Bibliographic records of the documents: the report cites them author-year. */
  biblio?: readonly DocumentBiblio[];
}): ProjectExportFiles {
  const records = new Map((input.biblio ?? []).map((b) => [b.documentId, b]));
  const citeOf = (id: number | null) => (id === null ? null : citeAuthorYear(records.get(id)));
  const sources: ExportSource[] = input.documents.map((d) => {
    const citation = citeOf(d.id);
    return {
      hash: d.contentHash.slice(0, 12),
      provenance: { ...provenanceOfDocument(d), ...(citation ? { citation } : {}) },
      passageCount: d.chunkCount,
    };
  });
  const checked = input.claims
    .map((c) => ({ claim: c, view: claimCheckOf(c) }))
    .filter((x): x is { claim: ProjectClaim; view: ClaimCheckView } => x.view !== null);
  const stats = retrievalStats(checked.map((x) => x.view));
  const rows = auditRows(input.audit);
  const triangulations = checked.map((x) => triangulationOf(x.view));
  let report = projectReport({
    project: input.project.name,
    question: input.project.question || input.answer?.question || '',
    ...(input.answer ? { answer: answerSection(input.answer, citeOf) } : {}),
    claims: checked.map((x, i) => ({ text: x.claim.text, triangulation: triangulations[i]! })),
    audit: rows,
    measures: objectiveMeasures(
      triangulations,
      checked.map((x) => x.view.tookMs),
    ),
    references: sources.map((s) => s.provenance),
  });
  const unchecked = input.claims.length - checked.length;
  if (unchecked > 0)
    report += `\n_${unchecked} claim(s) not checked yet are not in the claims table._\n`;
  return {
    report: { name: `${slug(input.project.name)}-report.md`, text: report },
    indexMetadata: {
      name: 'index_metadata.json',
      text: `${safeJson(indexMetadata(sources, stats), 2)}\n`,
    },
    retrievalAudit: { name: 'retrieval_audit.md', text: retrievalAudit(sources, stats, rows) },
  };
}

function slug(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'project'
  );
}
