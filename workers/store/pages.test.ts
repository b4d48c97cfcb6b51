// A PDF's page and section starts are stored with its text: the document detail carries them and
// every search hit says the pages its passage is on and the section it starts in; documents
// without them say none.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { doc, openTestLibrary, put, type TestLibrary } from './store.testkit';

let lib: TestLibrary;
beforeEach(async () => {
  lib = await openTestLibrary();
});
afterEach(async () => {
  await lib.close();
});

describe('pages', () => {
  it('keeps page starts with the document and puts the pages on each hit', async () => {
    // 398 characters and a blank line: page 2 starts at 400, where the testkit's 200-character
    // chunks start a chunk.
    const first = 'Preface words. '.repeat(30).slice(0, 397) + '.';
    const second = 'Lazy evaluation delays a promise until it is needed.';
    const text = `${first}\n\n${second}`;
    const pageStarts: Array<[number, number]> = [
      [1, 0],
      [2, first.length + 2],
    ];
    const sections: Array<[number, string[]]> = [
      [0, ['Preface']],
      [first.length + 2, ['2 Evaluation', '2.1 Promises']],
    ];
    const { documentId } = await put(
      lib.store,
      doc('manual.pdf', text, { mime: 'application/pdf', pageStarts, sections }),
    );
    await put(lib.store, doc('notes.txt', 'A promise in plain notes.'));
    const detail = await lib.store.getDocument(documentId);
    expect(detail.pageStarts).toEqual(pageStarts);
    expect(detail.sections).toEqual(sections);
    const { hits } = await lib.search.search({ query: 'promise' });
    const pdf = hits.find((h) => h.path === 'manual.pdf')!;
    expect(pdf.pages).toEqual({ first: 2, last: 2 });
    expect(pdf.section).toEqual(['2 Evaluation', '2.1 Promises']);
    const notes = hits.find((h) => h.path === 'notes.txt')!;
    expect(notes.pages).toBeUndefined();
    expect(notes.section).toBeUndefined();
    expect((await lib.store.getDocument(notes.documentId)).sections).toBeNull();
  });
});
