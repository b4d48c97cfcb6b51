// Imports a folder of real files for the `answers` task through the app's own importer
// (workers/ingest: type detection, parsers, normalisation, chunker), capturing what it hands the
// store, with each PDF's page starts as the importer gives them (so each chunk offset maps to its
// page exactly as in the app). Node only.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createImporter } from '../workers/ingest/importer';
import { loadNodePdfjs } from '../workers/ingest/pdfjs-loader';
import type { PageStarts } from '../workers/shared/pages';
import type { ChunkInput, DocumentInput, ImportFile } from '../workers/shared/types';

export interface ImportedDoc {
  /** The file name (the document's path in the library). */
  name: string;
  input: DocumentInput;
  chunks: ChunkInput[];
  hash: string;
  /** Where each page starts (`[page, offset]`, the importer's); null: not paged. */
  pageStarts: PageStarts | null;
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
  // Pages as the product stores them (the PDF parser's page starts, workers/shared/pages.ts).
  const docs: ImportedDoc[] = captured.map((c) => ({
    ...c,
    name: c.input.path,
    pageStarts: c.input.pageStarts ?? null,
  }));
  return { docs, failures: progress.failures, ms };
}
