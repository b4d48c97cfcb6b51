// Decompression bombs, generated here (never committed): DOCX zips and PDF streams that inflate
// to ~100 MB from a few hundred KB. Before the guard, a 367 KB .docx inflating to 120 MB crashed
// the importer with a heap out-of-memory. Each is now refused from its sizes, before a parser
// inflates anything, and the rest of an import goes on untouched.
import { constants, createDeflate, createDeflateRaw, deflateRawSync, deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  LETTER_PARAGRAPHS,
  makeDocx,
  makePdf,
  writeZip,
  type ZipEntry,
} from '../../e2e/fixtures/make-fixtures';
import { AppError } from '../shared/errors';
import type { ImportFile } from '../shared/types';
import { createImporter, type DocumentSink } from './importer';
import {
  guardPdfStreams,
  guardZip,
  inflatedSize,
  MAX_INFLATED_PART_BYTES,
  readZipDirectory,
} from './inflate-guard';
import { parseDocx } from './parse-docx';
import { createPdfParser } from './parse-pdf';
import { loadNodePdfjs } from './pdfjs-loader';

const MB = 1024 * 1024;
const meta = (name: string) => ({ path: `docs/${name}`, name });

/** Deflates `times` copies of `chunk` without ever holding the inflated whole. */
async function deflateRepeated(chunk: string, times: number, raw: boolean): Promise<Buffer> {
  const z = raw
    ? createDeflateRaw({ level: constants.Z_BEST_COMPRESSION })
    : createDeflate({ level: constants.Z_BEST_COMPRESSION });
  const out: Buffer[] = [];
  z.on('data', (c: Buffer) => out.push(c));
  const done = new Promise((resolve) => z.on('end', resolve));
  const block = Buffer.from(chunk.repeat(Math.ceil(MB / chunk.length)).slice(0, MB));
  for (let i = 0; i < times; i++) {
    if (!z.write(block)) await new Promise((resolve) => z.once('drain', resolve));
  }
  z.end();
  await done;
  return Buffer.concat(out);
}

/** A real DOCX (from the fixture generator) whose word/document.xml is replaced. */
function docxWith(documentXml: Omit<ZipEntry, 'name'>): Buffer {
  const entries = readZipDirectory(makeDocx(['x'], 'bomb'))!;
  const base = makeDocx(['x'], 'bomb');
  // CRCs are 0: every test here is refused before they matter.
  return writeZip(
    entries.map((e): ZipEntry => {
      if (e.name === 'word/document.xml') return { name: e.name, ...documentXml };
      const start = e.localHeaderOffset + 30 + Buffer.byteLength(e.name);
      const data = base.subarray(start, start + e.compressedSize);
      return { name: e.name, data, method: 0, declaredSize: data.length };
    }),
  );
}

/** A raw-deflate stream's opening: `text` flushed as its own non-final block(s). */
function deflatePrefix(text: string): Buffer {
  // Z_SYNC_FLUSH without Z_FINISH leaves the stream open, so the next raw stream may follow.
  return deflateRawSync(Buffer.from(text), { finishFlush: constants.Z_SYNC_FLUSH });
}

const PARAGRAPH = '<w:p><w:r><w:t>wombat census</w:t></w:r></w:p>';

async function codeAndMessage(p: Promise<unknown>): Promise<[string, string]> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    return [(err as AppError).code, (err as AppError).message];
  }
  return ['no error', ''];
}

