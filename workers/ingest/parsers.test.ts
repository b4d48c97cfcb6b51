import { describe, expect, it } from 'vitest';
import {
  LETTER_PARAGRAPHS,
  makeDocx,
  makeEncryptedPdf,
  makePdf,
  REPORT_PDF_PAGES,
} from '../../e2e/fixtures/make-fixtures';
import { AppError } from '../shared/errors';
import { readFixture as fixture } from './fixtures.testkit';
import { parseDocx } from './parse-docx';
import { decodeHtml, parseHtml } from './parse-html';
import { markdownToText, parseMarkdown } from './parse-markdown';
import { createPdfParser } from './parse-pdf';
import { loadNodePdfjs } from './pdfjs-loader';
import { decodeText, parseTxt, utf8Census } from './parse-txt';

const meta = (name: string) => ({ path: `docs/${name}`, name });

async function codeOf(promise: Promise<unknown> | (() => unknown)): Promise<string> {
  try {
    await (typeof promise === 'function' ? promise() : promise);
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    return (err as AppError).code;
  }
  return 'no error';
}

describe('txt', () => {
  it('decodes UTF-8 and titles the document by its file name', () => {
    const parsed = parseTxt(fixture('sample.txt'), meta('sample.txt'));
    expect(parsed.title).toBe('sample');
    expect(parsed.text).toContain('xylophone');
    expect(parsed.text).toContain('marmalade');
  });

  it('drops a UTF-8 BOM and adds no notice for UTF-8', () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, 0x68, 0x69]);
    expect(decodeText(bytes, meta('bom.txt'))).toEqual({
      text: 'hi',
      encoding: 'UTF-8',
      notice: null,
    });
    expect(parseTxt(fixture('sample.txt'), meta('sample.txt')).notice).toBeUndefined();
  });

  it('reads a UTF-8 file with a BOM and one bad byte like one without the BOM (U+FFFD)', () => {
    const body = [
      ...new TextEncoder().encode('caf\u00e9 na\u00efve r\u00e9sum\u00e9 '),
      0xff,
      0x21,
    ];
    const withBom = decodeText(new Uint8Array([0xef, 0xbb, 0xbf, ...body]), meta('bom-bad.txt'));
    const without = decodeText(new Uint8Array(body), meta('bom-bad.txt'));
    expect(withBom.text).toBe('caf\u00e9 na\u00efve r\u00e9sum\u00e9 \uFFFD!');
    expect(withBom).toEqual(without);
    expect(withBom.notice).toMatch(/1 damaged byte/);
  });

  it('reads Windows-1252 (curly quotes 0x93/0x94) and says so', () => {
    const parsed = parseTxt(fixture('cafe-1252.txt'), meta('cafe-1252.txt'));
    expect(parsed.text).toBe('Menu of the café: the \u201ccassoulet\u201d special\n');
    expect(parsed.notice).toMatch(
      /docs\/cafe-1252\.txt" is not UTF-8: it was read as Windows-1252/,
    );
  });

  it('reads ISO-8859-1 when no byte is in 0x80-0x9F', () => {
    const bytes = new Uint8Array([0x53, 0xfc, 0xdf, 0x20, 0x63, 0x61, 0x66, 0xe9]); // "Süß café"
    expect(decodeText(bytes, meta('l1.txt'))).toMatchObject({
      text: 'Süß café',
      encoding: 'ISO-8859-1',
    });
  });

  it('reads UTF-16 with a BOM, and without one from its zero-byte pattern', () => {
    const le = new Uint8Array([0xff, 0xfe, ...new Uint8Array(Buffer.from('héllo', 'utf16le'))]);
    expect(decodeText(le, meta('le.txt'))).toMatchObject({ text: 'héllo', encoding: 'UTF-16LE' });
    const noBom = new Uint8Array(Buffer.from('plain words in utf-16', 'utf16le'));
    expect(decodeText(noBom, meta('nobom.txt'))).toMatchObject({
      text: 'plain words in utf-16',
      encoding: 'UTF-16LE',
    });
    const be = new Uint8Array(Buffer.from('big end', 'utf16le').swap16());
    expect(decodeText(be, meta('be.txt'))).toMatchObject({ text: 'big end', encoding: 'UTF-16BE' });
    expect(parseTxt(noBom, meta('nobom.txt')).notice).toMatch(/read as UTF-16LE/);
  });

  it('keeps UTF-8 with a damaged byte as UTF-8 (not mojibake) and says so', () => {
    const bytes = new Uint8Array([...new TextEncoder().encode('naïve café crème '), 0xff, 0x21]);
    const got = decodeText(bytes, meta('damaged.txt'));
    expect(got.text).toBe('naïve café crème \ufffd!');
    expect(got.notice).toMatch(/UTF-8 with 1 damaged byte/);
  });

  it('refuses binary data (INVALID_UTF8), naming the path', async () => {
    expect(await codeOf(() => parseTxt(fixture('binary.txt'), meta('binary.txt')))).toBe(
      'INVALID_UTF8',
    );
    expect(() => parseTxt(fixture('binary.txt'), meta('binary.txt'))).toThrow(
      /docs\/binary\.txt" was not imported: it looks like binary data/,
    );
  });

  it('refuses a UTF-16 BOM followed by invalid UTF-16', () => {
    const bytes = new Uint8Array([0xff, 0xfe, 0x68, 0x00, 0x00, 0xd8]);
    expect(() => parseTxt(bytes, meta('u16.txt'))).toThrow(/not valid UTF-16LE/);
  });

  it('counts multi-byte sequences and invalid bytes', () => {
    expect(utf8Census(new TextEncoder().encode('ok é 😀'))).toEqual({ multiByte: 2, invalid: 0 });
    expect(utf8Census(new Uint8Array([0x61, 0xc0, 0xaf]))).toEqual({ multiByte: 0, invalid: 2 }); // overlong
    expect(utf8Census(new Uint8Array([0x61, 0x62, 0xf0, 0x9f]))).toEqual({
      multiByte: 0,
      invalid: 2,
    }); // truncated
  });
});

