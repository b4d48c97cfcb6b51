// The research-projects contract the library service exposes (workers/projects/project-store.ts
// implements it): named collections of documents, their claims and per-project stats. Scoping a
// search to a project is `SearchFilters.project`. Claim checks, citation audits and exports are
// composed in workers/db/projects-link.ts. Plain types (and the reader of a stored check).
import type { QualityGrade } from './types';

export interface Project {
  id: number;
  name: string;
  question: string;
  createdAt: number;
  updatedAt: number;
}

export interface ProjectStats {
  documents: number;
  chunks: number;
  totalSize: number;
  claims: number;
  /** Documents per quality grade ('none' = ungraded). */
  /** Documents per quality grade; an ungraded one counts as OWN_DOCUMENT_GRADE. */
  grades: Partial<Record<QualityGrade, number>>;
  /** Newest import date of a member document (ms), or null. */
  newestImport: number | null;
}

export interface ProjectClaim {
  id: number;
  seq: number;
  text: string;
  keyClaim: boolean;
  checkedAt: number | null;
  /** The last check's result as stored (JSON), or null. */
  result: unknown;
}

export interface ProjectsApi {
  /** @throws AppError INVALID_ARGUMENT when the name is empty or taken */
  createProject(name: string, question?: string): Promise<Project>;
  listProjects(): Promise<Project[]>;
  /** @throws AppError NOT_FOUND, INVALID_ARGUMENT */
  updateProject(id: number, patch: { name?: string; question?: string }): Promise<Project>;
  /** Deletes the project, its memberships and claims; documents stay in the library. */
  deleteProject(id: number): Promise<void>;
  /** @returns how many documents were new to the project. @throws AppError NOT_FOUND */
  addToProject(id: number, documentIds: number[]): Promise<number>;
  removeFromProject(id: number, documentIds: number[]): Promise<number>;
  projectDocuments(id: number): Promise<number[]>;
  projectsOfDocument(documentId: number): Promise<Project[]>;
  /** @throws AppError NOT_FOUND */
  projectStats(id: number): Promise<ProjectStats>;
  /** Replaces the claim list (order kept, blank lines dropped). @throws AppError NOT_FOUND */
  setProjectClaims(
    id: number,
    claims: Array<{ text: string; keyClaim?: boolean }>,
  ): Promise<ProjectClaim[]>;
  projectClaims(id: number): Promise<ProjectClaim[]>;
  /**
   * Checks one claim of the project (evidence search in the project, stance, triangulation),
   * stores the result (a `ClaimCheckView` in `ProjectClaim.result`) and returns the claim.
   * @throws AppError NOT_FOUND (claim or project deleted), ABORTED (cancelClaimCheck),
   *   MODEL_LOAD_FAILED (no embedding model loaded, or none the stance model was fitted for)
   */
  checkProjectClaim(
    projectId: number,
    claimId: number,
    options?: { minGrade?: QualityGrade },
    requestId?: string,
  ): Promise<ProjectClaim>;
  cancelClaimCheck(requestId: string): Promise<void>;
  /**
   * Claims in an answer or a pasted draft. By default without an LLM: the sentences that state
   * something (headings, questions, fragments and the reference list dropped; citation markers
   * removed). With `useLlm` and an active backend, those sentences are restated by the model as
   * short self-contained claims (a group it fails on keeps its sentences; no backend: the split,
   * `method: 'sentences'`, with a note saying why).
   * @throws AppError ABORTED when `cancelClaimCheck(requestId)` is called
   */
  extractDraftClaims(
    draft: string,
    options?: { useLlm?: boolean },
    requestId?: string,
  ): Promise<DraftClaims>;
  /**
   * Audits every citation of a draft: `[n]` markers resolved through `references` (an answer's)
   * or the draft's own reference lines (`[1] notes/a.txt`). A source not in the library is
   * SOURCE_NOT_INDEXED (a row, never an error). @throws AppError MODEL_LOAD_FAILED
   */
  auditDraft(input: AuditInput): Promise<AuditRowView[]>;
  /**
   * The draft with the citation `n` of the sentence at `at` (an audit row's) pointing to `label`
   * (a path or URL) instead: a new citation number and reference line, other uses of `n` kept.
   * Unchanged when that sentence has no marker `n`.
   */
  replaceDraftCitation(
    draft: string,
    at: { start: number; end: number },
    n: string,
    label: string,
  ): Promise<string>;
  /**
   * The project's exports: the Markdown report, `index_metadata.json` and `retrieval_audit.md`
   * (spec: advanced-retrieval-colbert-hyde.md). Built from library data only: no settings, so no
   * API key, can reach them. @throws AppError NOT_FOUND
   */
  projectExports(projectId: number, extra?: ExportExtra): Promise<ProjectExportFiles>;
}

