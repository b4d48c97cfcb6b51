// The import pipeline: file -> type -> bytes -> plain text -> normalise -> hash -> chunks -> sink.
// Owns: type detection, size limits, per-file failure reporting, cancellation and progress.
// The store arrives as `sink` and the HTML cleaner as `cleanHtml`
// (both injected; in the app the cleaner is a Comlink proxy to the UI thread).
import { createError, isAppError, toAppError, type AppError } from '../shared/errors';
import type { CleanHtml, IngestApi } from '../shared/ingest-api';
import { formatBytes } from '../shared/format-bytes';
import {
  SUPPORTED_MIME,
  type ChunkInput,
  type DocumentInput,
  type ImportFile,
  type ImportProgress,
  type PutResult,
} from '../shared/types';
import { chunkText, type ChunkOptions } from './chunk';
import { sha256Hex } from './hash';
import { normaliseText } from './normalise';
import { parseDocx } from './parse-docx';
import { parseHtml } from './parse-html';
import { parseMarkdown } from './parse-markdown';
import { createPdfParser, type PdfjsLike } from './parse-pdf';
import { loadBrowserPdfjs } from './pdfjs-loader';
import { parseTxt } from './parse-txt';
import type { ParseMeta, ParsedText } from './parse-types';

/**
 * 50 MB. The limit is checked from `Blob.size` BEFORE any byte is read, so a 100 MB file never
 * sits in worker memory. Why 50 MB: the biggest real documents people search (long PDF reports,
 * books) are well under it, while plain text past it is almost always a log or data dump; a
 * parsed PDF/DOCX also needs a few times its size in memory, and a phone tab has little.
 */
export const DEFAULT_MAX_FILE_BYTES = 50 * 1024 * 1024;

/**
 * 10 MB for HTML: it is parsed on the UI thread (workers have no DOM), and DOMParser +
 * Readability on a bigger page would freeze the interface for seconds. Saved web pages are
 * far smaller; a bigger .html is usually an export or a log.
 */
export const DEFAULT_MAX_HTML_BYTES = 10 * 1024 * 1024;

/** Minimum time between two progress events inside a file (file boundaries always report). */
export const PROGRESS_INTERVAL_MS = 100;

const YIELD_INTERVAL_MS = 16;

/** The store's write method (workers/store), injected so ingest never imports the store. */
export interface DocumentSink {
  putDocument(input: DocumentInput, chunks: ChunkInput[], contentHash: string): Promise<PutResult>;
}

export interface ImporterDeps {
  sink: DocumentSink;
  cleanHtml: CleanHtml;
  limits?: { maxFileBytes?: number; maxHtmlBytes?: number };
  now?: () => number;
  /** pdfjs for this environment; default: the browser build on the same thread (pdfjs-loader.ts). */
  loadPdfjs?: () => Promise<PdfjsLike>;
  /** URLs the app serves for pdfjs CMaps / standard fonts (optional, same origin only). */
  pdf?: { cMapUrl?: string; standardFontDataUrl?: string };
  chunk?: ChunkOptions;
  /**
   * Keeps an imported PDF's bytes for the page view (workers/store/originals.ts), under its
   * document's content hash; returns a note when it does not. Absent: originals are not kept.
   */
  originals?: { keep(contentHash: string, bytes: Uint8Array): Promise<string | null> };
}

export interface ImportOptions {
  onProgress?(p: ImportProgress): void;
  signal?: AbortSignal;
}

export interface Importer {
  /**
   * Imports files in order. Never throws for a file: each failure is recorded in `failures`
   * with the file's path, an error code and a message that says how to fix it.
   * Cancelling through `signal` stops between files; files already imported stay.
   */
  importFiles(files: ImportFile[], opts?: ImportOptions): Promise<ImportProgress>;
  /**
   * Normalises, hashes, chunks and stores already-extracted text (web pages, notes).
   * @throws AppError EMPTY_FILE if the text is blank; store errors as raised by the sink.
   */
  importText(input: DocumentInput): Promise<PutResult>;
}

export type DocumentKind = keyof typeof SUPPORTED_MIME;

const EXTENSIONS: Record<string, DocumentKind> = {
  txt: 'txt',
  text: 'txt',
  md: 'md',
  markdown: 'md',
  mdown: 'md',
  html: 'html',
  htm: 'html',
  xhtml: 'html',
  pdf: 'pdf',
  docx: 'docx',
};

const MIME_TYPES: Record<string, DocumentKind> = {
  'text/plain': 'txt',
  'text/markdown': 'md',
  'text/x-markdown': 'md',
  'text/html': 'html',
  'application/xhtml+xml': 'html',
  'application/pdf': 'pdf',
  [SUPPORTED_MIME.docx]: 'docx',
};

