import { JSDOM } from 'jsdom';
import { afterAll, describe, expect, it } from 'vitest';
import { createHtmlCleaner, type CleanerWindow } from '../../app/import/clean-html';
import { createError } from '../shared/errors';
import type {
  ChunkInput,
  DocumentInput,
  ImportFile,
  ImportProgress,
  PutResult,
} from '../shared/types';
import { GOOD_FIXTURES, readFixture } from './fixtures.testkit';
import { sha256Hex } from './hash';
import { createImporter, createIngestApi, detectKind, type DocumentSink } from './importer';
import { normaliseText } from './normalise';
import { loadNodePdfjs } from './pdfjs-loader';

const dom = new JSDOM('<!doctype html><title>host</title>', { runScripts: 'dangerously' });
const win = dom.window as unknown as CleanerWindow & { __pwned?: boolean };
const cleanHtml = createHtmlCleaner(win);
afterAll(() => dom.window.close());

function file(
  name: string,
  data: Blob | string | Uint8Array,
  path = `folder/${name}`,
  type = '',
): ImportFile {
  const blob =
    typeof data === 'string' || data instanceof Uint8Array ? new Blob([data as BlobPart]) : data;
  return { path, name, size: blob.size, modified: 1_700_000_000_000, type, data: blob };
}

const fixtureFile = (name: string) => file(name, readFixture(name));

/** An in-memory sink with the store's outcome rules (the real store has its own tests). */
function memorySink() {
  const byPath = new Map<
    string,
    { input: DocumentInput; chunks: ChunkInput[]; hash: string; id: number }
  >();
  let nextId = 1;
  const sink: DocumentSink & { byPath: typeof byPath; calls: number } = {
    byPath,
    calls: 0,
    async putDocument(input, chunks, hash): Promise<PutResult> {
      sink.calls++;
      const existing = byPath.get(input.path);
      if (existing && existing.hash === hash) {
        return {
          outcome: 'unchanged',
          documentId: existing.id,
          chunkCount: existing.chunks.length,
        };
      }
      const other = [...byPath.values()].find(
        (d) => d.hash === hash && d.input.path !== input.path,
      );
      if (other)
        return { outcome: 'duplicate', documentId: other.id, chunkCount: other.chunks.length };
      const id = existing?.id ?? nextId++;
      byPath.set(input.path, { input, chunks, hash, id });
      return {
        outcome: existing ? 'replaced' : 'added',
        documentId: id,
        chunkCount: chunks.length,
      };
    },
  };
  return sink;
}

/** A Blob stand-in that reports a size but fails if anything tries to read it. */
function unreadableBlob(size: number): Blob {
  const fail = () => {
    throw new Error('the importer read a file it should have rejected by size');
  };
  return {
    size,
    type: '',
    arrayBuffer: fail,
    text: fail,
    stream: fail,
    slice: fail,
    bytes: fail,
  };
}

describe('detectKind', () => {
  it('uses the extension first, then the MIME type', () => {
    expect(detectKind('a/B.MD', '')).toBe('md');
    expect(detectKind('page.htm', 'application/octet-stream')).toBe('html');
    expect(detectKind('README', 'text/markdown; charset=utf-8')).toBe('md');
    expect(detectKind('scan', 'application/pdf')).toBe('pdf');
    expect(detectKind('x.xyz', 'application/x-whatever')).toBeNull();
    expect(detectKind('.txt', '')).toBeNull(); // a dot file has no extension
  });
});

