import { describe, expect, it } from 'vitest';
import type { AnswerReference, Strip } from '../shared/answer-api';
import { citedDraft, parseCitations } from './parse-citations';

function strip(id: string, text: string): Strip {
  return {
    id,
    source: id.startsWith('w') ? 'web' : 'library',
    documentId: id.startsWith('d') ? Number(id.slice(1).split(':')[0]) : null,
    ...(id.startsWith('w') ? { url: `https://example.org/${id}` } : {}),
    chunkId: 1,
    path: 'a.txt',
    title: 'A',
    start: 0,
    end: text.length,
    text,
    score: 1,
  };
}

const ref = (s: Strip, n: number): AnswerReference => ({
  n,
  stripId: s.id,
  source: s.source,
  documentId: s.documentId,
  chunkId: s.chunkId,
  path: s.path,
  title: s.title,
  start: s.start,
  end: s.end,
});

describe('parseCitations', () => {
  it('takes the markers of each sentence and removes them from its text', () => {
    const parsed = parseCitations('Aspirin lowers fever [1]. It also thins blood [2][3].', 3);
    expect(parsed).toEqual([
      { text: 'Aspirin lowers fever.', numbers: [1], dropped: [] },
      { text: 'It also thins blood.', numbers: [2, 3], dropped: [] },
    ]);
  });

  it('gives markers written after the full stop to the sentence before them', () => {
    const parsed = parseCitations('Aspirin lowers fever. [1] It thins blood.[2] Done [1, 2].', 2);
    expect(parsed.map((p) => [p.text, p.numbers])).toEqual([
      ['Aspirin lowers fever.', [1]],
      ['It thins blood.', [2]],
      ['Done.', [1, 2]],
    ]);
  });

  it('drops numbers that were not in the context', () => {
    const [s] = parseCitations('Cats purr at 25 Hz [2][7][0].', 3);
    expect(s).toEqual({ text: 'Cats purr at 25 Hz.', numbers: [2], dropped: [7, 0] });
  });

  it('reads ranges, lists and "Source n" forms, without repeats', () => {
    const [s] = parseCitations('X holds [1-3; Source 2, S4].', 5);
    expect(s?.numbers).toEqual([1, 2, 3, 4]);
    const [wide] = parseCitations('Y holds [1-400].', 5);
    expect(wide).toEqual({ text: 'Y holds.', numbers: [1], dropped: [400] });
  });

  it('keeps a sentence with no marker (the checker will call it unsupported)', () => {
    const parsed = parseCitations('First [1]. The moon is made of cheese.', 1);
    expect(parsed[1]).toEqual({ text: 'The moon is made of cheese.', numbers: [], dropped: [] });
  });

  it('does not split at e.g. or et al.', () => {
    const parsed = parseCitations('Some drugs, e.g. aspirin, help [1]. Smith et al. agree [2].', 2);
    expect(parsed.map((p) => p.numbers)).toEqual([[1], [2]]);
  });

  it('leaves brackets that are not citations as they are', () => {
    expect(parseCitations('Use the array a[i] here [1].', 1)[0]?.text).toBe(
      'Use the array a[i] here.',
    );
  });

  it('returns nothing for empty or marker-only text', () => {
    expect(parseCitations('', 3)).toEqual([]);
    expect(parseCitations(' [1] ', 3)).toEqual([]);
  });
});

describe('citedDraft', () => {
  it('numbers references in order of first citation and maps each sentence to strip ids', () => {
    const strips = [strip('d1:0-5', 'alpha'), strip('d1:6-10', 'beta'), strip('w1', 'gamma')];
    const parsed = parseCitations('B holds [3]. A and B hold [1][3]. Z holds [9].', strips.length);
    const draft = citedDraft(parsed, strips, ref);
    expect(draft.references.map((r) => [r.n, r.stripId])).toEqual([
      [1, 'w1'],
      [2, 'd1:0-5'],
    ]);
    expect(draft.sentences).toEqual([
      { text: 'B holds.', citations: [1], stripIds: ['w1'], dropped: [] },
      { text: 'A and B hold.', citations: [2, 1], stripIds: ['d1:0-5', 'w1'], dropped: [] },
      { text: 'Z holds.', citations: [], stripIds: [], dropped: [9] },
    ]);
  });

  it('lists each document once, however many of its strips are cited', () => {
    const strips = [
      strip('d7:0-5', 'one'),
      strip('d7:6-10', 'two'),
      strip('d8:0-5', 'three'),
      strip('d7:11-20', 'four'),
      strip('d7:21-30', 'five'),
    ];
    const parsed = parseCitations('A [1]. B [2]. C [3][4]. D [5][1].', strips.length);
    const draft = citedDraft(parsed, strips, ref);
    expect(draft.references.map((r) => [r.n, r.stripId, r.documentId])).toEqual([
      [1, 'd7:0-5', 7],
      [2, 'd8:0-5', 8],
    ]);
    expect(draft.sentences.map((s) => [s.citations, s.stripIds])).toEqual([
      [[1], ['d7:0-5']],
      [[1], ['d7:6-10']],
      [
        [2, 1],
        ['d8:0-5', 'd7:11-20'],
      ],
      [[1], ['d7:21-30', 'd7:0-5']],
    ]);
  });
});
