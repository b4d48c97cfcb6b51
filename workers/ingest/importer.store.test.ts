// Integration: the importer writing into the real store (wa-sqlite in memory), then lexical
// search finding each fixture by its distinctive word (the same words the e2e tests use).
import { JSDOM } from 'jsdom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHtmlCleaner, type CleanerWindow } from '../../app/import/clean-html';
import { openTestLibrary, type TestLibrary } from '../store/store.testkit';
import type { ImportFile } from '../shared/types';
import { FIXTURE_WORDS, GOOD_FIXTURES, readFixture } from './fixtures.testkit';
import { createImporter } from './importer';
import { loadNodePdfjs } from './pdfjs-loader';

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
  const data = new Blob([readFixture(name) as BlobPart]);
  return { path: `fixtures/${name}`, name, size: data.size, modified: 0, type: '', data };
}

describe('importer + real store', () => {
  it('imports the fixtures, finds each by its word, and re-imports as unchanged', async () => {
    const importer = createImporter({
      sink: lib.store,
      cleanHtml: createHtmlCleaner(dom.window as unknown as CleanerWindow),
      loadPdfjs: loadNodePdfjs,
    });
    const first = await importer.importFiles([...GOOD_FIXTURES, 'corrupt.pdf'].map(fixture));
    expect(first).toMatchObject({
      added: 6,
      failures: [{ path: 'fixtures/corrupt.pdf', code: 'PARSE_FAILED' }],
    });

    for (const [word, name] of FIXTURE_WORDS) {
      const { hits } = await lib.search.search({ query: word });
      expect(hits[0]?.path, word).toBe(`fixtures/${name}`);
    }
    expect((await lib.search.search({ query: 'pwned' })).hits).toEqual([]);

    const again = await importer.importFiles(GOOD_FIXTURES.map(fixture));
    expect(again).toMatchObject({ unchanged: 6, added: 0, chunksDone: 0 });
    expect((await lib.store.listDocuments()).length).toBe(6);
  });

  it('stores a file whose name starts with NUL or holds newlines under a sane, non-empty path', async () => {
    const importer = createImporter({
      sink: lib.store,
      cleanHtml: createHtmlCleaner(dom.window as unknown as CleanerWindow),
      loadPdfjs: loadNodePdfjs,
    });
    const file = (name: string, text: string): ImportFile => {
      const data = new Blob([text]);
      return { path: name, name, size: data.size, modified: 0, type: '', data };
    };
    const result = await importer.importFiles([
      file('\u0000evil.txt', 'xenoquokka marsupial notes'),
      file('a\n\n<img src=x onerror=alert(1)>\n\n.txt', 'wombat burrow notes'),
    ]);
    expect(result).toMatchObject({ added: 2, failures: [] });
    const paths = (await lib.store.listDocuments()).map((d) => d.path);
    expect(paths).toContain('\uFFFDevil.txt');
    expect(paths).toContain('a\uFFFD\uFFFD<img src=x onerror=alert(1)>\uFFFD\uFFFD.txt');
    // eslint-disable-next-line no-control-regex
    for (const p of paths) expect(p).toMatch(/^[^\u0000-\u001f]+$/);
    const { hits } = await lib.search.search({ query: 'xenoquokka' });
    expect(hits[0]?.path).toBe('\uFFFDevil.txt');
  });
});
