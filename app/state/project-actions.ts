// What the Projects view does with projects: create / rename / delete them, add library documents
// (or the ones a kept answer cites), edit the claims. The checks, audit and exports are in
// project-checks.ts. All work runs in the database worker; these only call it and update state.
import { answersClient, projectsClient } from '../clients';
import { useAppStore } from './app-store';
import { attempt, cancelChecks } from './project-checks';
import { useProjectStore } from './project-store';

const projects = useProjectStore.getState;
const app = useAppStore.getState;

export async function refreshProjects(): Promise<void> {
  await attempt(async () => {
    const list = await projectsClient().listProjects();
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
    const remote = projectsClient();
    const [stats, documentIds, claims] = await Promise.all([
      remote.projectStats(id),
      remote.projectDocuments(id),
      remote.projectClaims(id),
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
  const p = await attempt(() => projectsClient().createProject(name, question));
  if (!p) return false;
  await refreshProjects();
  await selectProject(p.id);
  return true;
}

export async function updateProject(
  id: number,
  patch: { name?: string; question?: string },
): Promise<boolean> {
  const p = await attempt(() => projectsClient().updateProject(id, patch));
  if (p) await refreshProjects();
  return p !== undefined;
}

export async function deleteProject(id: number): Promise<void> {
  if (projects().selected === id && projects().run) cancelChecks();
  await attempt(() => projectsClient().deleteProject(id));
  await refreshProjects();
}

export async function addDocuments(documentIds: number[]): Promise<void> {
  const id = projects().selected;
  if (id === null || documentIds.length === 0) return;
  const n = await attempt(() => projectsClient().addToProject(id, documentIds));
  if (n !== undefined) app().notify('info', `${n} document(s) added to the project.`);
  await refreshProject();
}

/** Adds the library documents a kept answer cites (web references and deleted ones are skipped). */
export async function addAnswerSources(answerId: number): Promise<void> {
  const a = await attempt(() => answersClient().getAnswer(answerId));
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
  await attempt(() => projectsClient().removeFromProject(id, [documentId]));
  await refreshProject();
}

/** Replaces the claim list: one claim per non-empty line (earlier checks are cleared). */
export async function saveClaims(text: string): Promise<void> {
  const id = projects().selected;
  if (id === null) return;
  const list = text.split('\n').map((t) => ({ text: t.trim() }));
  const claims = await attempt(() => projectsClient().setProjectClaims(id, list));
  if (claims) projects().setClaims(claims);
}

/**
 * The claims of a draft or answer text, one per line: the LLM-free sentence split, or restated by
 * the active language model with `useLlm` (a note says when it could not be used).
 */
/** Stops an extraction started with `requestId`. */
export function cancelExtraction(requestId: string): void {
  void projectsClient()
    .cancelClaimCheck(requestId)
    .catch(() => undefined);
}

export async function extractClaimsText(
  draft: string,
  useLlm = false,
  requestId?: string,
): Promise<string | undefined> {
  const r = await attempt(() => projectsClient().extractDraftClaims(draft, { useLlm }, requestId));
  if (!r) return undefined;
  if (r.note) app().notify('info', r.note);
  return r.claims.join('\n');
}
