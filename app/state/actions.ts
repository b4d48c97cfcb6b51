// What the UI does in response to the user: each action calls the worker and updates the store.
// Owns: sequencing (stale search answers are dropped) and turning errors into notices.
import {
  Comlink,
  connectEmbedders,
  connectLlm,
  libraryClient,
  llmClient,
  semanticClient,
} from '../clients';
import { browserHtmlCleaner } from '../lib/html-cleaner';
import { createEmbedSettings } from '../lib/embed-settings';
import {
  createStoragePersistence,
  type PersistTrigger,
  type StoragePersistence,
} from '../lib/storage-persistence';
import { documentResults } from '../../workers/shared/document-results';
import type { RelatedSource } from '../../workers/shared/search-contract';
import type { ImportFile, ImportProgress, QualityGrade } from '../../workers/shared/types';
import { useAppStore } from './app-store';
import { browserFlags } from '../lib/browser-flags';
import { refreshLlmKind } from './answer-actions';

const store = useAppStore.getState;

export async function initLibrary(): Promise<void> {
  try {
    const library = libraryClient();
    const info = await library.init();
    await library.setHtmlCleaner(Comlink.proxy(browserHtmlCleaner));
    store().setStorage(info);
    void refreshStorageStatus({ warn: true }).catch(() => undefined);
    await refreshDocuments();
    const semantic = semanticClient();
    await semantic.watchSemantic(Comlink.proxy((s) => store().setSemantic(s)));
    // A pause or cancel the user chose survives a reload; otherwise the backlog resumes where
    // it stopped.
    store().setEmbeddingCancelled(embedSettings.cancelled());
    if (embedSettings.cancelled()) await semantic.cancelEmbedding();
    else if (embedSettings.held()) await semantic.pauseEmbedding();
    // The model loads in the background; until then every search answers lexically.
    connectEmbedders(embedSettings.workers()).catch((err: unknown) => store().notifyError(err));
    connectLlm()
      .then(async () => {
        // Test hook: `?llm=scripted` selects the deterministic scripted generator (e2e).
        if (new URLSearchParams(location.search).get('llm') === 'scripted')
          await llmClient().useScripted();
        // An Answer view opened before the backend was ready offers it now.
        await refreshLlmKind();
      })
      .catch((err: unknown) => store().notifyError(err));
  } catch (err) {
    store().notifyError(err);
  }
}

/** How many embed workers to run and whether embedding is on hold (kept over reloads). */
export const embedSettings = createEmbedSettings({
  hardwareConcurrency: typeof navigator === 'undefined' ? 2 : navigator.hardwareConcurrency,
  flags: browserFlags,
});

let persistence: StoragePersistence | null = null;
function storagePersistence(): StoragePersistence {
  persistence ??= createStoragePersistence({
    storage: typeof navigator === 'undefined' ? undefined : navigator.storage,
    flags: browserFlags,
  });
  return persistence;
}

/** Reads persistence and usage/quota again; warns once per call when 80 % of quota is used. */
export async function refreshStorageStatus(opts: { warn?: boolean } = {}): Promise<void> {
  const status = await storagePersistence().status();
  store().setStorageStatus(status);
  if (opts.warn && status.nearlyFull) {
    store().notify(
      'error',
      `Storage is ${Math.round((status.fraction ?? 0) * 100)} % full: see Settings > Storage before importing more.`,
    );
  }
}

/**
 * Asks the browser to keep the library (first import, install, or the Settings button), and
 * says so when it refuses: on the first refusal after an import, and on every explicit ask.
 */
export async function requestPersistence(trigger: PersistTrigger): Promise<void> {
  const before = (await storagePersistence().status()).persist;
  const status = await storagePersistence().request(trigger);
  store().setStorageStatus(status);
  const newlyRefused = before !== 'refused' || trigger !== 'first-import';
  if (status.persist === 'refused' && newlyRefused) {
    store().notify(
      'info',
      'The browser did not agree to keep your library permanently: it may delete it if the device runs low on space. Settings > Storage says more.',
    );
  }
}

export async function refreshDocuments(): Promise<void> {
  store().setDocuments(await libraryClient().listDocuments());
}