describe('importFiles', () => {
  it('imports every fixture, reporting each failure with its path, code and a fix', async () => {
    const sink = memorySink();
    const importer = createImporter({ sink, cleanHtml, loadPdfjs: loadNodePdfjs });
    const names = [
      ...GOOD_FIXTURES,
      'corrupt.pdf',
      'scan.pdf',
      'corrupt.docx',
      'empty.txt',
      'cafe-1252.txt',
      'binary.txt',
      'unsupported.xyz',
    ];
    const files = [...names.map(fixtureFile), file('huge.txt', unreadableBlob(100 * 1024 * 1024))];
    const result = await importer.importFiles(files);

    const failures = Object.fromEntries(result.failures.map((f) => [f.path, f]));
    expect(Object.fromEntries(result.failures.map((f) => [f.path, f.code]))).toEqual({
      'folder/corrupt.pdf': 'PARSE_FAILED',
      'folder/scan.pdf': 'NO_TEXT_LAYER',
      'folder/corrupt.docx': 'PARSE_FAILED',
      'folder/empty.txt': 'EMPTY_FILE',
      'folder/binary.txt': 'INVALID_UTF8',
      'folder/unsupported.xyz': 'UNSUPPORTED_TYPE',
      'folder/huge.txt': 'FILE_TOO_LARGE',
    });
    expect(result).toMatchObject({
      filesTotal: 14,
      filesDone: 14,
      added: 7,
      done: true,
      cancelled: false,
    });
    expect(failures['folder/huge.txt']!.message).toMatch(
      /100\.0 MB; the limit is 50\.0 MB\. .*Split it/,
    );
    expect(failures['folder/unsupported.xyz']!.message).toMatch(/\(\.xyz\).*Import \.txt, \.md/);
    expect(failures['folder/scan.pdf']!.message).toMatch(/Run OCR/);
    expect(result.notes).toEqual([
      {
        path: 'folder/cafe-1252.txt',
        message: expect.stringMatching(/read as Windows-1252/) as string,
      },
    ]);

    const stored = (path: string) => sink.byPath.get(`folder/${path}`)!.input;
    expect(stored('sample.txt').text).toContain('xylophone');
    expect(stored('notes.md')).toMatchObject({
      title: 'Quokka Observation Notes',
      mime: 'text/markdown',
    });
    expect(stored('page.html')).toMatchObject({
      title: 'The Narwhal and the Basalt Coast',
      mime: 'text/html',
    });
    expect(stored('report.pdf').text).toContain('pelican colony');
    expect(stored('letter.docx').text).toContain('wombat census');
    expect(stored('hostile.html').text).toContain('gooseberry');
    expect(stored('hostile.html').text).not.toMatch(/pwned/i);
    expect(win.__pwned).toBeUndefined();
    expect(stored('sample.txt')).toMatchObject({
      size: 273,
      modified: 1_700_000_000_000,
      mime: 'text/plain',
    });
  });

  it('stores normalised text, exact chunk slices of it and the SHA-256 of it', async () => {
    const sink = memorySink();
    const importer = createImporter({ sink, cleanHtml });
    const raw = 'Cafe\u0301 notes  \r\n\r\n\r\n' + 'A sentence about soup. '.repeat(60);
    await importer.importFiles([file('notes.txt', raw)]);
    const { input, chunks, hash } = sink.byPath.get('folder/notes.txt')!;
    expect(input.text).toBe(normaliseText(raw));
    expect(hash).toBe(await sha256Hex(normaliseText(raw)));
    expect(chunks.length).toBeGreaterThan(2);
    for (const c of chunks) expect(input.text.slice(c.start, c.end)).toBe(c.text);
  });

  it('dedupes: unchanged on re-import, replaced when changed, duplicate under another path', async () => {
    const sink = memorySink();
    const importer = createImporter({ sink, cleanHtml });
    const first = await importer.importFiles([
      file('a.txt', 'alpha text'),
      file('b.txt', 'beta text'),
    ]);
    expect(first).toMatchObject({ added: 2, chunksDone: 2 });
    const again = await importer.importFiles([
      file('a.txt', 'alpha text\r\n'), // same content once normalised
      file('b.txt', 'beta text, edited'),
      file('copy-of-a.txt', 'alpha text', 'other/copy-of-a.txt'),
    ]);
    expect(again).toMatchObject({
      unchanged: 1,
      replaced: 1,
      duplicate: 1,
      added: 0,
      chunksDone: 1,
    });
  });

  it('checks the size limit before reading any byte', async () => {
    const importer = createImporter({
      sink: memorySink(),
      cleanHtml,
      limits: { maxFileBytes: 10 },
    });
    const result = await importer.importFiles([
      file('big.txt', unreadableBlob(11)),
      file('ok.txt', 'ten bytes!'),
    ]);
    expect(result.failures.map((f) => f.code)).toEqual(['FILE_TOO_LARGE']);
    expect(result.added).toBe(1);
  });

  it('applies a lower limit to HTML, which is cleaned on the UI thread', async () => {
    const importer = createImporter({
      sink: memorySink(),
      cleanHtml,
      limits: { maxFileBytes: 100, maxHtmlBytes: 10 },
    });
    const result = await importer.importFiles([
      file('big.html', unreadableBlob(11)),
      file('big.txt', 'more than ten bytes'),
    ]);
    expect(result.failures).toEqual([
      {
        path: 'folder/big.html',
        code: 'FILE_TOO_LARGE',
        message: expect.stringMatching(/limit for HTML is/) as string,
      },
    ]);
    expect(result.added).toBe(1);
  });

  it('keeps importing when a progress listener throws or rejects', async () => {
    let calls = 0;
    const result = await createImporter({ sink: memorySink(), cleanHtml }).importFiles(
      [file('a.txt', 'one'), file('b.txt', 'two')],
      {
        // On purpose: a Comlink proxy's listener returns a promise, which may reject.
        // eslint-disable-next-line @typescript-eslint/no-misused-promises
        onProgress: () => {
          calls++;
          if (calls % 2) throw new Error('listener bug');
          return Promise.reject(new Error('proxy released'));
        },
      },
    );
    expect(result.added).toBe(2);
    expect(calls).toBeGreaterThanOrEqual(4);
  });

  it('treats text that is blank after extraction as EMPTY_FILE', async () => {
    const result = await createImporter({ sink: memorySink(), cleanHtml }).importFiles([
      file('blank.md', '   \n\n\t\n'),
      file('blank.html', '<html><body><img src=x></body></html>'),
    ]);
    expect(result.failures.map((f) => f.code)).toEqual(['EMPTY_FILE', 'EMPTY_FILE']);
  });

  it('records a store failure for that file and goes on with the rest', async () => {
    const sink = memorySink();
    const put = sink.putDocument.bind(sink);
    sink.putDocument = async (input, chunks, hash) => {
      if (input.path.endsWith('full.txt')) throw createError('STORAGE_FULL');
      return put(input, chunks, hash);
    };
    const result = await createImporter({ sink, cleanHtml }).importFiles([
      file('full.txt', 'no room'),
      file('next.txt', 'still imported'),
    ]);
    expect(result.failures).toEqual([
      {
        path: 'folder/full.txt',
        code: 'STORAGE_FULL',
        message: expect.stringMatching(/Free space/) as string,
      },
    ]);
    expect(result.added).toBe(1);
  });

  it('wraps an unexpected parser exception as PARSE_FAILED instead of aborting', async () => {
    const result = await createImporter({
      sink: memorySink(),
      cleanHtml: () => Promise.reject(new TypeError('boom')),
    }).importFiles([file('x.html', '<p>x</p>'), file('y.txt', 'fine')]);
    expect(result.failures.map((f) => f.code)).toEqual(['PARSE_FAILED']);
    expect(result.added).toBe(1);
  });

  it('stops between files when cancelled and keeps what was imported', async () => {
    const sink = memorySink();
    const controller = new AbortController();
    const files = Array.from({ length: 5 }, (_, i) => file(`f${i}.txt`, `file number ${i}`));
    const result = await createImporter({ sink, cleanHtml }).importFiles(files, {
      signal: controller.signal,
      onProgress: (p) => {
        if (p.filesDone === 2) controller.abort();
      },
    });
    expect(result).toMatchObject({
      filesDone: 2,
      added: 2,
      cancelled: true,
      done: true,
      current: null,
    });
    expect([...sink.byPath.keys()]).toEqual(['folder/f0.txt', 'folder/f1.txt']);
  });

  it('reports progress at start, after every file and at the end, throttling the rest', async () => {
    const files = Array.from({ length: 4 }, (_, i) => file(`f${i}.txt`, `file number ${i}`));
    const events: ImportProgress[] = [];
    // A clock that never moves: only the forced events (start, after each file, end) pass.
    await createImporter({ sink: memorySink(), cleanHtml, now: () => 0 }).importFiles(files, {
      onProgress: (p) => events.push(p),
    });
    expect(events.map((e) => [e.filesDone, e.done])).toEqual([
      [0, false],
      [1, false],
      [2, false],
      [3, false],
      [4, false],
      [4, true],
    ]);
    expect(events[0]!.filesTotal).toBe(4);
    expect(events[1]!.chunksDone).toBe(1);
    events[1]!.failures.push({ path: 'x', code: 'X', message: 'snapshot' }); // must not leak into later ones
    expect(events[2]!.failures).toEqual([]);

    // A clock that moves 1 s per reading: the "now reading file X" events come through too.
    const slow: ImportProgress[] = [];
    let t = 0;
    await createImporter({ sink: memorySink(), cleanHtml, now: () => (t += 1000) }).importFiles(
      files,
      {
        onProgress: (p) => slow.push(p),
      },
    );
    expect(slow.filter((e) => e.current === 'folder/f2.txt' && e.filesDone === 2)).toHaveLength(1);
  });
});