/** The document kind of a file by its extension, else its MIME type; null when unsupported. */
export function detectKind(name: string, mime: string): DocumentKind | null {
  const base = name.split(/[\\/]/).pop() ?? name;
  const dot = base.lastIndexOf('.');
  const ext = dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
  if (ext && EXTENSIONS[ext]) return EXTENSIONS[ext];
  const type = mime.split(';')[0]?.trim().toLowerCase() ?? '';
  return MIME_TYPES[type] ?? null;
}

/**
 * Creates the importer.
 * @throws never at creation; see the methods.
 */
/**
 * A file's path and name as stored: control characters (NUL, newlines, ESC...; legal in Linux
 * file names) become U+FFFD, so SQLite never cuts the path at a NUL and no view or export shows
 * a broken line; a name of nothing but those is never stored empty.
 */
export function storedName(raw: string): string {
  // eslint-disable-next-line no-control-regex
  const clean = raw.replace(/[\u0000-\u001f\u007f-\u009f]/g, '\uFFFD');
  return clean.trim() ? clean : 'unnamed';
}

export function createImporter(deps: ImporterDeps): Importer {
  const maxFileBytes = deps.limits?.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const maxHtmlBytes = deps.limits?.maxHtmlBytes ?? DEFAULT_MAX_HTML_BYTES;
  const now = deps.now ?? (() => Date.now());
  const parsePdf = createPdfParser({
    loadPdfjs: deps.loadPdfjs ?? loadBrowserPdfjs,
    ...deps.pdf,
  });

  async function parse(
    kind: DocumentKind,
    bytes: Uint8Array,
    meta: ParseMeta,
  ): Promise<ParsedText> {
    switch (kind) {
      case 'txt':
        return parseTxt(bytes, meta);
      case 'md':
        return parseMarkdown(bytes, meta);
      case 'html':
        return parseHtml(bytes, meta, deps.cleanHtml);
      case 'pdf':
        return parsePdf(bytes, meta);
      case 'docx':
        return parseDocx(bytes, meta);
    }
  }

  async function store(
    input: DocumentInput,
  ): Promise<{ result: PutResult; chunks: number; hash: string }> {
    const text = normaliseText(input.text);
    // Page and section offsets hold only for text the normalisation left as it was (the PDF
    // parser's is).
    if ((input.pageStarts || input.sections) && text !== input.text)
      input = { ...input, pageStarts: null, sections: null };
    if (!text) {
      throw createError('EMPTY_FILE', {
        reason: `"${input.path}" contains no text after extraction.`,
        path: input.path,
      });
    }
    const chunks = chunkText(text, deps.chunk);
    const hash = await sha256Hex(text);
    const result = await deps.sink.putDocument({ ...input, text }, chunks, hash);
    return { result, chunks: chunks.length, hash };
  }

  /** Reads, parses and stores one file; every expected problem is an AppError with a fix. */
  async function importOne(
    file: ImportFile,
  ): Promise<{ result: PutResult; chunks: number; notice: string | null }> {
    const path = storedName(file.path || file.name);
    const name = file.name ? storedName(file.name) : path;
    const kind = detectKind(name, file.type);
    if (!kind) {
      const dot = name.lastIndexOf('.');
      throw createError('UNSUPPORTED_TYPE', {
        reason: `"${path}" (${dot > 0 ? name.slice(dot) : file.type || 'no extension'}) is not a supported type.`,
        path,
      });
    }
    // Blob.size is exact and costs nothing; the bytes are read only after both checks.
    const size = file.data.size;
    if (size === 0) {
      throw createError('EMPTY_FILE', { reason: `"${path}" is empty (0 bytes).`, path });
    }
    const limit = kind === 'html' ? Math.min(maxHtmlBytes, maxFileBytes) : maxFileBytes;
    if (size > limit) {
      throw createError('FILE_TOO_LARGE', {
        reason: `"${path}" is ${formatBytes(size)}; the limit${kind === 'html' && limit < maxFileBytes ? ' for HTML' : ''} is ${formatBytes(limit)}.`,
        path,
        size,
        limit,
      });
    }
    const bytes = new Uint8Array(await file.data.arrayBuffer());
    const parsed = await parse(kind, bytes, { path, name });
    const stored = await store({
      path,
      title: parsed.title,
      mime: SUPPORTED_MIME[kind],
      size,
      modified: file.modified,
      text: parsed.text,
      ...(parsed.biblio ? { biblio: parsed.biblio } : {}),
      ...(parsed.pageStarts?.length ? { pageStarts: parsed.pageStarts } : {}),
      ...(parsed.sections?.length ? { sections: parsed.sections } : {}),
    });
    // Every PDF outcome keeps its original: an unchanged re-import brings back one imported
    // before originals were kept. A failure to keep it is a note, never a failed import.
    const kept = kind === 'pdf' && deps.originals ? await keepOriginal(stored.hash, bytes) : null;
    const notice = [parsed.notice, kept].filter(Boolean).join(' ');
    return { result: stored.result, chunks: stored.chunks, notice: notice || null };
  }

  async function keepOriginal(hash: string, bytes: Uint8Array): Promise<string | null> {
    try {
      return (await deps.originals?.keep(hash, bytes)) ?? null;
    } catch (err) {
      return `The original PDF could not be kept (${err instanceof Error ? err.message : String(err)}); pages cannot be shown.`;
    }
  }

  return {
    async importFiles(files, opts = {}) {
      const progress: ImportProgress = {
        filesTotal: files.length,
        filesDone: 0,
        chunksDone: 0,
        added: 0,
        replaced: 0,
        unchanged: 0,
        duplicate: 0,
        failures: [],
        notes: [],
        current: null,
        done: false,
        cancelled: false,
      };
      let lastEmit = -Infinity;
      let lastYield = now();
      const emit = (force: boolean) => {
        const t = now();
        if (!force && t - lastEmit < PROGRESS_INTERVAL_MS) return;
        lastEmit = t;
        // A snapshot: listeners in the same thread must not see later mutations. A listener that
        // throws or rejects (a released Comlink proxy) must not stop the import.
        try {
          const pending: unknown = opts.onProgress?.({
            ...progress,
            failures: [...progress.failures],
            notes: [...progress.notes],
          });
          if (pending instanceof Promise) pending.catch(() => undefined);
        } catch {
          // ignored on purpose, see above
        }
      };
      emit(true);
      for (const file of files) {
        if (opts.signal?.aborted) {
          progress.cancelled = true;
          break;
        }
        const path = storedName(file.path || file.name);
        progress.current = path;
        emit(false); // tells the UI which file is being read, unless we reported a moment ago
        try {
          const { result, chunks, notice } = await importOne(file);
          progress[result.outcome]++;
          if (notice) progress.notes.push({ path, message: notice });
          if (result.outcome === 'added' || result.outcome === 'replaced')
            progress.chunksDone += chunks;
        } catch (err) {
          const appError: AppError = isAppError(err) ? err : toAppError(err, 'PARSE_FAILED');
          progress.failures.push({ path, code: appError.code, message: appError.message });
        }
        progress.filesDone++;
        emit(true);
        // Let queued messages (a cancel from the UI) run before the next file; not after every
        // file, since nested timers are clamped to 4 ms and 10,000 small files would crawl.
        if (now() - lastYield >= YIELD_INTERVAL_MS) {
          await new Promise<void>((resolve) => setTimeout(resolve, 0));
          lastYield = now();
        }
      }
      if (opts.signal?.aborted && progress.filesDone < progress.filesTotal)
        progress.cancelled = true;
      progress.current = null;
      progress.done = true;
      emit(true);
      return { ...progress, failures: [...progress.failures], notes: [...progress.notes] };
    },

    async importText(input) {
      return (await store(input)).result;
    },
  };
}

