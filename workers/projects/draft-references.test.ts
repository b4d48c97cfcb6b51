import { describe, expect, it } from 'vitest';
import type { DocumentSummary } from '../shared/types';
import { matchReference, parseDraftReferences } from './draft-references';

const docOf = (id: number, path: string, title = path, sourceUrl: string | null = null) =>
  ({ id, path, title, sourceUrl }) as DocumentSummary;

describe('parseDraftReferences', () => {
  it('reads the trailing reference block and leaves the prose', () => {
    const draft = [
      'Vitamin D reduces fractures [1].',
      '1. A numbered point inside the text stays text.',
      'More prose [2].',
      '',
      '## References',
      '[1] notes/a.txt',
      '2. https://x.org/b',
    ].join('\n');
    const r = parseDraftReferences(draft);
    expect([...r.references]).toEqual([
      ['1', 'notes/a.txt'],
      ['2', 'https://x.org/b'],
    ]);
    expect(r.body).toContain('A numbered point inside the text stays text.');
    expect(r.body).not.toContain('References');
  });

  it('returns the draft unchanged when it has no reference lines', () => {
    expect(parseDraftReferences('Just prose [1].')).toEqual({
      body: 'Just prose [1].',
      references: new Map(),
    });
  });
});

describe('matchReference', () => {
  const docs = [docOf(1, 'notes/a.txt', 'Bone trial'), docOf(2, 'web/b', 'B', 'https://x.org/b')];
  it('matches path, URL, title and a path suffix, case-insensitively', () => {
    expect(matchReference('notes/a.txt', docs)?.id).toBe(1);
    expect(matchReference('https://X.org/b', docs)?.id).toBe(2);
    expect(matchReference('bone trial', docs)?.id).toBe(1);
    expect(matchReference('a.txt', docs)?.id).toBe(1);
    expect(matchReference('missing.txt', docs)).toBeNull();
    expect(matchReference('  ', docs)).toBeNull();
  });
});