describe('markdown', () => {
  it('takes the title from the first heading and keeps the words, not the markup', () => {
    const parsed = parseMarkdown(fixture('notes.md'), meta('notes.md'));
    expect(parsed.title).toBe('Quokka Observation Notes');
    expect(parsed.text).toContain('The quokka population near the jetty');
    expect(parsed.text).toContain('heliotrope bushes');
    expect(parsed.text).toContain('- Count the quokka families at dusk');
    expect(parsed.text).toContain('Jetty | 14');
    expect(parsed.text).toContain('tally: 23 total');
    expect(parsed.text).not.toMatch(/\*\*|https:\/\/example|^#/m);
  });

  it('takes the title from YAML front matter and keeps the metadata out of the text', () => {
    const { heading, text } = markdownToText(
      '---\ntitle: "Trip log"\ntags: [a, b]\n---\n# Day one\n\nWe walked.',
    );
    expect(heading).toBe('Trip log');
    expect(text).toBe('Day one\n\nWe walked.');
    expect(markdownToText('---\ndate: 2024\n---\nBody only').heading).toBeNull();
  });

  it('falls back to the file name without a heading', () => {
    expect(parseMarkdown(new TextEncoder().encode('just text'), meta('plain.md')).title).toBe(
      'plain',
    );
  });

  it('keeps raw HTML as words only, dropping tags and script bodies', () => {
    const { text } = markdownToText(
      'Hi <b>bold</b> &amp; &#233;\n\n<div>\n<script>alert("x")</script>\nkept\n</div>\n',
    );
    expect(text).toContain('Hi bold & é');
    expect(text).toContain('kept');
    expect(text).not.toMatch(/alert|<|>/);
  });

  it('separates blocks with blank lines so the chunker can break between them', () => {
    const { text } = markdownToText('# A\n\npara one\n\n> quoted\n\n![alt words](x.png)');
    expect(text).toBe('A\n\npara one\n\nquoted\n\nalt words');
  });

  it('reads a non-UTF-8 file like .txt does, with the notice', () => {
    const parsed = parseMarkdown(
      new Uint8Array([0x23, 0x20, 0x43, 0x61, 0x66, 0xe9]),
      meta('x.md'),
    );
    expect(parsed.title).toBe('Café');
    expect(parsed.notice).toMatch(/read as ISO-8859-1/);
  });

  it('refuses binary data', async () => {
    expect(
      await codeOf(() => parseMarkdown(new Uint8Array([0x23, 0x20, 0x00, 0xff]), meta('x.md'))),
    ).toBe('INVALID_UTF8');
  });
});

describe('pdf (real pdfjs, legacy build in Node)', () => {
  const parsePdf = createPdfParser({ loadPdfjs: loadNodePdfjs });

  it('extracts the text layer of every page, pages separated by a blank line', async () => {
    const parsed = await parsePdf(fixture('report.pdf'), meta('report.pdf'));
    expect(parsed.title).toBe('Quarterly Pelican Survey');
    expect(parsed.text).toContain(
      'The coastal pelican colony grew by twelve percent this quarter.',
    );
    expect(parsed.text).toContain('tungsten-grey cliffs');
    expect(parsed.text).toMatch(/at dawn\.\n\nAppendix: methods/);
    expect(parsed.text).toContain('obsidian beach transects');
  });

  it('reports NO_TEXT_LAYER for a page with shapes only', async () => {
    expect(await codeOf(parsePdf(fixture('scan.pdf'), meta('scan.pdf')))).toBe('NO_TEXT_LAYER');
  });

  it('reports PARSE_FAILED for a corrupt PDF and for bytes that are not a PDF', async () => {
    expect(await codeOf(parsePdf(fixture('corrupt.pdf'), meta('corrupt.pdf')))).toBe(
      'PARSE_FAILED',
    );
    expect(await codeOf(parsePdf(new TextEncoder().encode('hello'), meta('fake.pdf')))).toBe(
      'PARSE_FAILED',
    );
  });

  it('reports PARSE_FAILED saying so for a password-protected PDF', async () => {
    const err = await parsePdf(fixture('locked.pdf'), meta('locked.pdf')).catch((e: AppError) => e);
    expect(err).toMatchObject({
      code: 'PARSE_FAILED',
      message: expect.stringMatching(/password-protected/) as string,
    });
  });

  it('does not detach the caller’s buffer', async () => {
    const bytes = fixture('report.pdf');
    await parsePdf(bytes, meta('report.pdf'));
    expect(bytes.byteLength).toBeGreaterThan(0);
  });
});

describe('fixtures', () => {
  it('are exactly what make-fixtures.ts generates (reproducible, regenerate on purpose only)', () => {
    const same = (name: string, bytes: Buffer) =>
      expect(Buffer.compare(bytes, Buffer.from(fixture(name))), name).toBe(0);
    same('report.pdf', makePdf(REPORT_PDF_PAGES, 'Quarterly Pelican Survey'));
    same('letter.docx', makeDocx(LETTER_PARAGRAPHS, 'Letter about the wombat census'));
    same('locked.pdf', makeEncryptedPdf(['Confidential lynx figures.'], 'secret', 'owner-secret'));
  });
});

describe('docx (real mammoth)', () => {
  it('extracts the paragraphs as text', async () => {
    const parsed = await parseDocx(fixture('letter.docx'), meta('letter.docx'));
    expect(parsed.title).toBe('letter');
    expect(parsed.text).toContain('Thank you for the wombat census');
    expect(parsed.text).toContain('saffron fields');
    expect(parsed.text).toMatch(/Fairweather,\n\nThank you/);
  });

  it('reports PARSE_FAILED for a corrupt zip and for an encrypted (OLE) file', async () => {
    expect(await codeOf(parseDocx(fixture('corrupt.docx'), meta('corrupt.docx')))).toBe(
      'PARSE_FAILED',
    );
    const ole = new Uint8Array(64);
    ole.set([0xd0, 0xcf, 0x11, 0xe0]);
    const message = await parseDocx(ole, meta('locked.docx')).catch((e: AppError) => e.message);
    expect(message).toMatch(/password-protected/);
  });
});

describe('html (worker side)', () => {
  it('decodes by BOM, then meta charset, else UTF-8', () => {
    expect(decodeHtml(new Uint8Array([0xef, 0xbb, 0xbf, 0x41]))).toBe('A');
    const latin = new Uint8Array([
      ...new TextEncoder().encode('<meta charset="iso-8859-1">caf'),
      0xe9,
    ]);
    expect(decodeHtml(latin)).toContain('café');
    expect(decodeHtml(new TextEncoder().encode('<p>naïve</p>'))).toBe('<p>naïve</p>');
  });

  it('hands the HTML to the injected cleaner and falls back to the file name for a title', async () => {
    const seen: string[] = [];
    const parsed = await parseHtml(fixture('page.html'), meta('page.html'), async (html) => {
      seen.push(html);
      return { title: '  ', text: 'cleaned text' };
    });
    expect(seen[0]).toContain('<title>The Narwhal and the Basalt Coast</title>');
    expect(parsed).toEqual({ title: 'page', text: 'cleaned text' });
  });

  it('turns a cleaner failure into PARSE_FAILED', async () => {
    const failing = async () => {
      throw new Error('proxy released');
    };
    expect(await codeOf(parseHtml(fixture('page.html'), meta('page.html'), failing))).toBe(
      'PARSE_FAILED',
    );
  });
});
