// What the Projects view does: create / rename / delete projects, add library documents (or the
// ones a kept answer cites), edit the claims, run the claim checks one claim per worker call
// (progress between claims, cancel stops the running one), audit a draft or an answer, download
// the exports and open evidence at its sentence. All work runs in the database worker; these only call it and update state.
import { libraryClient } from '../clients';
import { downloadText } from '../lib/download';
import { isAppError } from '../../workers/shared/errors';
import type { AuditInput } from '../../workers/shared/projects-api';
import { useAppStore } from './app-store';
import { useProjectStore } from './project-store';

const projects = useProjectStore.getState;
const app = useAppStore.getState;

async function attempt<T>(work: () => Promise<T>): Promise<T | undefined> {
  try {
    return await work();
  } catch (err) {
    app().notifyError(err);
    return undefined;
  }
}

export async function refreshProjects(): Promise<void> {
  await attempt(async () => {
    const list = await libraryClient().listProjects();
    projects().setProjects(list);
    const selected = projects().selected;
    if (selected !== null && !list.some((p) => p.id === selected)) projects().select(null);
  });
}

/** Reloads the shown project's stats, members and claims. */
export async function refreshProject(): Promise<void> {
  const id = projects().selected;
  if (id === null) return;
  await attempt(async () => {
    const lib = libraryClient();
    const [stats, documentIds, claims] = await Promise.all([
      lib.projectStats(id),
      lib.projectDocuments(id),
      lib.projectClaims(id),
    ]);
    if (projects().selected === id) projects().setDetail({ stats, documentIds, claims });
  });
}

export async function selectProject(id: number | null): Promise<void> {
  if (projects().run) cancelChecks();
  projects().select(id);
  await refreshProject();
}

export async function createProject(name: string, question: string): Promise<boolean> {
  const p = await attempt(() => libraryClient().createProject(name, question));
  if (!p) return false;
  await refreshProjects();
  await selectProject(p.id);
  return true;
}

export async function updateProject(
  id: number,
  patch: { name?: string; question?: string },
): Promise<boolean> {
  const p = await attempt(() => libraryClient().updateProject(id, patch));
  if (p) await refreshProjects();
  return p !== undefined;
}

export async function deleteProject(id: number): Promise<void> {
  if (projects().selected === id && projects().run) cancelChecks();
  await attempt(() => libraryClient().deleteProject(id));
  await refreshProjects();
}

export async function addDocuments(documentIds: number[]): Promise<void> {
  const id = projects().selected;
  if (id === null || documentIds.length === 0) return;
  const n = await attempt(() => libraryClient().addToProject(id, documentIds));
  if (n !== undefined) app().notify('info', `${n} document(s) added to the project.`);
  await refreshProject();
}

/** Adds the library documents a kept answer cites (web references and deleted ones are skipped). */
export async function addAnswerSources(answerId: number): Promise<void> {
  const a = await attempt(() => libraryClient().getAnswer(answerId));
  if (!a) return;
  const ids = [
    ...new Set(
      a.references
        .filter((r) => r.source === 'library' && !r.missing && r.documentId !== null)
        .map((r) => r.documentId!),
    ),
  ];
  if (ids.length === 0) app().notify('info', 'That answer cites no library document.');
  else await addDocuments(ids);
}

export async function removeDocument(documentId: number): Promise<void> {
  const id = projects().selected;
  if (id === null) return;
  await attempt(() => libraryClient().removeFromProject(id, [documentId]));
  await refreshProject();
}

/** Replaces the claim list: one claim per non-empty line (earlier checks are cleared). */
export async function saveClaims(text: string): Promise<void> {
  const id = projects().selected;
  if (id === null) return;
  const list = text.split('\n').map((t) => ({ text: t.trim() }));
  const claims = await attempt(() => libraryClient().setProjectClaims(id, list));
  if (claims) projects().setClaims(claims);
}

/** The claims of a draft or answer text (LLM-free sentence split), one per line. */
export async function extractClaimsText(draft: string): Promise<string | undefined> {
  const claims = await attempt(() => libraryClient().extractDraftClaims(draft));
  return claims?.join('\n');
}

let checkSeq = 0;