describe('zip guard (DOCX)', () => {
  it('refuses a 120 MB document.xml from its declared size, naming the limit', async () => {
    const data = await deflateRepeated(PARAGRAPH, 120, true);
    const bomb = docxWith({ data, method: 8, declaredSize: 120 * MB });
    expect(bomb.length).toBeLessThan(MB); // a few hundred KB on disk
    const [code, message] = await codeAndMessage(parseDocx(bomb, meta('bomb.docx')));
    expect(code).toBe('FILE_TOO_LARGE');
    expect(message).toMatch(/docs\/bomb\.docx" would inflate to 120 MB \(word\/document\.xml\)/);
    expect(message).toContain('more than 64 MB uncompressed');
  });

  it('refuses an entry that inflates past the size its directory declares', async () => {
    const data = await deflateRepeated(PARAGRAPH, 100, true);
    const liar = docxWith({ data, method: 8, declaredSize: 4096 });
    const [code, message] = await codeAndMessage(parseDocx(liar, meta('liar.docx')));
    expect(code).toBe('FILE_TOO_LARGE');
    expect(message).toContain('word/document.xml, which declares 4096 bytes');
  });

  it('refuses a total past the limit even when each part is under it', async () => {
    const part = await deflateRepeated(PARAGRAPH, 30, true);
    const entries: ZipEntry[] = ['a.xml', 'b.xml', 'c.xml'].map((name) => ({
      name,
      data: part,
      method: 8,
      declaredSize: 30 * MB,
    }));
    const [code, message] = await codeAndMessage(guardZip(writeZip(entries), meta('parts.docx')));
    expect(code).toBe('FILE_TOO_LARGE');
    expect(message).toContain('would inflate to 90 MB (all parts)');
  });

  it('passes an honest deflated DOCX, which mammoth then reads', async () => {
    const xml =
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>' +
      LETTER_PARAGRAPHS.map((p) => `<w:p><w:r><w:t>${p}</w:t></w:r></w:p>`).join('') +
      '</w:body></w:document>';
    const data = deflateRawSync(Buffer.from(xml));
    const docx = docxWith({ data, method: 8, declaredSize: Buffer.byteLength(xml) });
    expect(readZipDirectory(docx)?.find((e) => e.name === 'word/document.xml')?.method).toBe(8);
    await expect(guardZip(docx, meta('ok.docx'))).resolves.toBeUndefined();
    const parsed = await parseDocx(docx, meta('ok.docx'));
    expect(parsed.text).toContain(LETTER_PARAGRAPHS[0]);
  });

  it('refuses an element-dense document.xml (50 KB file, 16 MB of empty paragraphs) before mammoth reads it', async () => {
    // Under the 64 MB inflate cap, but ~2.8 million elements: mammoth took 2.6 GB and 24 s.
    const head =
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>';
    const emptyParagraphs = await deflateRepeated('<w:p/>', 16, true);
    const data = Buffer.concat([deflatePrefix(head), emptyParagraphs]);
    const size = Buffer.byteLength(head) + 16 * MB;
    const dense = docxWith({ data, method: 8, declaredSize: size });
    expect(dense.length).toBeLessThan(60 * 1024);
    const heapBefore = process.memoryUsage().heapUsed;
    const t0 = performance.now();
    const [code, message] = await codeAndMessage(parseDocx(dense, meta('dense.docx')));
    expect(code).toBe('FILE_TOO_LARGE');
    expect(message).toMatch(
      /docs\/dense\.docx" holds more than 150,000 XML elements \(in word\/document\.xml\).*Split it/,
    );
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(300 * MB);
    expect(performance.now() - t0).toBeLessThan(5000);
  }, 30_000);

  it('counts elements in stored (uncompressed) parts too, and lets an ordinary document through', async () => {
    const xml = `<w:document><w:body>${'<w:p><w:r><w:t>a</w:t></w:r></w:p>'.repeat(60_000)}</w:body></w:document>`;
    const stored = docxWith({ data: Buffer.from(xml), method: 0 });
    const [code] = await codeAndMessage(guardZip(stored, meta('stored.docx')));
    expect(code).toBe('FILE_TOO_LARGE');
    const fewer = xml.replace(/(<w:p><w:r><w:t>a<\/w:t><\/w:r><\/w:p>){30000}/, '');
    await expect(
      guardZip(docxWith({ data: Buffer.from(fewer), method: 0 }), meta('ok.docx')),
    ).resolves.toBeUndefined();
  });

  it('leaves a file that is not a zip to the parser (PARSE_FAILED as before)', async () => {
    const [code] = await codeAndMessage(parseDocx(Buffer.from('not a zip'), meta('x.docx')));
    expect(code).toBe('PARSE_FAILED');
  });
});

/** A PDF whose only page's content stream is `stream` with `filter`. */
function pdfWithStream(stream: Buffer, dictExtra: string): Buffer {
  const base = makePdf([['placeholder text']], 'bomb').toString('latin1');
  const from = base.lastIndexOf('<< /Length', base.indexOf('\nstream\n'));
  const to = base.indexOf('endstream', from) + 'endstream'.length;
  // The xref offsets go stale; pdfjs rebuilds the table when they are wrong, like any reader.
  return Buffer.concat([
    Buffer.from(base.slice(0, from), 'latin1'),
    Buffer.from(`<< /Length ${stream.length} ${dictExtra} >>\nstream\n`, 'latin1'),
    stream,
    Buffer.from(`\nendstream${base.slice(to)}`, 'latin1'),
  ]);
}

describe('PDF stream guard', () => {
  const parsePdf = createPdfParser({ loadPdfjs: loadNodePdfjs });

  it('refuses a content stream that inflates to 100 MB, naming the limit', async () => {
    const data = await deflateRepeated('BT (wombat) Tj ET\n', 100, false);
    const bomb = pdfWithStream(data, '/Filter /FlateDecode');
    expect(bomb.length).toBeLessThan(MB);
    const [code, message] = await codeAndMessage(parsePdf(bomb, meta('bomb.pdf')));
    expect(code).toBe('FILE_TOO_LARGE');
    expect(message).toMatch(/docs\/bomb\.pdf" would inflate to more than 64 MB \(one stream\)/);
  });

  it('refuses a doubly deflated stream (a chain of Flate filters)', async () => {
    const inner = await deflateRepeated('BT (wombat) Tj ET\n', 100, false);
    const bomb = pdfWithStream(deflateSync(inner), '/Filter [/FlateDecode /FlateDecode]');
    const [code] = await codeAndMessage(guardPdfStreams(bomb, meta('double.pdf')));
    expect(code).toBe('FILE_TOO_LARGE');
  });

  it('does not measure image streams, which text extraction never decodes', async () => {
    const data = await deflateRepeated('\u0000', 100, false);
    const pdf = pdfWithStream(data, '/Subtype /Image /Filter /FlateDecode');
    await expect(guardPdfStreams(pdf, meta('image.pdf'))).resolves.toBeUndefined();
  });

  it('reads a PDF with a small deflated content stream as before', async () => {
    const content = 'BT /F1 12 Tf 72 720 Td (deflated wombat census) Tj ET';
    const pdf = pdfWithStream(deflateSync(Buffer.from(content)), '/Filter /FlateDecode');
    const parsed = await parsePdf(new Uint8Array(pdf), meta('small.pdf'));
    expect(parsed.text).toContain('deflated wombat census');
  });
});

describe('inflatedSize', () => {
  it('counts the inflated bytes and stops at the cap', async () => {
    const data = deflateRawSync(Buffer.alloc(3 * MB));
    await expect(inflatedSize(data, ['deflate-raw'], 4 * MB)).resolves.toBe(3 * MB);
    await expect(inflatedSize(data, ['deflate-raw'], MB)).resolves.toBeNull();
  });
});

describe('importer with a bomb in the batch', () => {
  it('refuses only the bomb; the other files are stored and nothing else is written', async () => {
    const puts: string[] = [];
    const sink: DocumentSink = {
      putDocument(input) {
        puts.push(input.path);
        return Promise.resolve({ outcome: 'added', documentId: puts.length, chunkCount: 1 });
      },
    };
    const importer = createImporter({
      sink,
      cleanHtml: () => Promise.reject(new Error('no HTML here')),
      loadPdfjs: loadNodePdfjs,
    });
    const bomb = docxWith({
      data: await deflateRepeated(PARAGRAPH, 120, true),
      method: 8,
      declaredSize: 120 * MB,
    });
    const file = (name: string, bytes: Uint8Array): ImportFile => {
      const data = new Blob([bytes as BlobPart]);
      return { path: `in/${name}`, name, size: data.size, modified: 0, type: '', data };
    };
    const result = await importer.importFiles([
      file('before.docx', makeDocx(LETTER_PARAGRAPHS, 'Before')),
      file('bomb.docx', bomb),
      file('after.txt', new TextEncoder().encode('after the bomb')),
    ]);
    expect(result.failures).toEqual([
      expect.objectContaining({ path: 'in/bomb.docx', code: 'FILE_TOO_LARGE' }),
    ]);
    expect(puts).toEqual(['in/before.docx', 'in/after.txt']);
    expect(MAX_INFLATED_PART_BYTES).toBe(64 * MB);
  });
});
