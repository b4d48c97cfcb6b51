// Research projects in the library database: named collections of documents (a document may be in
// several), their claims, and per-project stats. Tables come from migration 6
// (workers/store/migrations.ts). Scoping a search to a project is `SearchFilters.project`.
import { createError } from '../shared/errors';
import { OWN_DOCUMENT_GRADE, type QualityGrade } from '../shared/types';
import type { Project, ProjectClaim, ProjectStats } from '../shared/projects-api';
import type { Sql } from '../store/sql';

export type { Project, ProjectClaim, ProjectStats };

export interface ProjectStore {
  /** @throws AppError INVALID_ARGUMENT when the name is empty or taken */
  create(name: string, question?: string): Promise<Project>;
  list(): Promise<Project[]>;
  /** @throws AppError NOT_FOUND */
  get(id: number): Promise<Project>;
  /** @throws AppError NOT_FOUND, INVALID_ARGUMENT */
  update(id: number, patch: { name?: string; question?: string }): Promise<Project>;
  /** Deletes the project, its memberships and claims; the documents stay in the library. */
  remove(id: number): Promise<void>;
  /** Adds documents (unknown ids are ignored); returns how many were new to the project. */
  addDocuments(id: number, documentIds: number[]): Promise<number>;
  removeDocuments(id: number, documentIds: number[]): Promise<number>;
  documentIds(id: number): Promise<number[]>;
  /** The projects a document belongs to. */
  projectsOf(documentId: number): Promise<Project[]>;
  stats(id: number): Promise<ProjectStats>;
  /** Replaces the claim list (order = array order). @throws AppError NOT_FOUND */
  setClaims(
    id: number,
    claims: Array<{ text: string; keyClaim?: boolean }>,
  ): Promise<ProjectClaim[]>;
  claims(id: number): Promise<ProjectClaim[]>;
  /** Stores a claim's last check. Returns false when the claim (or project) no longer exists. */
  saveClaimResult(claimId: number, result: unknown): Promise<boolean>;
}

interface ProjectRow {
  id: number;
  name: string;
  question: string;
  created_at: number;
  updated_at: number;
}

const toProject = (r: ProjectRow): Project => ({
  id: Number(r.id),
  name: r.name,
  question: r.question,
  createdAt: Number(r.created_at),
  updatedAt: Number(r.updated_at),
});

