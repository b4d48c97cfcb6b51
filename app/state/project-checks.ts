// The Projects view's checks: the claim checks one claim per worker call (progress between claims,
// cancel stops the running one), the citation audit of a draft or a kept answer, the exports as
// downloads, and opening evidence at its sentence. All work runs in the database worker.
import { answersClient, libraryClient, projectsClient } from '../clients';
import { downloadText } from '../lib/download';
import { isAppError } from '../../workers/shared/errors';
import type { AuditInput } from '../../workers/shared/projects-api';
import { useAppStore } from './app-store';
import { useProjectStore } from './project-store';

const projects = useProjectStore.getState;
const app = useAppStore.getState;

/** Runs `work`; an error becomes a notice and the result undefined. */
export async function attempt<T>(work: () => Promise<T>): Promise<T | undefined> {
  try {
    return await work();
  } catch (err) {
    app().notifyError(err);
    return undefined;
  }
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
      const claim = await projectsClient().checkProjectClaim(
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
  void projectsClient()
    .cancelClaimCheck(run.requestId)
    .catch(() => undefined);
}

/** Puts a kept answer (sentences with their [n] markers) in the draft box; its references resolve the audit. */
export async function auditAnswer(answerId: number): Promise<void> {
  const a = await attempt(() => answersClient().getAnswer(answerId));
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
      const a = await answersClient().getAnswer(auditAnswerId);
      input.references = a.references.map((r) => ({
        n: r.n,
        documentId: r.missing ? null : r.documentId,
        label: r.url ?? r.path,
      }));
    }
    projects().setAudit(await projectsClient().auditDraft(input));
  } catch (err) {
    app().notifyError(err);
  } finally {
    projects().setAuditing(false);
  }
}

/**
 * Points the citation of audit row `index` at another library document: the draft gets a new
 * citation number and reference line for it (the old number keeps its other uses), then the
 * audit runs again.
 */
export async function replaceCitation(index: number, documentId: number): Promise<void> {
  const { draft, auditAnswerId, audit } = projects();
  const row = audit?.[index];
  const doc = app().documents.find((d) => d.id === documentId);
  if (!row || !doc) return;
  const next = await attempt(() =>
    projectsClient().replaceDraftCitation(draft, row.at, row.n, doc.sourceUrl ?? doc.path),
  );
  if (next === undefined || next === draft) return;
  projects().setDraft(next, auditAnswerId);
  await runAudit();
}

export type ExportKind = 'report' | 'index-metadata' | 'retrieval-audit';

export async function downloadExport(kind: ExportKind): Promise<void> {
  const id = projects().selected;
  if (id === null) return;
  const { audit, auditAnswerId } = projects();
  const files = await attempt(() =>
    projectsClient().projectExports(id, {
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
