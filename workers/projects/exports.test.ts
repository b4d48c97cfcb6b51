import { describe, expect, it } from 'vitest';
import { RETRIEVAL_AUDIT_HEADINGS } from './export-spec.testkit';
import { cell, indexMetadata, projectReport, retrievalAudit, type ExportSource } from './exports';
import { provenanceOf } from './provenance';
import { objectiveMeasures, triangulate } from './triangulation';

const sources: ExportSource[] = [
  {
    hash: 'b1b2c3d4e5f6',
    provenance: provenanceOf({ location: 'https://nature.com/a', title: 'A | paper', date: 0 }, 1),
    passageCount: 12,
  },
  {
    hash: 'a1b2c3d4e5f6',
    provenance: provenanceOf(
      { location: 'notes/own.md', title: 'Own', date: 86_400_000 },
      undefined,
    ),
    passageCount: 3,
  },
];
const stats = {
  total_queries: 4,
  avg_results_per_query: 4.25,
  cache_hit_rate: 0.25,
  zero_result_queries: 1,
};

describe('exports', () => {
  it('writes index_metadata.json in the spec shape', () => {
    const m = indexMetadata(sources, stats);
    expect(Object.keys(m)).toEqual([
      'index_built',
      'document_count',
      'indexed_hashes',
      'sources',
      'retrieval_stats',
    ]);
    expect(m.indexed_hashes).toEqual(['a1b2c3d4e5f6', 'b1b2c3d4e5f6']);
    expect(m.sources['b1b2c3d4e5f6']).toEqual({
      url: 'https://nature.com/a',
      title: 'A | paper',
      quality: 'A',
      fetch_date: '1970-01-01T00:00:00.000Z',
      passage_count: 12,
    });
    expect(m.retrieval_stats).toEqual({
      total_queries: 4,
      avg_results_per_query: 4.25,
      cache_hit_rate: 0.25,
    });
    expect(indexMetadata([], stats).index_built).toBe(false);
  });

  it('writes retrieval_audit.md with the spec sections and a safe table', () => {
    const md = retrievalAudit(sources, stats, [
      {
        claim: 'X | y',
        citedSource: 'https://nature.com/a',
        audit: { status: 'PASS', supportScore: 0.85 },
      },
      { claim: 'Z', citedSource: 'gone.md', audit: { status: 'SOURCE_NOT_INDEXED' } },
    ]);
    for (const h of RETRIEVAL_AUDIT_HEADINGS) expect(md).toContain(h);
    expect(md).toContain('- Documents indexed: 2');
    expect(md).toContain('- Total passages: 15');
    expect(md).toContain('- Zero-result queries: 1 (25%)');
    expect(md).toContain('| X \\| y | https\\://nature.com/a |  | 0.85 | PASS |');
    expect(md).toContain('Re-fetch or import gone.md');
    expect(cell('a\nb'.repeat(200), 10)).toHaveLength(10);
  });

  it('writes the project report with claims, measures, audit and references', () => {
    const t = triangulate([
      { id: '1', provenance: sources[0]!.provenance, stance: 'SUPPORT', supportScore: 0.9 },
    ]);
    const md = projectReport({
      project: 'Bones',
      question: 'Does vitamin D prevent fractures?',
      answer: {
        sentences: [{ text: 'Probably.', citations: [1] }],
        citations: [{ n: 1, provenance: sources[0]!.provenance }],
      },
      claims: [{ text: 'Vitamin D lowers fracture risk.', triangulation: t }],
      audit: [],
      measures: objectiveMeasures([t]),
      references: sources.map((s) => s.provenance),
    });
    expect(md).toContain('| 1 | Vitamin D lowers fracture risk. | LIKELY | 1 | A \\| paper |  |');
    expect(md).toContain('Triangulation coverage: 0% (target >= 90%)');
    expect(md).toContain('[1] A \\| paper — <https://nature.com/a> (grade A, tier 1, 1970-01-01)');
    expect(md).toContain('2. Own — `notes/own.md` (grade C, tier own, 1970-01-02)');
  });
});
