// User actions on bibliographic data: import a reference file or a Zotero data folder, save an
// edited record, download a project's references. Results and errors go to the notices.
import * as Comlink from 'comlink';
import { projectsClient } from '../clients';
import { downloadText } from '../lib/download';
import type { Biblio, DocumentBiblio } from '../../workers/shared/biblio';
import type { ReferenceFormat } from '../../workers/shared/biblio-api';
import type { ImportFile, ImportProgress } from '../../workers/shared/types';
import { afterLibraryWrite } from './actions';
import { useAppStore } from './app-store';
import { useProjectStore } from './project-store';

const store = () => useAppStore.getState();

export async function importReferenceFile(file: File): Promise<void> {
  try {
    const r = await projectsClient().importReferences({ name: file.name, text: await file.text() });
    const parts = [`${r.entries} entries`, `${r.linked} linked to documents`];
    if (r.kept) parts.push(`${r.kept} kept your edits`);
    if (r.unmatched.length) parts.push(`${r.entries - r.linked - r.kept} matched no document`);
    if (r.skipped) parts.push(`${r.skipped} unreadable`);
    store().notify('info', `References from ${file.name}: ${parts.join(', ')}.`);
  } catch (err) {
    store().notifyError(err);
  }
}

export async function importZoteroFolder(files: ImportFile[]): Promise<void> {
  if (files.length === 0) return;
  store().startImportRun();
  const onProgress = (p: ImportProgress) => store().setImporting(p);
  try {
    const r = await projectsClient().importZotero(files, Comlink.proxy(onProgress));
    store().setImporting(r.files);
    store().notify(
      'info',
      `Zotero: ${r.items} items, ${r.files.added} files imported, ${r.linked} with their Zotero data` +
        (r.projects.length ? `; projects: ${r.projects.join(', ')}.` : '.'),
    );
  } catch (err) {
    store().notifyError(err);
  } finally {
    await afterLibraryWrite().catch(() => undefined);
  }
}

export async function saveBiblio(
  documentId: number,
  biblio: Omit<Biblio, 'source'>,
): Promise<DocumentBiblio | null> {
  try {
    const saved = await projectsClient().setBiblio(documentId, biblio);
    store().notify('info', 'Bibliographic data saved.');
    return saved;
  } catch (err) {
    store().notifyError(err);
    return null;
  }
}

export async function downloadReferences(format: ReferenceFormat): Promise<void> {
  const id = useProjectStore.getState().selected;
  if (id === null) return;
  try {
    const text = await projectsClient().exportReferences(id, format);
    const name = format === 'bibtex' ? 'references.bib' : 'references.json';
    downloadText(text, format === 'bibtex' ? 'application/x-bibtex' : 'application/json', name);
  } catch (err) {
    store().notifyError(err);
  }
}
