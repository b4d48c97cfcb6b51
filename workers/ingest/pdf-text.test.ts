// PDF text as a reader sees it: running heads and page numbers out, split words and wrapped
// lines joined, lists, headings and code kept on their lines, and where each page starts; on
// synthetic pages and on a real PDF (libtasn1's manual, checked against pdftotext).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { pageAt, pagesOf } from '../shared/pages';
import { dropRunningLines, joinWrappedLines, readPdfPages } from './pdf-text';
import { createPdfParser } from './parse-pdf';
import { loadNodePdfjs } from './pdfjs-loader';

const page = (n: number, body: string[]) => ['Sift Manual', ...body, `${n}`];

describe('running lines', () => {
  it('drops a head repeated at page edges and bare page numbers, keeps the body', () => {
    const word = ['Apples', 'Bees', 'Cows', 'Dunes'];
    const body = (n: number) => [
      `${word[n - 1]} open.`,
      'It goes on.',
      'On.',
      `${word[n - 1]} end.`,
    ];
    const pages = [1, 2, 3, 4].map((n) => page(n, body(n)));
    expect(dropRunningLines(pages)).toEqual([1, 2, 3, 4].map(body));
  });

  it('drops a per-chapter head that carries the printed page number', () => {
    const pages = [
      ['Title page'],
      ['Contents'],
      ['1', '1 Introduction', 'Text one.'],
      ['Chapter 1: Introduction 2', 'Text two.'],
      ['Chapter 2: Use 3', 'Text three.'],
      ['Chapter 2: Use 4', 'Text four.'],
    ];
    const out = dropRunningLines(pages);
    expect(out.slice(2)).toEqual([
      ['1 Introduction', 'Text one.'],
      ['Text two.'],
      ['Text three.'],
      ['Text four.'],
    ]);
  });

  it('keeps a line that repeats on fewer than three pages', () => {
    const pages = [
      ['Note', 'a.'],
      ['Note', 'b.'],
      ['Other', 'c.'],
    ];
    expect(dropRunningLines(pages)).toEqual(pages);
  });
});

describe('wrapped lines', () => {
  it('joins a word split at the line end and a sentence wrapped onto a lower-case line', () => {
    expect(joinWrappedLines(['The evalu-', 'ation of promises', 'is lazy.'])).toEqual([
      'The evaluation of promises is lazy.',
    ]);
  });

  it('keeps headings, list items, code and contents lines apart', () => {
    const lines = [
      'For simple types these may be used:',
      '• [asn1 decode simple der], page 22,',
      '• [asn1 encode simple der], page 16,',
      '2.4 Library Notes',
      'x <- c(1, 2)',
      '3.4 Indexing . . . . . . . . 12',
      'Vectors are indexed from one.',
    ];
    expect(joinWrappedLines(lines)).toEqual(lines);
  });

  it('keeps a hyphen before an upper-case continuation (a name, not a split word)', () => {
    expect(joinWrappedLines(['see the Unicode-', 'Consortium text'])).toEqual([
      'see the Unicode-',
      'Consortium text',
    ]);
  });
});

describe('pages', () => {
  it('records where each page with text starts, blank pages left out', () => {
    const { text, pageStarts } = readPdfPages([['First page.'], [], ['Third page.']]);
    expect(text).toBe('First page.\n\nThird page.');
    expect(pageStarts).toEqual([
      [1, 0],
      [3, 13],
    ]);
    expect(pageAt(pageStarts, text.indexOf('Third'))).toBe(3);
    expect(pagesOf(pageStarts, 0, text.length)).toEqual({ first: 1, last: 3 });
  });
});

describe('a real PDF (libtasn1 manual, Debian)', () => {
  const parse = createPdfParser({ loadPdfjs: loadNodePdfjs });
  const file = new URL('../../eval/data/answers-dev/docs/libtasn1.pdf', import.meta.url);

  it('has no running heads, and finds phrases on the pages pdftotext puts them', async () => {
    const r = await parse(new Uint8Array(readFileSync(file)), {
      path: 'libtasn1.pdf',
      name: 'libtasn1.pdf',
    });
    expect(r.text).not.toMatch(/^Chapter 2: ASN\.1 structure handling \d+$/m);
    // pdftotext -f 7 -l 7: "2.3 Simple parsing"; -f 8: "3.1 Invoking asn1Parser".
    // (The contents page names the sections too: look for their body text.)
    expect(pageAt(r.pageStarts, r.text.indexOf('For simple types like OCTET STRING'))).toBe(7);
    expect(pageAt(r.pageStarts, r.text.indexOf('asn1Parser reads a single file'))).toBe(8);
    expect(r.text).toContain('\n2 ASN.1 structure handling\n'); // a chapter heading stays
    // A sentence wrapped across lines reads as one line.
    expect(r.text).toContain(
      'For simple types like OCTET STRING the simple parsing functions listed below may be used instead.',
    );
  });
});
