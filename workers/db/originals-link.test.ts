// Original PDFs end to end in Node: the real importer (real pdf.js) keeps a PDF's bytes in the
// originals folder beside the real wa-sqlite store, the library serves them by document id, a
// deleted or replaced document's original is pruned, and every way of not having one says null.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readFixture } from '../ingest/fixtures.testkit';
import { createImporter } from '../ingest/importer';
import { loadNodePdfjs } from '../ingest/pdfjs-loader';
import type { ImportFile } from '../shared/types';
import { createMemoryOriginalsDir, createOriginals, type OriginalsDir } from '../store/originals';
import { openTestLibrary, type TestLibrary } from '../store/store.testkit';
import { createOriginalsLink } from './originals-link';

function file(path: string, bytes: Uint8Array): ImportFile {
  const data = new Blob([bytes as BlobPart]);
  const name = path.split('/').pop()!;
  return { path, name, size: data.size, modified: 0, type: '', data };
}

const noHtml = () => Promise.reject(new Error('no HTML in these tests'));

let lib: TestLibrary;
let dir: ReturnType<typeof createMemoryOriginalsDir>;

beforeEach(async () => {
  lib = await openTestLibrary();
  dir = createMemoryOriginalsDir();
});
afterEach(async () => lib.close());

function setup(options: { maxBytes?: number; dir?: OriginalsDir | null } = {}) {
  const folder = options.dir === undefined ? dir : options.dir;
  const originals = folder
    ? createOriginals({ dir: folder, ...(options.maxBytes ? { maxBytes: options.maxBytes } : {}) })
    : null;
  const importer = createImporter({
    sink: lib.store,
    cleanHtml: noHtml,
    loadPdfjs: loadNodePdfjs,
    ...(originals ? { originals } : {}),
  });
  const link = createOriginalsLink(async () => ({ sql: lib.store.sql, originals }));
  return { importer, link };
}

async function idOf(path: string): Promise<number> {
  const docs = await lib.store.listDocuments();
  return docs.find((d) => d.path === path)!.id;
}

describe('original PDFs', () => {
  it('keeps an imported PDF byte for byte and serves it by document id; text files keep none', async () => {
    const { importer, link } = setup();
    const pdf = readFixture('report.pdf');
    const progress = await importer.importFiles([
      file('docs/report.pdf', pdf),
      file('docs/sample.txt', readFixture('sample.txt')),
    ]);
    expect(progress).toMatchObject({ added: 2, failures: [], notes: [] });
    expect(await link.getOriginal(await idOf('docs/report.pdf'))).toEqual(pdf);
    expect(await link.getOriginal(await idOf('docs/sample.txt'))).toBeNull();
    expect(await link.originalsUsage()).toEqual({ files: 1, bytes: pdf.byteLength });
    const [name] = dir.files.keys();
    expect(name).toMatch(/^[0-9a-f]{64}\.pdf$/);
  });

  it('prunes the original of a deleted document, which then reads NOT_FOUND', async () => {
    const { importer, link } = setup();
    await importer.importFiles([file('docs/report.pdf', readFixture('report.pdf'))]);
    const id = await idOf('docs/report.pdf');
    await lib.store.deleteDocument(id);
    await link.prune();
    expect(dir.files.size).toBe(0);
    await expect(link.getOriginal(id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('prunes a file no PDF document owns (a replaced document), keeps the live one', async () => {
    const { importer, link } = setup();
    await importer.importFiles([file('docs/report.pdf', readFixture('report.pdf'))]);
    await dir.write(`${'ab'.repeat(32)}.pdf`, new Uint8Array([1, 2, 3]));
    await dir.write('stray.tmp', new Uint8Array([1]));
    await link.prune();
    expect(dir.files.size).toBe(1);
    expect(await link.getOriginal(await idOf('docs/report.pdf'))).not.toBeNull();
  });

  it('imports a PDF past the size policy with a note and no original', async () => {
    const { importer, link } = setup({ maxBytes: 100 });
    const progress = await importer.importFiles([file('big.pdf', readFixture('report.pdf'))]);
    expect(progress.added).toBe(1);
    expect(progress.notes.map((n) => n.path)).toEqual(['big.pdf']);
    expect(progress.notes[0]?.message).toMatch(/original PDF .* is not kept/);
    expect(await link.getOriginal(await idOf('big.pdf'))).toBeNull();
  });

  it('a failing folder is a note, never a failed import', async () => {
    const broken: OriginalsDir = {
      ...createMemoryOriginalsDir(),
      write: () => Promise.reject(new Error('QuotaExceededError')),
    };
    const { importer } = setup({ dir: broken });
    const progress = await importer.importFiles([file('a.pdf', readFixture('report.pdf'))]);
    expect(progress).toMatchObject({ added: 1, failures: [] });
    expect(progress.notes[0]?.message).toMatch(/could not be kept \(QuotaExceededError\)/);
  });

  it('an old import (no original) reads null, and re-importing it brings the original back', async () => {
    const old = setup({ dir: null });
    await old.importer.importFiles([file('docs/report.pdf', readFixture('report.pdf'))]);
    const { importer, link } = setup();
    const id = await idOf('docs/report.pdf');
    expect(await link.getOriginal(id)).toBeNull();
    const again = await importer.importFiles([file('docs/report.pdf', readFixture('report.pdf'))]);
    expect(again.unchanged).toBe(1);
    expect(await link.getOriginal(id)).toEqual(readFixture('report.pdf'));
  });
});
