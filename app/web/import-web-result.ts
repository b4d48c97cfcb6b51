// Turns a web result into a library document: the worker fetches the page (provider extract
// endpoint or a direct fetch), HTML is cleaned here on the UI thread by the injected cleaner
// (Readability + DOMPurify need a DOM), and the caller's `putDocument` chunks, dedupes by content
// hash and stores it. Owns: the FetchedPage -> DocumentInput mapping.
import { createError, isAppError } from '../../workers/shared/errors';
import type { CleanHtml } from '../../workers/shared/ingest-api';
import type { DocumentInput, PutResult } from '../../workers/shared/types';
import type { FetchedPage, RankedWebHit, WebApi } from '../../workers/shared/web-api';

/**
 * The document for a fetched page. `fallbackTitle` (the result's title) is used when the page
 * has none. Quality grade, source URL and fetch date travel with it.
 * @throws AppError EMPTY_FILE when the page has no readable text.
 */
export async function webPageToDocument(
  page: FetchedPage,
  cleanHtml: CleanHtml,
  fallbackTitle = '',
): Promise<DocumentInput> {
  let title: string;
  let text: string;
  let size: number;
  if (page.kind === 'html') {
    const cleaned = await cleanHtml(page.html, page.url);
    title = cleaned.title;
    text = cleaned.text;
    size = new TextEncoder().encode(page.html).length;
  } else {
    title = page.title;
    text = page.text.replace(/\r\n?/g, '\n');
    size = new TextEncoder().encode(page.text).length;
  }
  text = text.trim();
  if (!text) throw createError('EMPTY_FILE', { reason: `${page.url} has no readable text.` });
  return {
    // The URL is the document's unique key, so importing it again replaces or dedupes it.
    path: page.url,
    title: (title || fallbackTitle || page.url).trim(),
    mime: page.kind === 'html' ? 'text/html' : 'text/plain',
    size,
    modified: page.fetchedAt,
    text,
    sourceUrl: page.url,
    qualityGrade: page.qualityGrade,
  };
}

export type ImportWebOutcome =
  | { ok: true; result: PutResult; document: DocumentInput; via: string }
  | { ok: false; code: string; message: string };

/** Everything the import button needs, injected by the app shell. */
export interface WebImportDeps {
  api: Pick<WebApi, 'fetchPage'>;
  cleanHtml: CleanHtml;
  /** The ingest pipeline: chunk, dedupe by content hash, store. */
  putDocument: (doc: DocumentInput) => Promise<PutResult>;
}

/** Fetches, cleans and stores one web result. Failures are values the UI can show. */
export async function importWebResult(
  hit: Pick<RankedWebHit, 'url' | 'title'> & { provider: RankedWebHit['provider'] | null },
  deps: WebImportDeps,
): Promise<ImportWebOutcome> {
  try {
    const fetched = await deps.api.fetchPage(hit.url, hit.provider);
    if (!fetched.ok) return { ok: false, code: fetched.code, message: fetched.message };
    const document = await webPageToDocument(fetched.page, deps.cleanHtml, hit.title);
    const result = await deps.putDocument(document);
    return { ok: true, result, document, via: fetched.page.via };
  } catch (err) {
    if (isAppError(err)) return { ok: false, code: err.code, message: err.message };
    return {
      ok: false,
      code: 'INTERNAL',
      message: err instanceof Error ? err.message : String(err),
    };
  }
}
