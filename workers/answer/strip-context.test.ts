// The cited strip's context window: bounded to CONTEXT_CHARS either side, never a cut word, the
// strip itself left out of before / after, and nothing but the title for unknown offsets.
import { describe, expect, it } from 'vitest';
import { CONTEXT_CHARS, contextText, stripContext } from './strip-context';
import { sentences } from './text';

const TEXT =
  'Macaques were vaccinated with the SIV vaccine in three groups. ' +
  'All six macaques in group 3 were protected. ' +
  'Group 1 received a placebo and every animal was infected within ten weeks.';

describe('stripContext', () => {
  it('takes the neighbouring text on both sides of the strip, with the title', () => {
    const [first, middle, last] = sentences(TEXT);
    const c = stripContext('SIV vaccine in macaques', TEXT, middle!);
    expect(c.title).toBe('SIV vaccine in macaques');
    expect(c.before).toBe(first!.text);
    expect(c.after).toBe(last!.text);
    expect(contextText(middle!.text, c)).toBe(`SIV vaccine in macaques ${TEXT}`);
    const head = stripContext('t', TEXT, first!);
    expect(head.before).toBe('');
    expect(head.after.startsWith('All six macaques')).toBe(true);
  });

  it('stops CONTEXT_CHARS from the strip and drops a word the window cuts', () => {
    const filler = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');
    const before = filler(80);
    const after = filler(80);
    const strip = 'The strip itself.';
    const text = `${before} ${strip} ${after}`;
    const start = before.length + 1;
    const c = stripContext('', text, { start, end: start + strip.length });
    expect(c.before.length).toBeLessThanOrEqual(CONTEXT_CHARS);
    expect(c.after.length).toBeLessThanOrEqual(CONTEXT_CHARS);
    expect(c.before.length).toBeGreaterThan(CONTEXT_CHARS - 10);
    // every word kept is a whole word of the text
    for (const w of [...c.before.split(' '), ...c.after.split(' ')]) expect(w).toMatch(/^word\d+$/);
    expect(before.endsWith(c.before)).toBe(true);
    expect(after.startsWith(c.after)).toBe(true);
    expect(stripContext('', text, { start, end: start + strip.length }, 0)).toEqual({
      title: '',
      before: '',
      after: '',
    });
  });

  it('keeps only the title when the offsets do not fit the text', () => {
    expect(stripContext('Doc', 'short', { start: -1, end: -1 })).toEqual({
      title: 'Doc',
      before: '',
      after: '',
    });
    expect(stripContext('Doc', 'short', { start: 2, end: 40 })).toEqual({
      title: 'Doc',
      before: '',
      after: '',
    });
  });
});
