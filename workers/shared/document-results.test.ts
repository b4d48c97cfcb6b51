import { describe, expect, it } from 'vitest';
import { addInOrder, documentResults, groupInOrder, MORE_PASSAGES } from './document-results';
import type { SearchHit } from './types';

const hit = (chunkId: number, documentId: number, score = 1): SearchHit => ({
  chunkId,
  documentId,
  path: `doc-${documentId}.txt`,
  title: `Document ${documentId}`,
  mime: 'text/plain',
  seq: chunkId,
  start: 0,
  end: 1,
  score,
  snippet: { text: '', highlights: [] },
  ranks: {},
});

describe('one entry per document', () => {
  it('orders documents by their best chunk and keeps the next passages beneath, in rank order', () => {
    const hits = [hit(1, 10), hit(2, 10), hit(3, 20), hit(4, 10), hit(5, 30), hit(6, 20)];
    const docs = documentResults(hits);
    expect(docs.map((d) => d.documentId)).toEqual([10, 20, 30]);
    expect(docs[0]!.passages.map((p) => p.chunkId)).toEqual([1, 2, 4]);
    expect(docs[1]!.passages.map((p) => p.chunkId)).toEqual([3, 6]);
    expect(docs[0]).toMatchObject({ path: 'doc-10.txt', title: 'Document 10', mime: 'text/plain' });
  });

  it('counts a page in documents, not chunks, and bounds the passages kept per document', () => {
    const many = Array.from({ length: 40 }, (_, i) => hit(i, i < 30 ? 1 : i));
    const docs = documentResults(many, 5);
    expect(docs).toHaveLength(5);
    expect(docs[0]!.passages).toHaveLength(1 + MORE_PASSAGES);
    expect(docs.map((d) => d.documentId)).toEqual([1, 30, 31, 32, 33]);
  });

  it('is deterministic and never repeats a chunk', () => {
    const hits = [hit(1, 1), hit(1, 1), hit(2, 2)];
    expect(documentResults(hits)).toEqual(documentResults([...hits]));
    expect(documentResults(hits)[0]!.passages).toHaveLength(1);
  });

  it('appends a deeper reading without moving the documents already on the page', () => {
    const groups = new Map<string, Array<{ id: number; key: string }>>();
    const a = (id: number, key: string) => ({ id, key });
    addInOrder(
      groups,
      [a(1, 'x'), a(2, 'y')],
      (i) => i.key,
      (i) => i.id,
      3,
      3,
    );
    // The deeper reading ranks y first (another fusion depth): y still stays second.
    addInOrder(
      groups,
      [a(2, 'y'), a(3, 'z'), a(1, 'x'), a(4, 'x'), a(5, 'w')],
      (i) => i.key,
      (i) => i.id,
      3,
      3,
    );
    expect([...groups.keys()]).toEqual(['x', 'y', 'z']);
    expect(groups.get('x')!.map((i) => i.id)).toEqual([1, 4]);
  });

  it('groups in order of first appearance with a cap on groups (the answer passages)', () => {
    expect(groupInOrder([1, 2, 1, 3, 2, 4], (n) => n % 2, 1)).toEqual([[1, 1, 3]]);
  });
});
