// Section paths: the section a passage starts in (by binary search over the starts), how a path
// is written, and stored JSON read defensively.
import { describe, expect, it } from 'vitest';
import { formatSection, parseSections, sectionAt, type SectionStarts } from './sections';

const SECTIONS: SectionStarts = [
  [10, ['1 Introduction']],
  [50, ['2 Evaluation']],
  [80, ['2 Evaluation', '2.1 Promises']],
];

describe('section paths', () => {
  it('finds the section an offset falls in, none before the first or without sections', () => {
    expect(sectionAt(SECTIONS, 9)).toBeNull();
    expect(sectionAt(SECTIONS, 10)).toEqual(['1 Introduction']);
    expect(sectionAt(SECTIONS, 79)).toEqual(['2 Evaluation']);
    expect(sectionAt(SECTIONS, 10_000)).toEqual(['2 Evaluation', '2.1 Promises']);
    expect(sectionAt(null, 5)).toBeNull();
    expect(sectionAt([], 5)).toBeNull();
  });

  it('writes the deepest three levels, marking the ones left out', () => {
    expect(formatSection(['2 Evaluation', '2.1 Promises'])).toBe('2 Evaluation › 2.1 Promises');
    expect(formatSection(['I', 'Part', 'Chapter', 'Section'])).toBe('… › Part › Chapter › Section');
    expect(formatSection(null)).toBe('');
    expect(formatSection([])).toBe('');
  });

  it('reads stored JSON, and anything malformed as no sections', () => {
    expect(parseSections(JSON.stringify(SECTIONS))).toEqual(SECTIONS);
    for (const bad of [null, '', 'not json', '{}', '[]', '[[1]]', '[[1.5,["a"]]]', '[[1,[2]]]'])
      expect(parseSections(bad)).toBeNull();
  });
});