export interface DraftClaims {
  claims: string[];
  method: 'llm' | 'sentences';
  /** Why the model was not used, or how many groups it failed on; null when nothing to say. */
  note: string | null;
}

export type TriangulationStatus = 'VERIFIED' | 'LIKELY' | 'UNVERIFIED' | 'CONTESTED';
export type StanceLabel = 'SUPPORT' | 'CONTRADICT' | 'NEUTRAL';

/** Where a source came from and how far to trust it (workers/projects/provenance.ts). */
export interface SourceProvenance {
  location: string;
  title: string;
  date: number;
  provider: string;
  tier: 1 | 2 | 3 | 4 | 5 | 'own';
  sourceType: string;
  grade: QualityGrade;
  domain: string | null;
}

/** A judged sentence of a source, with offsets into the document's text. */
export interface EvidenceSentence {
  text: string;
  start: number;
  end: number;
  stance: StanceLabel;
  /** P(SUPPORT), P(CONTRADICT), P(NEUTRAL). */
  probs: [number, number, number];
  /** Counted as evidence (P(NEUTRAL) below the model's threshold). */
  evidence: boolean;
  /** The PDF pages the sentence is on (absent for documents without pages). */
  pages?: { first: number; last: number };
}

export interface ClaimEvidenceView {
  documentId: number;
  provenance: SourceProvenance;
  stance: StanceLabel;
  supportScore: number;
  /** What the source counts as in the triangulation (neutral: not counted, or below minGrade). */
  role: 'supporting' | 'contradicting' | 'neutral';
  sentences: EvidenceSentence[];
  /**
   * What judged the sentences: Sift's pair model (claim and sentence read together) or the
   * LLM-free stance model over features of the two (no pair model loaded). Absent in checks stored
   * before the pair model existed: the stance model.
   */
  judgedBy?: 'pair-model' | 'features';
}

/** One claim check as stored with the claim. */
export interface ClaimCheckView {
  claim: string;
  status: TriangulationStatus;
  independentSupport: number;
  evidence: ClaimEvidenceView[];
  /** Sources deleted between the search and their judgement. */
  skipped: number[];
  tookMs: number;
  minGrade: QualityGrade | null;
}

/** A claim's stored check, or null when unchecked (or stored in an older shape). */
export function claimCheckOf(c: ProjectClaim): ClaimCheckView | null {
  const r = c.result as Partial<ClaimCheckView> | null;
  return r && typeof r.status === 'string' && Array.isArray(r.evidence)
    ? (r as ClaimCheckView)
    : null;
}

export interface AuditInput {
  draft: string;
  /** An answer's references; absent: the draft's own reference lines are read. */
  references?: Array<{ n: number; documentId: number | null; label: string }>;
}

export type AuditStatusLabel = 'PASS' | 'REVIEW' | 'SOURCE_NOT_INDEXED';

export interface AuditRowView {
  claim: string;
  /** The citation number as written. */
  n: string;
  citedSource: string;
  documentId: number | null;
  status: AuditStatusLabel;
  supportScore: number | null;
  stance: StanceLabel | null;
  passage: {
    text: string;
    start: number;
    end: number;
    /** The PDF pages the passage is on (absent for documents without pages). */
    pages?: { first: number; last: number };
  } | null;
  /** Where the cited sentence (with its markers) is in the draft, for replacing the citation. */
  at: { start: number; end: number };
}

export interface ExportExtra {
  /** The audit table shown (goes into the report and retrieval_audit.md). */
  audit?: AuditRowView[];
  /** An answer to include in the report with its citations. */
  answerId?: number;
}

export interface ProjectExportFiles {
  /** Suggested file names and contents. */
  report: { name: string; text: string };
  indexMetadata: { name: 'index_metadata.json'; text: string };
  retrievalAudit: { name: 'retrieval_audit.md'; text: string };
}
