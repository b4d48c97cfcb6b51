// Integration: the importer writing into the real store (wa-sqlite in memory), then lexical
// search finding each fixture by its distinctive word (the same words the e2e tests use).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { JSDOM } from 'jsdom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHtmlCleaner, type CleanerWindow } from '../../app/import/clean-html';
import { openTestLibrary, type TestLibrary } from '../store/test-fixtures';
import type { ImportFile } from '../shared/types';
import { createImporter } from './importer';
import { loadNodePdfjs } from './pdfjs-loader';

const FIXTURES = join(__dirname, '../../e2e/fixtures');
const dom = new JSDOM('');
let lib: TestLibrary;

beforeAll(async () => {
  lib = await openTestLibrary();
});
afterAll(async () => {
  await lib.close();
  dom.window.close();
});

function fixture(name: string): ImportFile {
  const data = new Blob([readFileSync(join(FIXTURES, name))]);
  return { path: `fixtures/${name}`, name, size: data.size, modified: 0, type: '', data };
}

describe('importer + real store', () => {
  it('imports the fixtures, finds each by its word, and re-imports as unchanged', async () => {
    const importer = createImporter({
      sink: lib.store,
      cleanHtml: createHtmlCleaner(dom.window as unknown as CleanerWindow),
      loadPdfjs: loadNodePdfjs,
    });
    const names = [
      'sample.txt',
      'notes.md',
      'page.html',
      'report.pdf',
      'letter.docx',
      'hostile.html',
      'corrupt.pdf',
    ];
    const first = await importer.importFiles(names.map(fixture));
    expect(first).toMatchObject({
      added: 6,
      failures: [{ path: 'fixtures/corrupt.pdf', code: 'PARSE_FAILED' }],
    });

    for (const [word, name] of [
      ['xylophone', 'sample.txt'],
      ['quokka', 'notes.md'],
      ['narwhal', 'page.html'],
      ['pelican', 'report.pdf'],
      ['wombat', 'letter.docx'],
      ['gooseberry', 'hostile.html'],
    ] as const) {
      const { hits } = await lib.search.search({ query: word });
      expect(hits[0]?.path, word).toBe(`fixtures/${name}`);
    }
    expect((await lib.search.search({ query: 'pwned' })).hits).toEqual([]);

    const again = await importer.importFiles(names.slice(0, 6).map(fixture));
    expect(again).toMatchObject({ unchanged: 6, added: 0, chunksDone: 0 });
    expect((await lib.store.listDocuments()).length).toBe(6);
  });
});
