// UI state of the Projects view (zustand): the projects, the one shown, its documents, claims
// (with their stored checks), the claim-check run (progress, cancel), the citation audit table and
// the draft being audited. Data lives in the database worker; this holds what the view shows.
import { create } from 'zustand';
import type {
  AuditRowView,
  Project,
  ProjectClaim,
  ProjectStats,
} from '../../workers/shared/projects-api';
import type { QualityGrade } from '../../workers/shared/types';

export interface CheckRun {
  requestId: string;
  done: number;
  total: number;
  failed: number;
  cancelled: boolean;
}

interface ProjectState {
  projects: Project[];
  selected: number | null;
  stats: ProjectStats | null;
  documentIds: number[];
  claims: ProjectClaim[];
  minGrade: QualityGrade | null;
  run: CheckRun | null;
  draft: string;
  /** The answer the audit came from (its references resolve the citations), or null. */
  auditAnswerId: number | null;
  auditing: boolean;
  audit: AuditRowView[] | null;
  setProjects(projects: Project[]): void;
  select(id: number | null): void;
  setDetail(d: { stats: ProjectStats; documentIds: number[]; claims: ProjectClaim[] }): void;
  setClaims(claims: ProjectClaim[]): void;
  updateClaim(claim: ProjectClaim): void;
  setMinGrade(grade: QualityGrade | null): void;
  setRun(run: CheckRun | null): void;
  setDraft(draft: string, answerId?: number | null): void;
  setAuditing(auditing: boolean): void;
  setAudit(rows: AuditRowView[] | null): void;
}

export const useProjectStore = create<ProjectState>((set) => ({
  projects: [],
  selected: null,
  stats: null,
  documentIds: [],
  claims: [],
  minGrade: null,
  run: null,
  draft: '',
  auditAnswerId: null,
  auditing: false,
  audit: null,
  setProjects: (projects) => set({ projects }),
  select: (selected) =>
    set({ selected, stats: null, documentIds: [], claims: [], audit: null, run: null }),
  setDetail: (d) => set(d),
  setClaims: (claims) => set({ claims }),
  updateClaim: (claim) =>
    set((s) => ({ claims: s.claims.map((c) => (c.id === claim.id ? claim : c)) })),
  setMinGrade: (minGrade) => set({ minGrade }),
  setRun: (run) => set({ run }),
  setDraft: (draft, answerId = null) => set({ draft, auditAnswerId: answerId }),
  setAuditing: (auditing) => set({ auditing }),
  setAudit: (audit) => set({ audit }),
}));
