// The one citation form (author-year with page) and the DOI / arXiv id forms everyone shares.
import { describe, expect, it } from 'vitest';
import { citeAuthorYear, normaliseArxiv, normaliseDoi, parseYear } from './biblio';

describe('citeAuthorYear', () => {
  const a = (...f: string[]) => f.map((family) => ({ family }));
  it('names one, two or the first of many authors, the year and the page', () => {
    expect(citeAuthorYear({ authors: a('Doll'), year: 1954 }, 14)).toBe('Doll 1954, p. 14');
    expect(citeAuthorYear({ authors: a('Doll', 'Hill'), year: 1954 })).toBe('Doll & Hill 1954');
    expect(citeAuthorYear({ authors: a('A', 'B', 'C') })).toBe('A et al. n.d.');
    expect(citeAuthorYear({ authors: [], title: 'R Language Definition', year: 2024 }, 3)).toBe(
      '“R Language Definition” 2024, p. 3',
    );
    expect(citeAuthorYear({ authors: [] })).toBeNull();
  });
});

describe('identifiers', () => {
  it('normalises DOIs and arXiv ids, refusing what is neither', () => {
    expect(normaliseDoi('https://doi.org/10.1000/ABC.1).')).toBe('10.1000/abc.1');
    expect(normaliseDoi('doi: 10.1136/bmj.1')).toBe('10.1136/bmj.1');
    expect(normaliseDoi('11.1000/x')).toBeUndefined();
    expect(normaliseArxiv('arXiv:2101.00001v2')).toBe('2101.00001');
    expect(normaliseArxiv('https://arxiv.org/pdf/hep-th/9901001v1.pdf')).toBe('hep-th/9901001');
    expect(normaliseArxiv('2101.1')).toBeUndefined();
    expect(parseYear('1954///')).toBe(1954);
    expect(parseYear('3021')).toBeUndefined();
  });
});