/**
 * Adapts an importer to the worker-facing `IngestApi`: AbortSignals cannot cross Comlink, so
 * cancellation is a method, and the HTML cleaner (a proxy from the UI) is connected after start.
 * Imports run one at a time in call order.
 */
export function createIngestApi(
  deps: Omit<ImporterDeps, 'cleanHtml'> & { cleanHtml?: CleanHtml },
): IngestApi {
  let cleaner: CleanHtml | null = deps.cleanHtml ?? null;
  const importer = createImporter({
    ...deps,
    cleanHtml: (html, url) =>
      cleaner
        ? cleaner(html, url)
        : Promise.reject(
            createError('PARSE_FAILED', {
              reason:
                'The HTML cleaner is not connected yet (app start-up). Retry the import in a moment.',
            }),
          ),
  });
  const running = new Set<AbortController>();
  let queue: Promise<unknown> = Promise.resolve();

  return {
    setHtmlCleaner(cleanHtml) {
      cleaner = cleanHtml;
    },
    importFiles(files, onProgress) {
      const controller = new AbortController();
      running.add(controller);
      const run = queue.then(() =>
        importer.importFiles(files, {
          signal: controller.signal,
          ...(onProgress ? { onProgress } : {}),
        }),
      );
      queue = run.catch(() => undefined).finally(() => running.delete(controller));
      return run;
    },
    cancelImport() {
      for (const controller of running) controller.abort();
    },
    importText(input) {
      return importer.importText(input);
    },
  };
}
