import { describe, expect, it } from 'vitest';
import {
  filterByProvenance,
  GRADE_TABLE,
  gradeFor,
  provenanceOf,
  registeredDomain,
  sortByProvenance,
  sourceTypeOf,
} from './provenance';
import { objectiveMeasures, triangulate, type JudgedSource } from './triangulation';
import type { Stance } from './stance-model';

const src = (
  id: string,
  url: string,
  stance: Stance,
  tier: 1 | 2 | 3 | 4 | 5 | undefined = undefined,
  extra: { author?: string; publisher?: string } = {},
): JudgedSource => ({
  id,
  provenance: provenanceOf({ location: url, title: id, date: 0, ...extra }, tier),
  stance,
  supportScore: 0.9,
});

describe('provenance', () => {
  it('grades from tier and source type through the one table, and local files default to "own"', () => {
    expect(sourceTypeOf('https://www.nature.com/articles/x')).toBe('peer-reviewed');
    expect(sourceTypeOf('https://arxiv.org/abs/1')).toBe('preprint');
    expect(sourceTypeOf('https://data.cdc.gov/x')).toBe('official');
    expect(sourceTypeOf('notes/draft.md')).toBe('own');
    expect(provenanceOf({ location: 'https://nature.com/a', title: '', date: 0 }, 1).grade).toBe(
      'A',
    );
    const local = provenanceOf({ location: 'notes/draft.md', title: 'Draft', date: 5 }, undefined);
    expect(local).toMatchObject({ tier: 'own', grade: 'C', provider: 'library', domain: null });
    // Editing the table changes the grade, nothing else does.
    const edited = { ...GRADE_TABLE, own: { ...GRADE_TABLE.own, own: 'A' as const } };
    expect(gradeFor('own', 'own', edited)).toBe('A');
  });

  it('finds the registered domain', () => {
    expect(registeredDomain('https://news.bbc.co.uk/x')).toBe('bbc.co.uk');
    expect(registeredDomain('https://a.b.example.com/x')).toBe('example.com');
    expect(registeredDomain('file.txt')).toBeNull();
  });

  it('filters by grade, tier and date and sorts stably', () => {
    const items = [
      { n: 1, provenance: provenanceOf({ location: 'https://x.com/', title: '', date: 10 }, 3) },
      {
        n: 2,
        provenance: provenanceOf({ location: 'https://nature.com/', title: '', date: 30 }, 1),
      },
      { n: 3, provenance: provenanceOf({ location: 'https://y.com/', title: '', date: 20 }, 4) },
    ];
    expect(filterByProvenance(items, { minGrade: 'C' }).map((i) => i.n)).toEqual([1, 2]);
    expect(filterByProvenance(items, { tiers: [4], after: 15 }).map((i) => i.n)).toEqual([3]);
    expect(sortByProvenance(items, 'grade').map((i) => i.n)).toEqual([2, 1, 3]);
    expect(sortByProvenance(items, 'date').map((i) => i.n)).toEqual([2, 3, 1]);
  });
});

describe('triangulation', () => {
  it('counts independent support by registered domain, author and publisher', () => {
    const sameSite = [
      src('a', 'https://a.example.com/1', 'SUPPORT'),
      src('b', 'https://b.example.com/2', 'SUPPORT'),
      src('c', 'https://other.org/3', 'SUPPORT', undefined, { author: 'Kim' }),
    ];
    expect(triangulate(sameSite)).toMatchObject({ status: 'LIKELY', independentSupport: 2 });
    const sameAuthor = [
      ...sameSite,
      src('d', 'https://third.net/4', 'SUPPORT', undefined, { author: 'kim ' }),
    ];
    expect(triangulate(sameAuthor).independentSupport).toBe(2);
    const three = [...sameSite, src('e', 'https://fourth.net/5', 'SUPPORT')];
    expect(triangulate(three).status).toBe('VERIFIED');
  });

  it('is CONTESTED only by a credible contradiction, UNVERIFIED without support', () => {
    expect(triangulate([src('x', 'https://x.com', 'CONTRADICT', 4)]).status).toBe('UNVERIFIED');
    expect(
      triangulate([
        src('s', 'https://s.com', 'SUPPORT'),
        src('x', 'https://nature.com', 'CONTRADICT', 1),
      ]).status,
    ).toBe('CONTESTED');
    expect(triangulate([src('n', 'https://n.com', 'NEUTRAL')]).status).toBe('UNVERIFIED');
    // A minimum grade drops weaker sources before counting (B or better for key claims).
    expect(triangulate([src('s', 'https://s.com', 'SUPPORT', 3)], { minGrade: 'B' }).status).toBe(
      'UNVERIFIED',
    );
  });

  it('computes the protocol measures over a project', () => {
    const v = triangulate([
      src('1', 'https://nature.com/1', 'SUPPORT', 1),
      src('2', 'https://b.org/2', 'SUPPORT'),
      src('3', 'https://c.org/3', 'SUPPORT'),
    ]);
    const l = triangulate([src('1', 'https://nature.com/1', 'SUPPORT', 1)]);
    const m = objectiveMeasures([v, l], [100, 300]);
    expect(m).toMatchObject({
      triangulationCoverage: 50,
      claims: 2,
      sources: 3,
      averageLatencyMs: 200,
    });
    expect(m.tier1Ratio).toBeCloseTo(1 / 3);
    expect(m.byStatus).toEqual({ VERIFIED: 1, LIKELY: 1, UNVERIFIED: 0, CONTESTED: 0 });
    expect(objectiveMeasures([]).triangulationCoverage).toBe(0);
  });
});
