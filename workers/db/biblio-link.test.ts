// Bibliographic data through the library service (real wa-sqlite in memory): a reference file's
// entries link to documents by DOI and by file name, an entry no document matches is named, an
// import keeps a user's edit, a project's references export once per document, and a folder
// without zotero.sqlite is refused with where to find it.
import { describe, expect, it } from 'vitest';
import type { DocumentInput } from '../shared/types';
import { openNodeDatabase } from '../store/open-database-node';
import { jsDotKernel } from '../vector';
import { createLibraryService } from './service';

const doc = (path: string, text: string): DocumentInput => ({
  path,
  title: path,
  mime: 'text/plain',
  size: text.length,
  modified: 1,
  text,
});

function library() {
  const db = openNodeDatabase();
  return createLibraryService({
    openDatabase: () => db,
    dotKernel: async () => jsDotKernel,
    synonyms: async () => new Map(),
    wrapEmbedder: () => {
      throw new Error('no embedder in this test');
    },
    wrapLlm: () => {
      throw new Error('no LLM in this test');
    },
  });
}

const RIS = [
  'TY  - JOUR',
  'TI  - Smoking and carcinoma of the lung',
  'AU  - Doll, Richard',
  'AU  - Hill, A. Bradford',
  'PY  - 1950',
  'DO  - 10.1136/bmj.2.4682.739',
  'ER  - ',
  'TY  - JOUR',
  'TI  - Green tea and blood pressure',
  'AU  - Chen, Mei',
  'PY  - 2019',
  'L1  - file:///home/me/papers/green-tea.txt',
  'ER  - ',
  'TY  - BOOK',
  'TI  - Not in the library',
  'ER  - ',
].join('\n');

describe('bibliographic data in the library', () => {
  it('links references by DOI and file name, keeps user edits, exports per document', async () => {
    const lib = library();
    await lib.init();
    const smoking = await lib.importText({
      ...doc('papers/doll.txt', 'Smoking and carcinoma of the lung.'),
      biblio: { source: 'pdf', authors: [], doi: '10.1136/BMJ.2.4682.739' },
    });
    const tea = await lib.importText(doc('papers/green-tea.txt', 'Green tea trial results.'));
    const r = await lib.importReferences({ name: 'export.ris', text: RIS });
    expect(r).toEqual({
      format: 'ris',
      entries: 3,
      linked: 2,
      kept: 0,
      unmatched: ['Not in the library'],
      skipped: 0,
    });
    expect(await lib.getBiblio(smoking.documentId)).toMatchObject({
      source: 'ris',
      year: 1950,
      authors: [
        { family: 'Doll', given: 'Richard' },
        { family: 'Hill', given: 'A. Bradford' },
      ],
    });

    await lib.setBiblio(tea.documentId, { authors: [{ family: 'Chen' }], year: 2020 });
    const again = await lib.importReferences({ name: 'export.ris', text: RIS });
    expect([again.linked, again.kept]).toEqual([1, 1]);
    expect((await lib.getBiblio(tea.documentId))?.year).toBe(2020);

    const project = await lib.createProject('Reading');
    await lib.addToProject(project.id, [smoking.documentId, tea.documentId]);
    const bib = await lib.exportReferences(project.id, 'bibtex');
    expect(bib.match(/^@/gm)).toHaveLength(2);
    expect(bib).toContain('@article{doll1950,');
    expect(bib).toContain('@misc{chen2020,');
    const csl = JSON.parse(await lib.exportReferences(project.id, 'csl-json')) as unknown[];
    expect(csl).toHaveLength(2);
  });

  it('refuses a folder without zotero.sqlite and a file that is no reference file', async () => {
    const lib = library();
    await lib.init();
    const file = new Blob(['x']);
    await expect(
      lib.importZotero([
        { path: 'Zotero/notes.txt', name: 'notes.txt', size: 1, modified: 0, type: '', data: file },
      ]),
    ).rejects.toThrow(/no zotero\.sqlite.*Zotero data folder/);
    await expect(lib.importReferences({ name: 'notes.txt', text: 'hello' })).rejects.toMatchObject({
      code: 'PARSE_FAILED',
    });
  });
});
