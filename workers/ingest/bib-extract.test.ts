// A PDF's bibliographic guess: XMP before the Info dictionary, junk titles ignored, DOI and arXiv
// id from the first page, the year from metadata or the arXiv id (not from cited years).
import { describe, expect, it } from 'vitest';
import { biblioFromPdf, hasBiblio, splitAuthors } from './bib-extract';

describe('biblioFromPdf', () => {
  it('reads XMP first, then Info, and the first page for DOI and arXiv id', () => {
    const b = biblioFromPdf({
      info: {
        Title: 'Microsoft Word - draft3.docx',
        Author: 'Ignored Person',
        CreationDate: 'D:20190301',
      },
      xmp: { 'dc:title': 'Deep Sets', 'dc:creator': ['Manzil Zaheer', 'Satwik Kottur'] },
      firstPage: 'Deep Sets\narXiv:1703.06114v3 [cs.LG] 14 Apr 2018\nAs shown by Smith (1999)…',
    });
    expect(b).toEqual({
      source: 'pdf',
      title: 'Deep Sets',
      authors: [
        { family: 'Zaheer', given: 'Manzil' },
        { family: 'Kottur', given: 'Satwik' },
      ],
      arxiv: '1703.06114',
      year: 2017,
    });
  });

  it('takes the DOI printed on the first page and the Info year; a junk title is left out', () => {
    const b = biblioFromPdf({
      info: {
        Title: 'untitled',
        Author: 'Doll, R.; Hill, A. B.',
        CreationDate: 'D:20040612093000Z',
      },
      firstPage:
        'BMJ 2004;328:1519 doi:10.1136/bmj.38142.554479.AE.\nMortality in relation to smoking',
    });
    expect(b).toEqual({
      source: 'pdf',
      authors: [
        { family: 'Doll', given: 'R.' },
        { family: 'Hill', given: 'A. B.' },
      ],
      doi: '10.1136/bmj.38142.554479.ae',
      year: 2004,
    });
  });

  it('finds nothing in a PDF without metadata, and says so', () => {
    const b = biblioFromPdf({ info: null, firstPage: 'Just some text from 1999 and 2003.' });
    expect(b).toEqual({ source: 'pdf', authors: [] });
    expect(hasBiblio(b)).toBe(false);
  });

  it('splits author strings as tools write them', () => {
    expect(splitAuthors('A. Smith and B. Jones')).toEqual([
      { family: 'Smith', given: 'A.' },
      { family: 'Jones', given: 'B.' },
    ]);
    expect(splitAuthors('Ann Lee, Bo Chan, Cy Dunn').map((a) => a.family)).toEqual([
      'Lee',
      'Chan',
      'Dunn',
    ]);
  });
});