export function createProjectStore(sql: Sql, deps: { clock?: () => number } = {}): ProjectStore {
  const now = deps.clock ?? Date.now;

  const get = async (id: number): Promise<Project> => {
    const r = await sql.get<ProjectRow>('SELECT * FROM projects WHERE id = ?', [id]);
    if (!r) throw createError('NOT_FOUND', { reason: `Project ${id} does not exist.` });
    return toProject(r);
  };

  const checkName = async (name: string, except?: number) => {
    const trimmed = name.trim();
    if (!trimmed) throw createError('INVALID_ARGUMENT', { reason: 'A project needs a name.' });
    const taken = await sql.get('SELECT id FROM projects WHERE name = ? AND id IS NOT ?', [
      trimmed,
      except ?? null,
    ]);
    if (taken) {
      throw createError('INVALID_ARGUMENT', {
        reason: `A project named "${trimmed}" exists already; choose another name.`,
      });
    }
    return trimmed;
  };

  const claims = async (id: number): Promise<ProjectClaim[]> => {
    const rows = await sql.all<{
      id: number;
      seq: number;
      text: string;
      key_claim: number;
      checked_at: number | null;
      result: string | null;
    }>('SELECT * FROM project_claims WHERE project_id = ? ORDER BY seq', [id]);
    return rows.map((r) => ({
      id: Number(r.id),
      seq: Number(r.seq),
      text: r.text,
      keyClaim: Number(r.key_claim) === 1,
      checkedAt: r.checked_at === null ? null : Number(r.checked_at),
      result: r.result === null ? null : (JSON.parse(r.result) as unknown),
    }));
  };

  return {
    async create(name, question = '') {
      const n = await checkName(name);
      const t = now();
      const { lastInsertId } = await sql.run(
        'INSERT INTO projects (name, question, created_at, updated_at) VALUES (?, ?, ?, ?)',
        [n, question, t, t],
      );
      return get(lastInsertId);
    },
    async list() {
      const rows = await sql.all<ProjectRow>('SELECT * FROM projects ORDER BY name, id');
      return rows.map(toProject);
    },
    get,
    async update(id, patch) {
      const p = await get(id);
      const name = patch.name === undefined ? p.name : await checkName(patch.name, id);
      await sql.run('UPDATE projects SET name = ?, question = ?, updated_at = ? WHERE id = ?', [
        name,
        patch.question ?? p.question,
        now(),
        id,
      ]);
      return get(id);
    },
    async remove(id) {
      await sql.run('DELETE FROM projects WHERE id = ?', [id]);
    },
    async addDocuments(id, documentIds) {
      await get(id);
      let added = 0;
      await sql.transaction(async () => {
        for (const d of documentIds) {
          const r = await sql.run(
            `INSERT OR IGNORE INTO project_documents (project_id, document_id, added_at)
             SELECT ?, id, ? FROM documents WHERE id = ?`,
            [id, now(), d],
          );
          added += r.changes;
        }
      });
      return added;
    },
    async removeDocuments(id, documentIds) {
      let removed = 0;
      await sql.transaction(async () => {
        for (const d of documentIds) {
          const r = await sql.run(
            'DELETE FROM project_documents WHERE project_id = ? AND document_id = ?',
            [id, d],
          );
          removed += r.changes;
        }
      });
      return removed;
    },
    async documentIds(id) {
      const rows = await sql.all<{ document_id: number }>(
        'SELECT document_id FROM project_documents WHERE project_id = ? ORDER BY document_id',
        [id],
      );
      return rows.map((r) => Number(r.document_id));
    },
    async projectsOf(documentId) {
      const rows = await sql.all<ProjectRow>(
        `SELECT p.* FROM projects p JOIN project_documents pd ON pd.project_id = p.id
         WHERE pd.document_id = ? ORDER BY p.name, p.id`,
        [documentId],
      );
      return rows.map(toProject);
    },
    async stats(id) {
      await get(id);
      const docs = await sql.get<{ n: number; size: number | null; newest: number | null }>(
        `SELECT count(*) AS n, sum(d.size) AS size, max(d.imported_at) AS newest
         FROM project_documents pd JOIN documents d ON d.id = pd.document_id WHERE pd.project_id = ?`,
        [id],
      );
      const chunks = await sql.get<{ n: number }>(
        `SELECT count(*) AS n FROM project_documents pd JOIN chunks c ON c.document_id = pd.document_id
         WHERE pd.project_id = ?`,
        [id],
      );
      // An ungraded document counts as OWN_DOCUMENT_GRADE, as in filters and sorting.
      const grades = await sql.all<{ grade: QualityGrade; n: number }>(
        `SELECT COALESCE(d.quality_grade, ?) AS grade, count(*) AS n FROM project_documents pd
         JOIN documents d ON d.id = pd.document_id WHERE pd.project_id = ? GROUP BY 1`,
        [OWN_DOCUMENT_GRADE, id],
      );
      const nClaims = await sql.get<{ n: number }>(
        'SELECT count(*) AS n FROM project_claims WHERE project_id = ?',
        [id],
      );
      return {
        documents: Number(docs?.n ?? 0),
        chunks: Number(chunks?.n ?? 0),
        totalSize: Number(docs?.size ?? 0),
        claims: Number(nClaims?.n ?? 0),
        grades: Object.fromEntries(grades.map((g) => [g.grade, Number(g.n)])),
        newestImport:
          docs?.newest === null || docs?.newest === undefined ? null : Number(docs.newest),
      };
    },
    async setClaims(id, list) {
      await get(id);
      await sql.transaction(async () => {
        await sql.run('DELETE FROM project_claims WHERE project_id = ?', [id]);
        let seq = 0;
        for (const c of list) {
          const text = c.text.trim();
          if (!text) continue;
          await sql.run(
            'INSERT INTO project_claims (project_id, seq, text, key_claim) VALUES (?, ?, ?, ?)',
            [id, seq++, text, c.keyClaim ? 1 : 0],
          );
        }
        await sql.run('UPDATE projects SET updated_at = ? WHERE id = ?', [now(), id]);
      });
      return claims(id);
    },
    claims,
    async saveClaimResult(claimId, result) {
      const r = await sql.run('UPDATE project_claims SET checked_at = ?, result = ? WHERE id = ?', [
        now(),
        JSON.stringify(result),
        claimId,
      ]);
      return r.changes === 1;
    },
  };
}
