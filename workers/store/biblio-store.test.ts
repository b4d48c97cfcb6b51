// Per-document bibliographic records: written with the document (a PDF's guess), replaced by an
// import, never by an import over a user's edit; bounded and cleaned; gone with the document.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createBiblioStore, type BiblioStore } from './biblio-store';
import { doc, openTestLibrary, put, type TestLibrary } from './store.testkit';

let lib: TestLibrary;
let bib: BiblioStore;
beforeEach(async () => {
  lib = await openTestLibrary();
  bib = createBiblioStore(lib.db.sql, () => 7);
});
afterEach(async () => lib.db.close());

describe('biblio store', () => {
  it('keeps a PDF guess written with its document, and lets an import replace it', async () => {
    const added = await put(lib.store, {
      ...doc('a.pdf', 'alpha'),
      biblio: { source: 'pdf', authors: [{ family: 'Guess' }], doi: 'doi:10.1000/A' },
    });
    const id = added.documentId;
    expect(await bib.get(id)).toMatchObject({ documentId: id, source: 'pdf', doi: '10.1000/a' });
    expect(
      await bib.put(id, {
        source: 'bibtex',
        authors: [{ family: 'Doll', given: 'R' }],
        year: 1954,
      }),
    ).toBe(true);
    expect(await bib.get(id)).toEqual({
      documentId: id,
      source: 'bibtex',
      authors: [{ family: 'Doll', given: 'R' }],
      year: 1954,
      updatedAt: 7,
    });
    expect(await bib.byDoi('https://doi.org/10.1000/a')).toEqual([]);
  });

  it('never lets an import overwrite a user edit; the user may edit again', async () => {
    const { documentId: id } = await put(lib.store, doc('b.txt', 'beta'));
    await bib.put(id, { source: 'user', authors: [{ family: 'Mine' }], title: 'My title' });
    expect(await bib.put(id, { source: 'zotero', authors: [{ family: 'Theirs' }] })).toBe(false);
    expect((await bib.get(id))?.title).toBe('My title');
    expect(await bib.put(id, { source: 'user', authors: [], title: 'Edited' })).toBe(true);
    expect((await bib.get(id))?.title).toBe('Edited');
  });

  it('bounds untrusted values and drops a URL that is not http(s)', async () => {
    const { documentId: id } = await put(lib.store, doc('c.txt', 'gamma'));
    await bib.put(id, {
      source: 'bibtex',
      title: 'x'.repeat(5000),
      authors: [{ family: '  ' }, { family: 'Ok', given: '' }],
      year: 99999,
      url: 'javascript:alert(1)',
      doi: 'not a doi',
    });
    const b = (await bib.get(id))!;
    expect(b.title).toHaveLength(1000);
    expect(b.authors).toEqual([{ family: 'Ok' }]);
    expect(b.year).toBeUndefined();
    expect(b.url).toBeUndefined();
    expect(b.doi).toBeUndefined();
  });

  it('lists records in the order asked, finds by DOI, and forgets a deleted document', async () => {
    const a = (await put(lib.store, doc('a.txt', 'alpha'))).documentId;
    const b = (await put(lib.store, doc('b.txt', 'beta'))).documentId;
    await bib.put(a, { source: 'ris', authors: [], doi: '10.5555/x' });
    await bib.put(b, { source: 'ris', authors: [], title: 'B' });
    expect((await bib.list([b, 999, a])).map((r) => r.documentId)).toEqual([b, a]);
    expect(await bib.byDoi('10.5555/X')).toEqual([a]);
    await lib.store.deleteDocument(a);
    expect(await bib.get(a)).toBeNull();
    await expect(bib.put(a, { source: 'user', authors: [] })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });
});
