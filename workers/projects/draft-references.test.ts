import { describe, expect, it } from 'vitest';
import type { DocumentSummary } from '../shared/types';
import { matchReference, parseDraftReferences, replaceCitation } from './draft-references';

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

  it('reads a reference line with 100,000 inner spaces in linear time (the old pattern took ~8 s)', () => {
    const gap = ' '.repeat(100_000);
    const draft = `Prose [1].\n\n[1] a${gap}b\n[2] c${gap}\u0000\n3. d${' e'.repeat(50_000)}${gap}f`;
    const t0 = performance.now();
    const r = parseDraftReferences(draft);
    const ms = performance.now() - t0;
    expect(r.references.get('1')).toBe(`a${gap}b`);
    expect(r.references.get('2')).toBe(`c${gap}\u0000`);
    expect(r.references.get('3')?.endsWith(`${gap}f`)).toBe(true);
    // A quadratic pattern spends seconds here; linear work is a few ms, so the bound is loose.
    expect(ms).toBeLessThan(500);
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

describe('replaceCitation', () => {
  const draft = ['A is B [1].', 'C is D [1, 2].', '', 'References', '[1] a.txt', '[2] b.txt'].join(
    '\n',
  );
  const at = (sentence: string) => {
    const start = draft.indexOf(sentence);
    return { start, end: start + sentence.length };
  };

  it('gives the marker a new number and adds its reference line; others keep theirs', () => {
    const out = replaceCitation(draft, at('C is D [1, 2].'), '1', 'notes/c.txt');
    expect(out).toBe(
      [
        'A is B [1].',
        'C is D [3, 2].',
        '',
        'References',
        '[1] a.txt',
        '[2] b.txt',
        '[3] notes/c.txt',
        '',
      ].join('\n'),
    );
    const refs = parseDraftReferences(out).references;
    expect([...refs]).toEqual([
      ['1', 'a.txt'],
      ['2', 'b.txt'],
      ['3', 'notes/c.txt'],
    ]);
  });

  it('starts a reference block when the draft has none, and ignores a marker not there', () => {
    const plain = 'Smoking causes cancer [4].';
    const out = replaceCitation(plain, { start: 0, end: plain.length }, '4', 'x.txt');
    expect(out).toBe('Smoking causes cancer [5].\n\nReferences\n[5] x.txt\n');
    expect(parseDraftReferences(out).references.get('5')).toBe('x.txt');
    expect(replaceCitation(draft, at('A is B [1].'), '2', 'x.txt')).toBe(draft);
  });
});
