// A document cited through several passages appears once in the reference list, with all its
// numbers; web results group by URL; order follows the first citation.
import { describe, expect, it } from 'vitest';
import type { AnswerReference } from '../../workers/shared/answer-api';
import { groupReferences } from './reference-groups';

const lib = (n: number, documentId: number): AnswerReference => ({
  n,
  stripId: `d${documentId}:${n}`,
  source: 'library',
  documentId,
  chunkId: n,
  path: `doc-${documentId}.pdf`,
  title: `Doc ${documentId}`,
  start: n * 10,
  end: n * 10 + 5,
});

describe('groupReferences', () => {
  it('lists each document once with every number that cites it', () => {
    const web = {
      ...lib(4, 0),
      source: 'web' as const,
      documentId: null,
      url: 'https://a.example/x',
    };
    const groups = groupReferences([lib(3, 7), lib(1, 7), lib(2, 9), web, { ...web, n: 5 }]);
    expect(groups.map((g) => [g.ref.title, g.numbers])).toEqual([
      ['Doc 7', [1, 3]],
      ['Doc 9', [2]],
      ['Doc 0', [4, 5]],
    ]);
  });
});