/**
 * Sets the quality grade the user gives a document (null: the default, "own document" for a
 * local file); the list, the open document and the results (a grade filter may apply) follow.
 */
export async function setDocumentGrade(id: number, grade: QualityGrade | null): Promise<void> {
  try {
    await libraryClient().setDocumentGrade([id], grade);
    await refreshDocuments();
    const open = store().open;
    if (open?.detail.id === id)
      store().setOpen({ ...open, detail: { ...open.detail, qualityGrade: grade } });
    if (store().query.trim()) await runSearch();
  } catch (err) {
    store().notifyError(err);
  }
}

// Every open tab works on the same library file; after a write, a tab tells the others so their
// lists, caches and semantic index catch up.
const otherTabs =
  typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel('sift-library');
otherTabs?.addEventListener('message', () => {
  void libraryClient()
    .libraryChangedElsewhere()
    .then(refreshDocuments)
    .then(() => {
      if (store().query && !store().optimise) void runSearch();
    })
    .catch(() => undefined);
});

/** After this tab changed the library: refresh the list and tell the other tabs. */
export async function afterLibraryWrite(): Promise<void> {
  otherTabs?.postMessage('changed');
  await refreshDocuments();
}

let searchSeq = 0;

/** Documents on a page of results: one entry each, its next best passages beneath. */
export const RESULTS_PAGE = 10;

/** Runs the current query; answers to older queries that arrive late are ignored. */
export async function runSearch(): Promise<void> {
  const { query, mode, filters } = store();
  const seq = ++searchSeq;
  if (!query.trim()) {
    store().setResults(null);
    return;
  }
  store().setSearching(true);
  try {
    const response = await libraryClient().search({
      query,
      mode,
      filters,
      documents: RESULTS_PAGE,
    });
    if (seq === searchSeq) store().setResults(response, query);
  } catch (err) {
    if (seq === searchSeq) store().notifyError(err);
  } finally {
    if (seq === searchSeq) store().setSearching(false);
  }
}

/**
 * "More like this": hits related to a passage, a document or selected text, in the current mode
 * and filters, the source document left out. Errors (deleted source, empty passage) are notices.
 */
export async function runRelated(source: RelatedSource): Promise<void> {
  const { mode, filters, query } = store();
  const seq = ++searchSeq;
  store().setSearching(true);
  try {
    const r = await libraryClient().findRelated({
      source,
      mode,
      filters,
      documents: RESULTS_PAGE,
    });
    if (seq === searchSeq)
      store().setResults(r, query, { label: r.sourceLabel, notice: r.sourceNotice });
  } catch (err) {
    if (seq === searchSeq) store().notifyError(err);
  } finally {
    if (seq === searchSeq) store().setSearching(false);
  }
}

let planSeq = 0;

/** Runs the current query through the query planner and shows its plan beside the results. */
export async function runPlan(): Promise<void> {
  const { query, mode, filters, techniques } = store();
  if (!query.trim()) return;
  const id = `plan-${++planSeq}`;
  store().setSearching(true);
  try {
    // The same scope as a plain search: every retrieval of the plan honours mode and filters.
    const { plan, hits } = await libraryClient().planQuery(
      { query, mode, filters },
      // A page of documents, read as deep as a plain search reads its page.
      { techniques, documents: RESULTS_PAGE },
      id,
    );
    if (id !== `plan-${planSeq}`) return;
    // Show the plan's fused score (normalised to the best), not the first retrieval's own score.
    const fused = new Map(plan.results.map((r) => [r.id, r.score]));
    const best = Math.max(0, ...plan.results.map((r) => r.score));
    const scored = hits.map((h) => ({ ...h, score: best > 0 ? (fused.get(h.id) ?? 0) / best : 0 }));
    const documents = documentResults(scored, RESULTS_PAGE);
    store().setResults({ hits: scored, documents, mode, tookMs: plan.totalMs, terms: [] }, query);
    store().setPlan(plan);
  } catch (err) {
    if (id === `plan-${planSeq}`) store().notifyError(err);
  } finally {
    if (id === `plan-${planSeq}`) store().setSearching(false);
  }
}

