// A real PDF through the PDF parser (pdfjs in Node): its Info title and the DOI and arXiv id
// printed on its first page become the document's bibliographic guess; a PDF with none has none.
import { describe, expect, it } from 'vitest';
import { makePdf } from '../../e2e/fixtures/make-fixtures';
import { createPdfParser } from './parse-pdf';
import { loadNodePdfjs } from './pdfjs-loader';

const parsePdf = createPdfParser({ loadPdfjs: loadNodePdfjs });

describe('PDF bibliographic guess', () => {
  it('reads the Info title and the first page’s DOI and arXiv id', async () => {
    const pdf = makePdf(
      [
        ['Deep Sets', 'arXiv:1703.06114v3 [cs.LG]', 'https://doi.org/10.5555/3294996.3295098'],
        ['A second page citing doi:10.1000/other'],
      ],
      'Deep Sets',
    );
    const parsed = await parsePdf(new Uint8Array(pdf), {
      path: 'deep-sets.pdf',
      name: 'deep-sets.pdf',
    });
    expect(parsed.biblio).toEqual({
      source: 'pdf',
      authors: [],
      title: 'Deep Sets',
      arxiv: '1703.06114',
      year: 2017,
      doi: '10.5555/3294996.3295098',
    });
  });

  it('has no guess when the PDF says nothing', async () => {
    const pdf = makePdf([['Plain text without identifiers.']], 'untitled');
    const parsed = await parsePdf(new Uint8Array(pdf), { path: 'x.pdf', name: 'x.pdf' });
    expect(parsed.biblio).toBeUndefined();
  });
});
