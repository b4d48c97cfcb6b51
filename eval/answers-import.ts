// Imports a folder of real files for the `answers` task through the app's own importer
// (workers/ingest: type detection, parsers, normalisation, chunker), capturing what it hands the
// store, and derives a page map per PDF: pdfjs's per-page text, normalised as the importer does,
// located in the stored text, so each chunk offset maps to its page. Node only.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createImporter } from '../workers/ingest/importer';
import { normaliseText } from '../workers/ingest/normalise';
import { loadNodePdfjs } from '../workers/ingest/pdfjs-loader';
import type { ChunkInput, DocumentInput, ImportFile } from '../workers/shared/types';

export interface ImportedDoc {
  /** The file name (the document's path in the library). */
  name: string;
  input: DocumentInput;
  chunks: ChunkInput[];
  hash: string;
  /** Start offset of each page (1-based page i starts at pageStarts[i - 1]); null: not paged. */
  pageStarts: number[] | null;
}

export interface ImportedFolder {
  docs: ImportedDoc[];
  failures: Array<{ path: string; code: string; message: string }>;
  ms: number;
}

/** Imports every file of `dir` (sorted by name, not recursive) as the app would. */
export async function importFolder(dir: string): Promise<ImportedFolder> {
  const names = readdirSync(dir)
    .filter((n) => statSync(join(dir, n)).isFile())
    .sort();
  const captured: Array<Omit<ImportedDoc, 'pageStarts' | 'name'>> = [];
  const importer = createImporter({
    sink: {
      async putDocument(input, chunks, hash) {
        captured.push({ input, chunks, hash });
        return { outcome: 'added', documentId: captured.length, chunkCount: chunks.length };
      },
    },
    cleanHtml: async () => {
      throw new Error('HTML files are not supported by the answers eval (no DOM cleaner in Node)');
    },
    loadPdfjs: loadNodePdfjs,
  });
  const files: ImportFile[] = names.map((name) => {
    const bytes = readFileSync(join(dir, name));
    return {
      path: name,
      name,
      size: bytes.length,
      modified: 0,
      type: '',
      data: new Blob([bytes]),
    };
  });
  const t0 = performance.now();
  const progress = await importer.importFiles(files);
  const ms = performance.now() - t0;
  const docs: ImportedDoc[] = [];
  for (const c of captured) {
    const pageStarts = c.input.path.toLowerCase().endsWith('.pdf')
      ? await pdfPageStarts(new Uint8Array(readFileSync(join(dir, c.input.path))), c.input.text)
      : null;
    docs.push({ ...c, name: c.input.path, pageStarts });
  }
  return { docs, failures: progress.failures, ms };
}

/**
 * Where each page's text starts in the stored (normalised) document text: pages read as the
 * PDF parser reads them, each normalised and found in order (a page not found starts where the
 * previous one ended). Replaced by the importer's own page data once chunks carry pages.
 */
export async function pdfPageStarts(bytes: Uint8Array, stored: string): Promise<number[]> {
  const pdfjs = await loadNodePdfjs();
  const task = pdfjs.getDocument({
    data: bytes.slice(),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    verbosity: 0,
  });
  const starts: number[] = [];
  try {
    const doc = await task.promise;
    let cursor = 0;
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      let text = '';
      for (const item of content.items) {
        if (typeof item.str === 'string') text += item.str;
        if (item.hasEOL) text += '\n';
      }
      page.cleanup();
      const norm = normaliseText(text);
      const probe = norm.slice(0, 60);
      const at = probe ? stored.indexOf(probe, cursor) : -1;
      const start = at >= 0 ? at : cursor;
      starts.push(start);
      if (at >= 0) cursor = at + 1;
    }
  } finally {
    await task.destroy().catch(() => undefined);
  }
  return starts;
}

/** The 1-based page holding `offset` (the last page starting at or before it). */
export function pageAt(pageStarts: number[], offset: number): number {
  let lo = 0;
  let hi = pageStarts.length - 1;
  let page = 0;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (pageStarts[mid]! <= offset) {
      page = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return page + 1;
}
