// A PDF's outline as section paths: read from a real PDF (libtasn1's manual, Debian) and placed
// where each heading's words are on its page; hostile outlines (too deep, too many entries,
// broken destinations, a throwing reader) give what can be read and never fail the import.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { pageAt } from '../shared/pages';
import { sectionAt } from '../shared/sections';
import { createPdfParser } from './parse-pdf';
import { loadNodePdfjs } from './pdfjs-loader';
import {
  MAX_OUTLINE_DEPTH,
  MAX_OUTLINE_ENTRIES,
  readOutline,
  sectionStarts,
  type OutlineDocLike,
  type OutlineItemLike,
} from './pdf-outline';

describe('a real outline (libtasn1 manual)', () => {
  it('gives each passage the section path of the heading above it', async () => {
    const parse = createPdfParser({ loadPdfjs: loadNodePdfjs });
    const file = new URL('../../eval/data/answers-dev/docs/libtasn1.pdf', import.meta.url);
    const r = await parse(new Uint8Array(readFileSync(file)), {
      path: 'libtasn1.pdf',
      name: 'libtasn1.pdf',
    });
    const at = (phrase: string) => sectionAt(r.sections, r.text.indexOf(phrase));
    expect(at('For simple types like OCTET STRING')).toEqual([
      '2 ASN.1 structure handling',
      'Simple parsing',
    ]);
    expect(at('asn1Parser reads a single file')?.[0]).toBe('3 Utilities');
    // Each section starts at its heading's words, on the heading's page.
    for (const [offset, path] of r.sections!) {
      expect(r.text.slice(offset).toLowerCase()).toMatch(
        new RegExp(
          `^${path
            .at(-1)!
            .toLowerCase()
            .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`,
        ),
      );
      expect(pageAt(r.pageStarts, offset)).not.toBeNull();
    }
  });
});

/** A document whose outline is `items`, each `dest` a page index (numbers resolve directly). */
function docWith(items: OutlineItemLike[] | null, fail = false): OutlineDocLike {
  return {
    getOutline: async () => {
      if (fail) throw new Error('bad outline');
      return items;
    },
    getDestination: async (id) => (id === 'named' ? [2] : null),
    getPageIndex: async () => {
      throw new Error('no such ref');
    },
  };
}

describe('hostile outlines', () => {
  it('stops at the depth and entry bounds', async () => {
    let deep: OutlineItemLike = { title: 'leaf', dest: [0] };
    for (let i = 0; i < 50; i++) deep = { title: `level ${i}`, dest: [0], items: [deep] };
    const tooDeep = await readOutline(docWith([deep]));
    expect(tooDeep).toHaveLength(MAX_OUTLINE_DEPTH);
    const many = Array.from({ length: MAX_OUTLINE_ENTRIES + 100 }, (_, i) => ({
      title: `S${i}`,
      dest: [0],
    }));
    expect(await readOutline(docWith(many))).toHaveLength(MAX_OUTLINE_ENTRIES);
  });

  it('skips entries it cannot place, cleans titles, and reads a throwing outline as none', async () => {
    const out = await readOutline(
      docWith([
        { title: 'Named\u0000 dest\n', dest: 'named' },
        { title: 'Unknown name', dest: 'missing' },
        { title: 'Bad ref', dest: [{ num: 1, gen: 0 }] },
        { title: 42, dest: [0] },
        { title: '   ', dest: [0] },
        { title: 'x'.repeat(1000), dest: [1] },
      ]),
    );
    expect(out.map((e) => e.path[0]!.slice(0, 10))).toEqual(['Named dest', 'xxxxxxxxxx']);
    expect(out[0]!.page).toBe(3);
    expect(out[1]!.path[0]!.length).toBe(200);
    expect(await readOutline(docWith(null, true))).toEqual([]);
    expect(await readOutline(docWith(null))).toEqual([]);
  });

  it('places a heading on its page, else at the page start; pages without text are dropped', () => {
    const text = 'Title page\n\nIntro text. 1.2 Scope of (work) here.';
    const pages: Array<[number, number]> = [
      [1, 0],
      [2, 12],
    ];
    const got = sectionStarts(
      [
        { path: ['Scope of (work)'], page: 2 },
        { path: ['Absent heading'], page: 2 },
        { path: ['Title'], page: 1 },
        { path: ['Ghost'], page: 9 },
      ],
      text,
      pages,
    );
    expect(got).toEqual([
      [0, ['Title']],
      [12, ['Absent heading']],
      [text.indexOf('Scope'), ['Scope of (work)']],
    ]);
  });
});
