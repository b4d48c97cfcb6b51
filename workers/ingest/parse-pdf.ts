// PDF files: the text layer of every page through pdfjs-dist, read as a reader reads it
// (./pdf-text.ts) and joined with blank lines, with where each page and each outline section starts.
// Owns: pdfjs options (no eval, no fonts, no network) and the NO_TEXT_LAYER / PARSE_FAILED
// decisions. pdfjs itself is injected (`loadPdfjs`) because the browser and Node need different
// builds; see ./pdfjs-loader.ts.
import { createError, isAppError } from '../shared/errors';
import { PDFJS_SAFE_OPTIONS } from '../shared/pdfjs-options';
import { biblioFromPdf, hasBiblio } from './bib-extract';
import { guardPdfStreams } from './inflate-guard';
import { readOutline, sectionStarts, type OutlineDocLike } from './pdf-outline';
import { readPdfPages } from './pdf-text';
import { titleFromName, type ParseMeta, type ParsedText } from './parse-types';

/** The part of the pdfjs-dist module API this parser uses (both the modern and legacy builds fit). */
export interface PdfjsLike {
  getDocument(params: Record<string, unknown>): {
    promise: Promise<PdfDocumentLike>;
    destroy(): Promise<void>;
  };
}

interface PdfDocumentLike extends OutlineDocLike {
  numPages: number;
  getPage(n: number): Promise<{
    getTextContent(): Promise<{ items: Array<{ str?: string; hasEOL?: boolean }> }>;
    cleanup(): boolean | void;
  }>;
  getMetadata(): Promise<{ info?: unknown; metadata?: { getAll?(): unknown } | null }>;
}

export interface PdfParserDeps {
  /** Returns the pdfjs module, ready to parse (its worker code wired). Called once, lazily. */
  loadPdfjs: () => Promise<PdfjsLike>;
  /**
   * Optional URLs the app serves for CJK CMaps / standard font data (e.g. copied from
   * node_modules/pdfjs-dist/cmaps/). Without them, PDFs that rely on non-embedded CJK CMaps may
   * extract poorly; nothing is ever fetched from another host.
   */
  cMapUrl?: string;
  standardFontDataUrl?: string;
}

export type PdfParser = (bytes: Uint8Array, meta: ParseMeta) => Promise<ParsedText>;

/**
 * Creates the PDF parser. Each call parses one file and releases pdfjs's memory afterwards.
 * @throws AppError PARSE_FAILED (corrupt, password-protected, not a PDF) or NO_TEXT_LAYER
 * (pages without any text, e.g. scans), FILE_TOO_LARGE when its text-bearing streams would
 * inflate past the limits (./inflate-guard.ts), checked before pdfjs sees the file.
 */
export function createPdfParser(deps: PdfParserDeps): PdfParser {
  let pdfjs: Promise<PdfjsLike> | null = null;

  return async function parsePdf(bytes, meta) {
    await guardPdfStreams(bytes, meta);
    pdfjs ??= deps.loadPdfjs();
    const lib = await pdfjs;
    const task = lib.getDocument({
      // pdfjs transfers (detaches) the buffer it is given; hand it a copy so callers keep theirs.
      data: bytes.slice(),
      ...PDFJS_SAFE_OPTIONS,
      ...(deps.cMapUrl ? { cMapUrl: deps.cMapUrl, cMapPacked: true } : {}),
      ...(deps.standardFontDataUrl ? { standardFontDataUrl: deps.standardFontDataUrl } : {}),
    });
    try {
      let doc: PdfDocumentLike;
      try {
        doc = await task.promise;
      } catch (cause) {
        const name = (cause as { name?: string } | null)?.name;
        throw createError('PARSE_FAILED', {
          reason:
            name === 'PasswordException'
              ? `"${meta.path}" is password-protected: save an unprotected copy and import that.`
              : `"${meta.path}" is damaged or not a PDF (${name ?? 'unknown error'}): re-download or re-export it.`,
          path: meta.path,
          cause,
        });
      }
      const pages: string[] = [];
      for (let n = 1; n <= doc.numPages; n++) {
        const page = await doc.getPage(n);
        const content = await page.getTextContent();
        let text = '';
        for (const item of content.items) {
          if (typeof item.str === 'string') text += item.str;
          if (item.hasEOL) text += '\n';
        }
        page.cleanup();
        pages.push(text.trim());
      }
      // Lines joined into paragraphs, running headers and page numbers out, a blank line between
      // pages (the chunker prefers to break there) and where each page starts.
      const { text, pageStarts } = readPdfPages(pages.map((p) => p.split('\n')));
      if (!text.trim()) {
        throw createError('NO_TEXT_LAYER', {
          reason: `"${meta.path}" has ${doc.numPages} page(s) but no text layer.`,
          path: meta.path,
        });
      }
      const metadata = await readMetadata(doc);
      const biblio = biblioFromPdf({ ...metadata, firstPage: pages[0] ?? '' });
      // The outline's headings as section paths, placed where each heading's words are.
      const sections = sectionStarts(await readOutline(doc), text, pageStarts);
      return {
        title: metadataTitle(metadata.info) ?? titleFromName(meta.name),
        text,
        pageStarts,
        ...(sections.length ? { sections } : {}),
        ...(hasBiblio(biblio) ? { biblio } : {}),
      };
    } catch (err) {
      if (isAppError(err)) throw err;
      throw createError('PARSE_FAILED', {
        reason: `"${meta.path}" could not be read as a PDF.`,
        path: meta.path,
        cause: err,
      });
    } finally {
      await task.destroy().catch(() => undefined);
    }
  };
}

/** The Info dictionary and XMP properties; a broken one reads as empty. */
async function readMetadata(
  doc: PdfDocumentLike,
): Promise<{ info?: unknown; xmp?: Record<string, unknown> | null }> {
  try {
    const { info, metadata } = await doc.getMetadata();
    const all = metadata?.getAll?.();
    return { info, xmp: all && typeof all === 'object' ? (all as Record<string, unknown>) : null };
  } catch {
    return {}; // a broken Info dictionary must not lose an otherwise readable document
  }
}

function metadataTitle(info: unknown): string | null {
  const title = (info as { Title?: unknown } | undefined)?.Title;
  return typeof title === 'string' && title.trim() ? title.trim() : null;
}
