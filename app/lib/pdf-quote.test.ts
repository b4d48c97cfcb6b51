// The quote matcher on a real PDF (GNU libtasn1's manual, from the answers dev set) read by the
// real pdf.js: the page is found without a hint, hyphenation and line breaks are matched, the
// rectangles lie on the cited words, and a quote that is not on a page is said to be absent.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  canonicalText,
  findQuotePage,
  matchQuote,
  pageText,
  MIN_PARTIAL_CHARS,
  type PdfTextItem,
} from './pdf-quote';

const PDF = 'eval/data/answers-dev/docs/libtasn1.pdf';

const pages: PdfTextItem[][] = [];
let view: number[] = [];

beforeAll(async () => {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await pdfjs.getDocument({
    data: new Uint8Array(readFileSync(PDF)),
    isEvalSupported: false,
    disableFontFace: true,
    verbosity: 0,
  }).promise;
  for (let n = 1; n <= doc.numPages; n++) {
    const page = await doc.getPage(n);
    if (n === 7) view = page.view;
    const content = await page.getTextContent();
    pages.push(content.items.filter((it): it is PdfTextItem & typeof it => 'str' in it));
  }
  await doc.destroy();
});

// On page 7 the PDF breaks "iden-" / "tifier." over two lines; the stored text joins it.
const HYPHENATED =
  'ASN1_MAX_NAME_SIZE is the maximum number of characters allowed for an ASN.1 identifier.';
const MULTILINE =
  'The main type used in it is asn1_node, and it’s used to store the ASN.1 definitions and structures (instances).';

describe('findQuotePage', () => {
  it('finds the page of a quote with no page given, across a hyphenated line break', () => {
    const texts = pages.map(pageText);
    expect(findQuotePage(texts, HYPHENATED)).toEqual({ page: 7, whole: true });
    expect(findQuotePage(texts, `  ${MULTILINE.replace(/ /g, '\n')} `)).toEqual({
      page: 7,
      whole: true,
    });
  });

  it('prefers the page nearest the hint among equal matches', () => {
    // "Function reference" heads many pages of chapter 4.
    const texts = pages.map(pageText);
    const all = texts
      .map((t, i) => (canonicalText(t).includes('functionreference') ? i + 1 : 0))
      .filter(Boolean);
    expect(all.length).toBeGreaterThan(3);
    const target = all[2]!;
    expect(findQuotePage(texts, 'Function reference', target)?.page).toBe(target);
    expect(findQuotePage(texts, 'Function reference')?.page).toBe(all[0]);
  });

  it('takes the page holding most of a quote that runs onto the next page', () => {
    const texts = pages.map(pageText);
    const quote = `${HYPHENATED} and then some words that appear on no page of this manual at all`;
    expect(findQuotePage(texts, quote)).toEqual({ page: 7, whole: false });
  });

  it('says null when no page holds the quote', () => {
    expect(findQuotePage(pages.map(pageText), 'pelicans nest on tungsten cliffs')).toBeNull();
    expect(findQuotePage(pages.map(pageText), '   ')).toBeNull();
  });
});

describe('matchQuote', () => {
  it('puts rectangles on the cited words, inside the page, one line after another', () => {
    const items = pages[6]!;
    const match = matchQuote(items, HYPHENATED);
    expect(match?.whole).toBe(true);
    const rects = match!.rects;
    // Two lines: "ASN1_MAX_NAME_SIZE ... iden-" and "tifier.".
    const lines = [...new Set(rects.map((r) => Math.round(r.y)))];
    expect(lines).toHaveLength(2);
    const [x0, y0, x1, y1] = view;
    for (const r of rects) {
      expect(r.x).toBeGreaterThanOrEqual(x0!);
      expect(r.x + r.width).toBeLessThanOrEqual(x1! + 1);
      expect(r.y).toBeGreaterThanOrEqual(y0!);
      expect(r.y + r.height).toBeLessThanOrEqual(y1!);
      expect(r.width).toBeGreaterThan(0);
    }
    // The first (upper) line starts where the item holding "ASN1_MAX_NAME_SIZE" starts.
    const start = items.find((it) => it.str.startsWith('ASN1_MAX_NAME_SIZE'))!;
    const top = Math.max(...rects.map((r) => r.y));
    const first = rects.filter((r) => r.y === top);
    expect(Math.min(...first.map((r) => r.x))).toBeCloseTo(start.transform[4]!, 3);
  });

  it('covers only part of an item when the quote starts mid-run', () => {
    const items = pages[6]!;
    const whole = matchQuote(items, 'The header file of this library is libtasn1.h.')!;
    const part = matchQuote(items, 'library is libtasn1.h.')!;
    expect(part.whole).toBe(true);
    const left = (m: typeof part) => Math.min(...m.rects.map((r) => r.x));
    expect(left(part)).toBeGreaterThan(left(whole) + 50);
  });

  it('is null on a page without the quote, and partial for a quote crossing the page end', () => {
    expect(matchQuote(pages[11]!, HYPHENATED)).toBeNull();
    const crossing = matchQuote(pages[6]!, `${HYPHENATED} words from the following page, not here`);
    expect(crossing?.whole).toBe(false);
    expect(crossing!.rects.length).toBeGreaterThan(0);
  });

  it('never calls a short accidental overlap a match', () => {
    const items: PdfTextItem[] = [
      { str: 'the cat sat on the mat', transform: [10, 0, 0, 10, 0, 0], width: 100, height: 10 },
    ];
    expect(matchQuote(items, 'the cat sat on a different rug entirely')).toBeNull();
    expect(MIN_PARTIAL_CHARS).toBeGreaterThan('thecatsaton'.length);
  });
});