/**
 * Checks the given claims (default: all) one by one; progress after each. Stops on cancel, when
 * the project is gone, or when no model can judge; other failures are counted and skipped.
 */
export async function checkClaims(claimIds?: number[]): Promise<void> {
  const id = projects().selected;
  if (id === null || projects().run) return;
  const ids = claimIds ?? projects().claims.map((c) => c.id);
  if (ids.length === 0) return;
  const requestId = `claims-${++checkSeq}`;
  projects().setRun({ requestId, done: 0, total: ids.length, failed: 0, cancelled: false });
  const minGrade = projects().minGrade;
  for (const claimId of ids) {
    const run = projects().run;
    if (!run || run.requestId !== requestId || run.cancelled) break;
    try {
      const claim = await libraryClient().checkProjectClaim(
        id,
        claimId,
        minGrade ? { minGrade } : {},
        requestId,
      );
      if (projects().selected === id) projects().updateClaim(claim);
      bump(requestId, 0);
    } catch (err) {
      if (isAppError(err) && err.code === 'ABORTED') break;
      if (isAppError(err) && (err.code === 'NOT_FOUND' || err.code === 'MODEL_LOAD_FAILED')) {
        app().notifyError(err);
        break;
      }
      bump(requestId, 1);
    }
  }
  const run = projects().run;
  if (run?.requestId === requestId) {
    projects().setRun(null);
    const failed = run.failed ? `, ${run.failed} failed` : '';
    app().notify(
      'info',
      `${run.cancelled ? 'Claim check cancelled' : 'Claim check finished'}: ${run.done} of ${run.total} claims checked${failed}.`,
    );
  }
}

function bump(requestId: string, failed: number): void {
  const run = projects().run;
  if (run?.requestId !== requestId) return;
  projects().setRun({ ...run, done: run.done + 1 - failed, failed: run.failed + failed });
}

export function cancelChecks(): void {
  const run = projects().run;
  if (!run) return;
  projects().setRun({ ...run, cancelled: true });
  void libraryClient()
    .cancelClaimCheck(run.requestId)
    .catch(() => undefined);
}

/** Puts a kept answer (sentences with their [n] markers) in the draft box; its references resolve the audit. */
export async function auditAnswer(answerId: number): Promise<void> {
  const a = await attempt(() => libraryClient().getAnswer(answerId));
  if (!a) return;
  const text = a.sentences
    .map((s) => `${s.text}${s.citations.map((n) => ` [${n}]`).join('')}`)
    .join('\n');
  projects().setDraft(text, answerId);
}

export async function runAudit(): Promise<void> {
  const { draft, auditAnswerId } = projects();
  if (!draft.trim()) return;
  projects().setAuditing(true);
  try {
    const input: AuditInput = { draft };
    if (auditAnswerId !== null) {
      const a = await libraryClient().getAnswer(auditAnswerId);
      input.references = a.references.map((r) => ({
        n: r.n,
        documentId: r.missing ? null : r.documentId,
        label: r.url ?? r.path,
      }));
    }
    projects().setAudit(await libraryClient().auditDraft(input));
  } catch (err) {
    app().notifyError(err);
  } finally {
    projects().setAuditing(false);
  }
}

export type ExportKind = 'report' | 'index-metadata' | 'retrieval-audit';

export async function downloadExport(kind: ExportKind): Promise<void> {
  const id = projects().selected;
  if (id === null) return;
  const { audit, auditAnswerId } = projects();
  const files = await attempt(() =>
    libraryClient().projectExports(id, {
      ...(audit ? { audit } : {}),
      ...(auditAnswerId !== null ? { answerId: auditAnswerId } : {}),
    }),
  );
  if (!files) return;
  const file =
    kind === 'report'
      ? files.report
      : kind === 'index-metadata'
        ? files.indexMetadata
        : files.retrievalAudit;
  downloadText(
    file.text,
    kind === 'index-metadata' ? 'application/json' : 'text/markdown',
    file.name,
  );
}

/** Opens a document with the sentence (exact offsets) highlighted. */
export async function openAt(documentId: number, start: number, end: number): Promise<void> {
  await attempt(async () => {
    const detail = await libraryClient().getDocument(documentId);
    app().setOpen({ detail, chunkSeq: null, range: { start, end } });
  });
}

export { isAppError };
