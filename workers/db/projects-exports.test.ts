// The project exports from library data: an audited answer's citations with their tiers in the
// report, unchecked claims left out of the claims table (and said so), stored checks read back.
import { describe, expect, it } from 'vitest';
import type { StoredAnswer } from '../shared/answer-history-api';
import type { ClaimCheckView, ProjectClaim } from '../shared/projects-api';
import type { DocumentSummary } from '../shared/types';
import { buildExports, provenanceOfDocument } from './projects-exports';

const doc: DocumentSummary = {
  id: 1,
  path: 'notes/smoking.txt',
  title: 'Smoking cohort',
  mime: 'text/plain',
  size: 10,
  modified: 0,
  contentHash: 'abcdef0123456789abcdef',
  importedAt: Date.UTC(2026, 0, 2),
  sourceUrl: null,
  qualityGrade: null,
  chunkCount: 3,
};
const check: ClaimCheckView = {
  claim: 'Smoking causes cancer.',
  status: 'LIKELY',
  independentSupport: 1,
  evidence: [
    {
      documentId: 1,
      provenance: provenanceOfDocument(doc),
      stance: 'SUPPORT',
      supportScore: 0.9,
      role: 'supporting',
      sentences: [],
    },
  ],
  skipped: [],
  tookMs: 40,
  minGrade: null,
};
const claim = (id: number, text: string, result: unknown): ProjectClaim => ({
  id,
  seq: id,
  text,
  keyClaim: false,
  checkedAt: result ? 1 : null,
  result,
});
const answer = {
  question: 'Does smoking cause cancer?',
  createdAt: Date.UTC(2026, 0, 3),
  sentences: [{ text: 'Smoking causes cancer.', citations: [1], stripIds: [], support: {} }],
  references: [
    {
      n: 1,
      stripId: 'w1',
      source: 'web',
      documentId: null,
      chunkId: null,
      path: '',
      title: 'Cancer facts',
      start: 0,
      end: 0,
      url: 'https://www.who.int/cancer',
      tier: '1',
    },
  ],
} as unknown as StoredAnswer;

describe('buildExports', () => {
  const files = buildExports({
    project: { id: 1, name: 'Lungs', question: '', createdAt: 0, updatedAt: 0 },
    documents: [doc],
    claims: [claim(1, 'Smoking causes cancer.', check), claim(2, 'Unchecked claim.', null)],
    audit: [],
    answer,
  });

  it('puts the answer with its cited source and tier in the report', () => {
    expect(files.report.text).toContain('## Question\nDoes smoking cause cancer?');
    expect(files.report.text).toContain('## Answer\nSmoking causes cancer. [1]');
    expect(files.report.text).toMatch(
      /\[1\] Cancer facts — <https:\/\/www\.who\.int\/cancer> \(grade A, tier 1/,
    );
  });

  it('tables the checked claims only and says how many are unchecked', () => {
    expect(files.report.text).toContain(
      '| 1 | Smoking causes cancer. | LIKELY | 1 | Smoking cohort |  |',
    );
    expect(files.report.text).not.toContain('| Unchecked claim.');
    expect(files.report.text).toContain('1 claim(s) not checked yet');
  });

  it('writes the spec files from the members and the checks', () => {
    const meta = JSON.parse(files.indexMetadata.text) as {
      indexed_hashes: string[];
      sources: Record<string, { passage_count: number; quality: string; fetch_date: string }>;
      retrieval_stats: { total_queries: number; avg_results_per_query: number };
    };
    expect(meta.indexed_hashes).toEqual(['abcdef012345']);
    expect(meta.sources.abcdef012345).toMatchObject({
      passage_count: 3,
      quality: 'C',
      fetch_date: '2026-01-02T00:00:00.000Z',
    });
    expect(meta.retrieval_stats).toMatchObject({ total_queries: 1, avg_results_per_query: 1 });
    expect(files.retrievalAudit.text).toContain('- Average relevance score: 9/10');
  });
});

describe('buildExports with bibliographic data', () => {
  it('cites the sources author-year in the report references and the answer', () => {
    const { url: _url, ...webRef } = answer.references[0]!;
    const libraryRef = { ...webRef, source: 'library' as const, documentId: doc.id };
    const withBiblio = buildExports({
      project: { id: 1, name: 'Lungs', question: '', createdAt: 0, updatedAt: 0 },
      documents: [doc],
      claims: [],
      audit: [],
      answer: { ...answer, references: [libraryRef] },
      biblio: [
        {
          documentId: doc.id,
          source: 'zotero',
          authors: [{ family: 'Doll' }, { family: 'Hill' }],
          year: 1954,
          updatedAt: 0,
        },
      ],
    });
    // Markdown escapes the ampersand (safe-markdown); it renders as "&".
    expect(withBiblio.report.text).toMatch(/## References\n1\. Doll \\& Hill 1954\. /);
    expect(withBiblio.report.text).toMatch(/\[1\] Doll \\& Hill 1954\. Cancer facts/);
  });
});
