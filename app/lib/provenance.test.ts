import { describe, expect, it } from 'vitest';
import type { DocumentResult, DocumentSummary } from '../../workers/shared/types';
import { orderResults, sourceInfo } from './provenance';

const summary = (id: number, over: Partial<DocumentSummary> = {}): DocumentSummary => ({
  id,
  path: `d${id}.txt`,
  title: `D${id}`,
  mime: 'text/plain',
  size: 1,
  modified: 0,
  chunkCount: 1,
  contentHash: 'h',
  importedAt: id * 1000,
  sourceUrl: null,
  qualityGrade: null,
  ...over,
});
const result = (id: number) => ({ documentId: id }) as DocumentResult;

describe('provenance in the results', () => {
  it('shows a local file as an own document, grade C unless set, and a web page by its site', () => {
    expect(sourceInfo(summary(1))).toEqual({
      origin: 'own document',
      grade: 'C',
      graded: false,
      importedAt: 1000,
    });
    expect(sourceInfo(summary(1, { qualityGrade: 'A' }))).toMatchObject({
      grade: 'A',
      graded: true,
    });
    expect(
      sourceInfo(summary(2, { sourceUrl: 'https://www.nature.com/x', qualityGrade: 'B' })),
    ).toMatchObject({ origin: 'nature.com', grade: 'B' });
  });

  it('orders by grade or import date, ties and unknown documents in ranking order', () => {
    const byId = new Map(
      [
        summary(1, { qualityGrade: 'B' }),
        summary(2),
        summary(3, { qualityGrade: 'A' }),
        summary(4, { qualityGrade: 'B' }),
      ].map((d) => [d.id, d]),
    );
    const docs = [1, 2, 3, 4, 9].map(result);
    const ids = (order: Parameters<typeof orderResults>[1]) =>
      orderResults(docs, order, byId).map((r) => r.documentId);
    expect(ids('relevance')).toEqual([1, 2, 3, 4, 9]);
    expect(ids('grade')).toEqual([3, 1, 4, 2, 9]);
    expect(ids('newest')).toEqual([4, 3, 2, 1, 9]);
    expect(ids('oldest')).toEqual([1, 2, 3, 4, 9]);
  });
});