describe('importText', () => {
  it('normalises, chunks and stores text fetched elsewhere', async () => {
    const sink = memorySink();
    const importer = createImporter({ sink, cleanHtml });
    const result = await importer.importText({
      path: 'https://example.org/page',
      title: 'Page',
      mime: 'text/html',
      size: 10,
      modified: 0,
      text: 'Fetched\r\nwords  ',
      sourceUrl: 'https://example.org/page',
      qualityGrade: 'B',
    });
    expect(result.outcome).toBe('added');
    expect(sink.byPath.get('https://example.org/page')!.input).toMatchObject({
      text: 'Fetched\nwords',
      qualityGrade: 'B',
    });
  });

  it('rejects blank text with EMPTY_FILE', async () => {
    const importer = createImporter({ sink: memorySink(), cleanHtml });
    await expect(
      importer.importText({
        path: 'p',
        title: 't',
        mime: 'text/plain',
        size: 0,
        modified: 0,
        text: ' \n ',
      }),
    ).rejects.toMatchObject({ code: 'EMPTY_FILE' });
  });
});

describe('createIngestApi', () => {
  it('fails HTML files until a cleaner is connected, then uses it', async () => {
    const api = createIngestApi({ sink: memorySink() });
    const before = await api.importFiles([file('p.html', '<p>hello world</p>')]);
    expect(before.failures[0]).toMatchObject({
      code: 'PARSE_FAILED',
      message: expect.stringMatching(/not connected/) as string,
    });
    api.setHtmlCleaner(cleanHtml);
    const after = await api.importFiles([file('p.html', '<p>hello world</p>')]);
    expect(after.added).toBe(1);
  });

  it('cancels the running import through cancelImport()', async () => {
    const api = createIngestApi({ sink: memorySink(), cleanHtml });
    const files = Array.from({ length: 4 }, (_, i) => file(`f${i}.txt`, `file number ${i}`));
    const result = await api.importFiles(files, (p) => {
      if (p.filesDone === 1) api.cancelImport();
    });
    expect(result).toMatchObject({ filesDone: 1, cancelled: true });
    // The next import is not affected by the earlier cancel.
    expect((await api.importFiles(files.slice(1))).cancelled).toBe(false);
  });
});
