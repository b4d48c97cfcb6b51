// Answer sentences that introduce a list keep the list: the items that follow in the document,
// line by line while each starts with a bullet, within LIST_CHARS; exact offsets, so the answer
// still quotes its document.
import { describe, expect, it } from 'vitest';
import { LIST_CHARS, withListItems } from './extractive';
import type { ScoredStrip } from './refine';
import { strips } from './text';

const TEXT = [
  'Usage is simple.',
  'For each file f.idl, camlidl generates the following files:',
  '• A Caml interface file f.mli. It declares the types.',
  '• A C source file f_stubs.c that contains the stubs.',
  'The generated files must be compiled together.',
].join('\n');

/** Every sentence strip of TEXT, as refinement would hand them on. */
const ALL: ScoredStrip[] = strips(TEXT).map((s) => ({
  id: `d1:${s.start}-${s.end}`,
  source: 'library',
  documentId: 1,
  chunkId: 10,
  path: 'camlidl.pdf',
  title: 'camlidl',
  start: s.start,
  end: s.end,
  text: s.text,
  score: 0.5,
  passageRank: 1,
  features: {},
}));
const lead = ALL.find((s) => s.text.endsWith('following files:'))!;

describe('a sentence that introduces a list', () => {
  it('takes the bulleted items that follow, and stops where the list ends', () => {
    const out = withListItems(lead, ALL, TEXT);
    expect(out.text).toBe(TEXT.slice(out.start, out.end));
    expect(out.text).toContain('f_stubs.c that contains the stubs.');
    expect(out.text).toContain('It declares the types.'); // the item's second sentence
    expect(out.text).not.toContain('must be compiled');
    expect(out.id).toBe(`d1:${out.start}-${out.end}`);
    expect(out.start).toBe(lead.start);
  });

  it('leaves other sentences, unbulleted follow-ups and offsets that do not match alone', () => {
    const plain = ALL[0]!;
    expect(withListItems(plain, ALL, TEXT)).toBe(plain);
    const noList = 'It generates these:\nThe end of the story.';
    const [a, b] = strips(noList).map((s) => ({ ...lead, ...s, id: 'x' }));
    expect(withListItems(a!, [a!, b!], noList)).toBe(a);
    expect(withListItems(lead, ALL, TEXT.replace('following', 'FOLLOWING'))).toBe(lead);
  });

  it('stops before the list would grow past LIST_CHARS', () => {
    const items = Array.from({ length: 40 }, (_, i) => `• Item number ${i} of a long list.`);
    const long = ['The options are:', ...items].join('\n');
    const all = strips(long).map((s) => ({ ...lead, ...s, id: `d1:${s.start}-${s.end}` }));
    const out = withListItems(all[0]!, all, long);
    expect(out.end - all[0]!.end).toBeLessThanOrEqual(LIST_CHARS);
    expect(out.text).toContain('Item number 0');
    expect(out.text).not.toContain('Item number 39');
  });
});
