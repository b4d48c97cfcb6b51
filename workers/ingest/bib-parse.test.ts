// Reference files as Zotero, JabRef, Mendeley and EndNote export them: BibTeX (braces, quotes,
// @string macros, `#`, LaTeX accents, `file` fields), RIS (multi-line values, files) and
// CSL-JSON; broken entries are skipped and counted, an unknown format is a clear error.
import { describe, expect, it } from 'vitest';
import {
  detectBibFormat,
  latexToText,
  parseBibtex,
  parseCslJson,
  parseReferences,
  parseRis,
} from './bib-parse';

const BIB = String.raw`
@string{nat = "Nature"}
@comment{ignored}
@article{smith2020tea,
  title = {Green {Tea} and the {M\"uller} Effect},
  author = {Smith, John and M{\"u}ller, Anna and {World Health Organization}},
  journal = nat # " Medicine",
  year = 2020,
  doi = {https://doi.org/10.1038/S41591-020-0001-X},
  file = {Full Text:files/12/smith2020.pdf:application/pdf}
}
@inproceedings{doe19,
  title = "A {quoted} title, with {braces}",
  author = "Jane Doe and others",
  booktitle = {Proc. ACL},
  year = {2019},
  eprint = {1901.00001v2}, archivePrefix = {arXiv}
}
@article{broken, title = {never closed
`;

describe('parseBibtex', () => {
  it('reads fields, macros, accents, corporate authors, DOI, arXiv and files', () => {
    const { entries, skipped } = parseBibtex(BIB);
    expect(skipped).toBe(1);
    expect(entries).toHaveLength(2);
    expect(entries[0]).toEqual({
      key: 'smith2020tea',
      source: 'bibtex',
      type: 'article-journal',
      title: 'Green Tea and the Müller Effect',
      authors: [
        { family: 'Smith', given: 'John' },
        { family: 'Müller', given: 'Anna' },
        { family: 'World Health Organization' },
      ],
      container: 'Nature Medicine',
      year: 2020,
      doi: '10.1038/s41591-020-0001-x',
      files: ['files/12/smith2020.pdf'],
    });
    expect(entries[1]).toMatchObject({
      key: 'doe19',
      type: 'paper-conference',
      authors: [{ family: 'Doe', given: 'Jane' }],
      year: 2019,
      arxiv: '1901.00001',
      container: 'Proc. ACL',
    });
  });

  it('decodes the LaTeX a reference manager writes', () => {
    expect(latexToText(String.raw`Erd{\H o}s, {\'E}mile \& G\"odel -- {\ss}`)).toBe(
      'Erdős, Émile & Gödel – ß',
    );
  });
});

describe('parseRis', () => {
  it('reads entries, continuation lines and file links; an entry without ER is skipped', () => {
    const ris = [
      'TY  - JOUR',
      'TI  - Smoking and lung',
      '  cancer: a cohort',
      'AU  - Doll, Richard',
      'AU  - Hill, A. Bradford',
      'PY  - 1954///',
      'JO  - BMJ',
      'DO  - 10.1136/bmj.1.4877.1451',
      'L1  - file:///home/u/papers/doll1954.pdf',
      'ER  - ',
      'TY  - RPRT',
      'TI  - Lost',
    ].join('\r\n');
    const { entries, skipped } = parseRis(ris);
    expect(skipped).toBe(1);
    expect(entries).toEqual([
      {
        source: 'ris',
        type: 'article-journal',
        title: 'Smoking and lung cancer: a cohort',
        authors: [
          { family: 'Doll', given: 'Richard' },
          { family: 'Hill', given: 'A. Bradford' },
        ],
        year: 1954,
        container: 'BMJ',
        doi: '10.1136/bmj.1.4877.1451',
        files: ['home/u/papers/doll1954.pdf'],
      },
    ]);
  });
});

describe('parseCslJson', () => {
  it('reads items; skips ones with neither title nor author', () => {
    const { entries, skipped } = parseCslJson(
      JSON.stringify([
        {
          id: 'k1',
          type: 'article-journal',
          title: 'Attention is all you need',
          author: [{ family: 'Vaswani', given: 'Ashish' }, { literal: 'Google Brain' }],
          issued: { 'date-parts': [[2017, 6]] },
          URL: 'https://arxiv.org/abs/1706.03762v5',
          DOI: '10.48550/arXiv.1706.03762',
        },
        { id: 'empty' },
        'not an item',
      ]),
    );
    expect(skipped).toBe(2);
    expect(entries).toEqual([
      {
        key: 'k1',
        source: 'csl-json',
        type: 'article-journal',
        title: 'Attention is all you need',
        authors: [{ family: 'Vaswani', given: 'Ashish' }, { family: 'Google Brain' }],
        year: 2017,
        url: 'https://arxiv.org/abs/1706.03762v5',
        doi: '10.48550/arxiv.1706.03762',
        arxiv: '1706.03762',
        files: [],
      },
    ]);
  });
});

describe('parseReferences', () => {
  it('picks the format from the name or the text, and refuses anything else clearly', () => {
    expect(detectBibFormat('refs.txt', '  @article{x,}')).toBe('bibtex');
    expect(detectBibFormat('export', 'TY  - JOUR\nER  - ')).toBe('ris');
    expect(parseReferences('refs.json', '[]').format).toBe('csl-json');
    expect(() => parseReferences('notes.txt', 'hello')).toThrow(/BibTeX.*RIS.*CSL-JSON/);
    expect(() => parseReferences('refs.json', '{oops')).toThrow(/not valid JSON/);
  });
});