export async function openDocument(documentId: number, chunkSeq: number | null): Promise<void> {
  try {
    const detail = await libraryClient().getDocument(documentId);
    store().setOpen({ detail, chunkSeq });
  } catch (err) {
    store().notifyError(err);
  }
}

export async function importFiles(files: ImportFile[]): Promise<void> {
  if (files.length === 0) return;
  if (store().importing && !store().importing?.done) {
    store().notify('info', 'An import is already running. Wait for it to finish or cancel it.');
    return;
  }
  store().startImportRun();
  // Asked now, inside the user's gesture (Firefox shows a prompt); the import does not wait.
  void requestPersistence('first-import').catch(() => undefined);
  const onProgress = (p: ImportProgress) => store().setImporting(p);
  try {
    const final = await libraryClient().importFiles(files, Comlink.proxy(onProgress));
    store().setImporting(final);
    const parts = [`${final.added} added`];
    if (final.replaced) parts.push(`${final.replaced} updated`);
    if (final.unchanged) parts.push(`${final.unchanged} unchanged`);
    if (final.duplicate) parts.push(`${final.duplicate} duplicates skipped`);
    if (final.failures.length) parts.push(`${final.failures.length} failed`);
    if (final.notes.length) parts.push(`${final.notes.length} with a note (see the import report)`);
    store().notify(
      'info',
      `${final.cancelled ? 'Import cancelled' : 'Import finished'}: ${parts.join(', ')}.`,
    );
  } catch (err) {
    store().notifyError(err);
  } finally {
    await afterLibraryWrite().catch(() => undefined);
    await refreshStorageStatus({ warn: true }).catch(() => undefined);
    if (store().query) void runSearch();
  }
}

export async function cancelImport(): Promise<void> {
  await libraryClient().cancelImport();
}

export async function deleteDocument(id: number): Promise<void> {
  try {
    await libraryClient().deleteDocument(id);
    if (store().open?.detail.id === id) store().setOpen(null);
    await afterLibraryWrite();
    if (store().query) await runSearch();
  } catch (err) {
    store().notifyError(err);
  }
}

export async function exportLibrary(): Promise<void> {
  try {
    const bytes = await libraryClient().exportLibrary();
    const blob = new Blob([bytes as BlobPart], { type: 'application/vnd.sqlite3' });
    const url = URL.createObjectURL(blob);
    const a = document.createElement('a');
    a.href = url;
    a.download = `sift-library-${new Date().toISOString().slice(0, 10)}.sqlite`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  } catch (err) {
    store().notifyError(err);
  }
}

export async function importLibrary(file: File): Promise<void> {
  try {
    const bytes = new Uint8Array(await file.arrayBuffer());
    const stats = await libraryClient().importLibrary(Comlink.transfer(bytes, [bytes.buffer]));
    store().setOpen(null);
    store().setResults(null);
    await afterLibraryWrite();
    store().notify(
      'info',
      `Library imported: ${stats.documents} documents, ${stats.chunks} chunks.`,
    );
  } catch (err) {
    store().notifyError(err);
  }
}

/** Pauses (kept over reloads until resumed) or resumes embedding the backlog. */
export async function pauseEmbedding(paused: boolean): Promise<void> {
  try {
    embedSettings.setHeld(paused);
    store().setEmbeddingCancelled(false);
    if (paused) await semanticClient().pauseEmbedding();
    else await semanticClient().resumeEmbedding();
  } catch (err) {
    store().notifyError(err);
  }
}

/**
 * Stops this embedding run. Unlike a pause it is said as stopped (no progress, no time left), and
 * like a pause it does not restart by itself, not even after a reload, until "Embed the rest".
 */
export async function cancelEmbedding(): Promise<void> {
  try {
    embedSettings.setCancelled();
    store().setEmbeddingCancelled(true);
    await semanticClient().cancelEmbedding();
  } catch (err) {
    store().notifyError(err);
  }
}

/** The Settings choice of embed workers (saved; the pool resizes at once). Returns what runs. */
export async function setEmbedWorkers(n: number): Promise<number> {
  const value = embedSettings.setWorkers(n);
  try {
    await semanticClient().setEmbedWorkers(value);
  } catch (err) {
    store().notifyError(err);
  }
  return value;
}
