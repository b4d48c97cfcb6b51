// The answer's sentences: Intl.Segmenter's breaks, except between a page reference's "p." and its
// number ("(p. 102)"), with exact offsets.
import { describe, expect, it } from 'vitest';
import { sentences, strips } from './text';

const TEXT =
  'Run it from a script, see pause mouse close (p. 102). See pp. 12-14 too. ' +
  'The p. K510E mutation is rare. Done.';

describe('sentences of a text', () => {
  it('does not end a sentence between "p." and its page number', () => {
    const got = sentences(TEXT).map((s) => s.text);
    expect(got.slice(0, 2)).toEqual([
      'Run it from a script, see pause mouse close (p. 102).',
      'See pp. 12-14 too.',
    ]);
    expect(got.at(-1)).toBe('Done.');
    for (const s of sentences(TEXT)) expect(TEXT.slice(s.start, s.end)).toBe(s.text);
    expect(strips(TEXT).map((s) => s.text)).toEqual(got);
  });

  it('keeps offsets within a range of a longer text', () => {
    const from = TEXT.indexOf('See pp.');
    const got = sentences(TEXT, from, TEXT.indexOf('The p.'));
    expect(got.map((s) => s.text)).toEqual(['See pp. 12-14 too.']);
    expect(got[0]!.start).toBe(from);
  });
});
