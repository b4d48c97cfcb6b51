import { describe, expect, it } from 'vitest';
import { splitSentences } from './sentences';

describe('splitSentences', () => {
  it('splits at sentence ends and keeps exact offsets', () => {
    const text = '  Aspirin lowers risk. It was tested in 2019! Did it work? Yes (n = 12).  ';
    const spans = splitSentences(text);
    expect(spans.map((s) => s.text)).toEqual([
      'Aspirin lowers risk.',
      'It was tested in 2019!',
      'Did it work?',
      'Yes (n = 12).',
    ]);
    for (const s of spans) expect(text.slice(s.start, s.end)).toBe(s.text);
  });

  it('does not split after abbreviations, initials or inside numbers', () => {
    const text =
      'Cells (e.g. T cells) grew 1.5 fold, see Fig. 2 and Smith et al. 2001. E. coli was used. Next one.';
    expect(splitSentences(text).map((s) => s.text)).toEqual([
      'Cells (e.g. T cells) grew 1.5 fold, see Fig. 2 and Smith et al. 2001.',
      'E. coli was used.',
      'Next one.',
    ]);
  });

  it('keeps a closing bracket or quote with its sentence and ignores lower-case continuations', () => {
    expect(splitSentences('He said "stop." Then left. the end').map((s) => s.text)).toEqual([
      'He said "stop."',
      'Then left. the end',
    ]);
    expect(splitSentences('')).toEqual([]);
    expect(splitSentences('   ')).toEqual([]);
  });
});
