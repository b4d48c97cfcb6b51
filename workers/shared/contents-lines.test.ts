// Contents and index pages told from prose: dot-leader lines, "topic page" entries, and not prose,
// data tables without words, or a chunk too short to tell.
import { describe, expect, it } from 'vitest';
import { isContentsChunk, isContentsLine } from './contents-lines';

describe('contents and index pages', () => {
  it('reads dot leaders as a contents line, prose as not', () => {
    expect(isContentsLine('3.4 Indexing . . . . . . . . . 12')).toBe(true);
    expect(isContentsLine('2.3 Simple parsing..........7')).toBe(true);
    expect(isContentsLine('Vectors are indexed from 1. See below.')).toBe(false);
  });

  it('reads a contents page, an index page and a dotted index as contents chunks', () => {
    const contents = [
      '1 Introduction . . . . . . . . . 1',
      '2 ASN.1 structure handling . . . 3',
      '2.1 ASN.1 syntax . . . . . . . . 3',
      '2.2 Naming . . . . . . . . . . . 5',
    ].join('\n');
    const index = ['Print 127', 'Printerr 127', 'Pwd 127', 'Quit 127', 'Raise 128'].join('\n');
    const ranges = ['scope, 12, 15-17', 'promise objects, 44', 'lazy evaluation, 43', 'env 9'];
    expect(isContentsChunk(contents)).toBe(true);
    expect(isContentsChunk(index)).toBe(true);
    expect(isContentsChunk(ranges.join('\n'))).toBe(true);
  });

  it('leaves prose, word-free number tables and short chunks alone', () => {
    const prose = [
      'The workshop met on a rainy Tuesday.',
      'Everyone brought a jar of marmalade for the break,',
      'and the instructor tuned each xylophone bar by ear before lunch.',
      'In the afternoon we recorded the scales and compared them with the tuning fork.',
    ].join('\n');
    expect(isContentsChunk(prose)).toBe(false);
    expect(isContentsChunk(['1 2 3', '4 5 6', '7 8 9', '10 11 12'].join('\n'))).toBe(false);
    expect(isContentsChunk('Print 127\nQuit 127\nRaise 128')).toBe(false); // three lines only
    // One entry among prose lines is not enough.
    expect(isContentsChunk(`${prose}\nSee chapter 12`)).toBe(false);
  });
});
