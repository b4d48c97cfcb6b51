// The research-projects contract the library service exposes (workers/projects/project-store.ts
// implements it): named collections of documents, their claims and per-project stats. Scoping a
// search to a project is `SearchFilters.project`. Plain types only; imports no other layer.

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
  grades: Record<string, number>;
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
}
