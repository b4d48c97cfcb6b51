// The Node probes of the hostile suite (`npm run bench -- hostile`): each tries one attack from
// issue 29 on the modules as they ship and says whether the defence held, with its figure.
// Reuses the product factories and the test kits; every probe is bounded in time.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { constants, createDeflateRaw, deflateRawSync } from 'node:zlib';
import { makeDocx, writeZip, type ZipEntry } from '../e2e/fixtures/make-fixtures';
import { answerToMarkdown } from '../app/answer/answer-markdown';
import { sampleAnswer } from '../workers/shared/answer.testkit';
import { hostileString, liveMarkup } from '../workers/shared/markdown-safety.testkit';
import { isAppError } from '../workers/shared/errors';
import { mulberry32 } from '../workers/shared/rng.testkit';
import { createImporter } from '../workers/ingest/importer';
import { readZipDirectory } from '../workers/ingest/inflate-guard';
import { parseDocx } from '../workers/ingest/parse-docx';
import { decodeText } from '../workers/ingest/parse-txt';
import { createSseParser } from '../workers/llm/sse-parser';
import { createHttpGenerator } from '../workers/llm/http';
import { citedDraft, parseCitations } from '../workers/answer/parse-citations';
import { referenceFor } from '../workers/answer/extractive';
import { parseDraftReferences } from '../workers/projects/draft-references';
import { projectReport, retrievalAudit } from '../workers/projects/exports';
import { provenanceOf } from '../workers/projects/provenance';
import { objectiveMeasures } from '../workers/projects/triangulation';
import { compileGlob } from '../workers/store/glob';
import { openTestLibrary } from '../workers/store/store.testkit';
import { realClock } from '../workers/web/clock';
import { createHttp } from '../workers/web/http';
import { createNetworkLedger } from '../workers/web/ledger';
import { createRedactor } from '../workers/web/redact';
import type { CleanHtml } from '../workers/shared/ingest-api';
import type { ImportFile } from '../workers/shared/types';

/** The probes import text files only: HTML cleaning is never reached. */
const noHtml: CleanHtml = () => Promise.reject(new Error('no HTML in these probes'));

export interface ProbeResult {
  held: boolean;
  figure: string;
}

export interface Probe {
  name: string;
  /** What the probe needs: node runs in this process, chromium drives the built app. */
  runtime: 'node' | 'chromium';
  run(opts: { quick: boolean }): Promise<ProbeResult>;
}

const MB = 1024 * 1024;
const ms = (x: number) => `${Math.round(x)} ms`;

/** Runs `fn` while sampling the resident set every 10 ms; returns its result, time and peak growth. */
export async function measured<T>(
  fn: () => Promise<T>,
): Promise<{ value: T; ms: number; peakMB: number }> {
  const base = process.memoryUsage().rss;
  let peak = base;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  const t0 = performance.now();
  try {
    const value = await fn();
    return { value, ms: performance.now() - t0, peakMB: Math.max(0, (peak - base) / MB) };
  } finally {
    clearInterval(timer);
  }
}

async function localServer(handler: (res: ServerResponse, url: string) => void) {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => handler(res, req.url ?? ''));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** Writes `total` bytes from `piece`, honouring backpressure, until done or the client leaves. */
function pump(res: ServerResponse, total: number, piece: (i: number) => string, end: string) {
  const sent = { bytes: 0 };
  let closed = false;
  res.on('close', () => (closed = true));
  const go = (i: number): void => {
    while (!closed && sent.bytes < total) {
      const chunk = piece(i++);
      sent.bytes += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', () => go(i));
    }
    if (!closed) res.end(end);
  };
  go(0);
  return sent;
}

// ---------------------------------------------------------------------------------------------
// Item 2: exports

const exportsProbe: Probe = {
  name: 'exports-no-live-html',
  runtime: 'node',
  async run({ quick }) {
    const seeds = quick ? 100 : 500;
    let live = 0;
    const r = await measured(async () => {
      for (let seed = 1; seed <= seeds; seed++) {
        const v = `${hostileString(seed)} x <img src=x onerror=alert(1)> a\n\n<svg onload=1>\n\n.txt`;
        const p = provenanceOf({ location: v, title: v, date: 0 }, 1);
        const row = { claim: v, citedSource: v, audit: { status: 'REVIEW' as const } };
        const report = projectReport({
          project: v,
          question: v,
          answer: {
            sentences: [{ text: v, citations: [1] }],
            citations: [{ n: 1, provenance: p }],
          },
          claims: [],
          audit: [row],
          measures: objectiveMeasures([], []),
          references: [p],
        });
        const a = sampleAnswer();
        const answer = answerToMarkdown({
          ...a,
          question: v,
          sentences: a.sentences.map((s) => ({ ...s, text: v })),
          references: a.references.map((x) => ({ ...x, title: v, path: v })),
        });
        for (const md of [
          report,
          retrievalAudit(
            [],
            {
              total_queries: 1,
              avg_results_per_query: 1,
              cache_hit_rate: 0,
              zero_result_queries: 0,
            },
            [row],
          ),
          answer,
        ]) {
          live += liveMarkup(md).length;
        }
      }
    });
    return {
      held: live === 0,
      figure: `${live} live elements in ${seeds * 3} exports, ${ms(r.ms)}`,
    };
  },
};

// ---------------------------------------------------------------------------------------------
// Item 3: streamed replies

const sseLinearProbe: Probe = {
  name: 'llm-stream-parser-64mb-line',
  runtime: 'node',
  async run({ quick }) {
    const size = (quick ? 16 : 64) * MB;
    const chunk = 'z'.repeat(64 * 1024);
    const r = await measured(async () => {
      const p = createSseParser(Infinity);
      p.push('data: {"choices":[{"delta":{"content":"');
      for (let n = 0; n < size; n += chunk.length) p.push(chunk);
      return p.push('"}}]}\n\n').length + p.work * 0;
    });
    return {
      held: r.ms < 2000,
      figure: `${size / MB} MB in one line, unbudgeted: ${ms(r.ms)}, peak +${Math.round(r.peakMB)} MB`,
    };
  },
};

const replyCutProbe: Probe = {
  name: 'llm-reply-64mb-cut',
  runtime: 'node',
  async run() {
    const results: string[] = [];
    let held = true;
    for (const shape of ['deltas', 'one-delta'] as const) {
      let sent = { bytes: 0 };
      const server = await localServer((res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        const delta = `data: ${JSON.stringify({ choices: [{ delta: { content: 'w '.repeat(32 * 1024) } }] })}\n\n`;
        const head = 'data: {"choices":[{"delta":{"content":"';
        sent =
          shape === 'deltas'
            ? pump(res, 64 * MB, () => delta, 'data: [DONE]\n\n')
            : pump(res, 64 * MB, (i) => (i ? 'x'.repeat(MB) : head), '"}}]}\n\n');
      });
      try {
        const g = createHttpGenerator({ baseUrl: `${server.url}/v1`, model: 'm' }, { fetch });
        const r = await measured(() => g.generate({ prompt: 'q', maxTokens: 100_000 }));
        const ok = r.value.finishReason === 'cut' && r.ms < 2000 && sent.bytes < 16 * MB;
        held &&= ok;
        results.push(
          `${shape}: cut at ${Math.round(r.value.text.length / 1024)} KB after ${Math.round(sent.bytes / MB)} MB sent, ${ms(r.ms)}, peak +${Math.round(r.peakMB)} MB`,
        );
      } finally {
        await server.close();
      }
    }
    return { held, figure: results.join('; ') };
  },
};

// ---------------------------------------------------------------------------------------------
// Item 4: globs

const globProbe: Probe = {
  name: 'glob-no-backtracking',
  runtime: 'node',
  async run() {
    const rnd = mulberry32(29);
    const paths = Array.from(
      { length: 10_000 },
      (_, i) =>
        `${Array.from({ length: 1 + (i % 12) }, () => 'd'.repeat(1 + Math.floor(rnd() * 8))).join('/')}/f${i}.txt`,
    );
    const nested = Array.from({ length: 10 }, (_, i) => `${'d/'.repeat(20 + i)}y`);
    const evil = compileGlob(`${'**/'.repeat(25)}x`);
    const t0 = performance.now();
    for (const p of nested) evil.test(p);
    const nestedMs = performance.now() - t0;
    const pieces = ['*', '**', '**/', '?', 'd', '/', 'x', '*d*'];
    let worst = 0;
    for (let g = 0; g < 20; g++) {
      let glob = '';
      while (glob.length < 1000) glob += pieces[Math.floor(rnd() * pieces.length)];
      const m = compileGlob(glob.slice(0, 1023));
      const t = performance.now();
      for (const p of paths) m.test(p);
      worst = Math.max(worst, performance.now() - t);
    }
    return {
      held: nestedMs < 50 && worst < 50,
      figure: `**/ x25 + x over 10 nested paths ${ms(nestedMs)}; worst 1 KB glob over 10,000 paths ${worst.toFixed(1)} ms`,
    };
  },
};

// ---------------------------------------------------------------------------------------------
// Item 5 and the held decompression bombs: DOCX

async function deflateRepeated(chunk: string, megabytes: number): Promise<Buffer> {
  const z = createDeflateRaw({ level: constants.Z_BEST_COMPRESSION });
  const out: Buffer[] = [];
  z.on('data', (c: Buffer) => out.push(c));
  const done = new Promise((r) => z.on('end', r));
  const block = Buffer.from(chunk.repeat(Math.ceil(MB / chunk.length)).slice(0, MB));
  for (let i = 0; i < megabytes; i++)
    if (!z.write(block)) await new Promise((r) => z.once('drain', r));
  z.end();
  await done;
  return Buffer.concat(out);
}

function docxWithDocument(data: Buffer, declaredSize: number): Buffer {
  const base = makeDocx(['x'], 'probe');
  return writeZip(
    readZipDirectory(base)!.map((e): ZipEntry => {
      if (e.name === 'word/document.xml') return { name: e.name, data, method: 8, declaredSize };
      const start = e.localHeaderOffset + 30 + Buffer.byteLength(e.name);
      const d = base.subarray(start, start + e.compressedSize);
      return { name: e.name, data: d, method: 0, declaredSize: d.length };
    }),
  );
}

async function refusedDocx(docx: Buffer): Promise<{ code: string; ms: number; peakMB: number }> {
  const r = await measured(() =>
    parseDocx(docx, { path: 'probe.docx', name: 'probe.docx' }).then(
      () => 'parsed',
      (e: unknown) => (isAppError(e) ? e.code : String(e)),
    ),
  );
  return { code: r.value, ms: r.ms, peakMB: r.peakMB };
}

const docxDenseProbe: Probe = {
  name: 'docx-element-dense',
  runtime: 'node',
  async run() {
    const head =
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>';
    const data = Buffer.concat([
      deflateRawSync(Buffer.from(head), { finishFlush: constants.Z_SYNC_FLUSH }),
      await deflateRepeated('<w:p/>', 16),
    ]);
    const docx = docxWithDocument(data, head.length + 16 * MB);
    const r = await refusedDocx(docx);
    return {
      held: r.code === 'FILE_TOO_LARGE' && r.peakMB < 300,
      figure: `${Math.round(docx.length / 1024)} KB file, 16 MB XML: ${r.code} in ${ms(r.ms)}, peak +${Math.round(r.peakMB)} MB`,
    };
  },
};

const bombProbe: Probe = {
  name: 'held-decompression-bomb',
  runtime: 'node',
  async run() {
    const data = await deflateRepeated('<w:p><w:r><w:t>wombat</w:t></w:r></w:p>', 120);
    const lying = await refusedDocx(docxWithDocument(data, 4096));
    const honest = await refusedDocx(docxWithDocument(data, 120 * MB));
    return {
      held:
        lying.code === 'FILE_TOO_LARGE' && honest.code === 'FILE_TOO_LARGE' && lying.peakMB < 300,
      figure: `120 MB part (${Math.round(data.length / 1024)} KB zipped): declared ${honest.code} in ${ms(honest.ms)}; under-declared ${lying.code} in ${ms(lying.ms)}, peak +${Math.round(lying.peakMB)} MB`,
    };
  },
};

// ---------------------------------------------------------------------------------------------
// Item 6: the small ones

const smallProbes: Probe[] = [
  {
    name: 'utf8-bom-bad-byte',
    runtime: 'node',
    async run() {
      const body = [...new TextEncoder().encode('caf\u00e9 '), 0xff];
      const meta = { path: 'bom.txt', name: 'bom.txt' };
      try {
        const t = decodeText(new Uint8Array([0xef, 0xbb, 0xbf, ...body]), meta).text;
        return { held: t === 'caf\u00e9 \uFFFD', figure: `decoded ${JSON.stringify(t)}` };
      } catch (e) {
        return { held: false, figure: `refused: ${isAppError(e) ? e.code : String(e)}` };
      }
    },
  },
  {
    name: 'nul-file-name',
    runtime: 'node',
    async run() {
      const lib = await openTestLibrary();
      try {
        const data = new Blob(['nul name probe text']);
        const file: ImportFile = {
          path: '\u0000evil.txt',
          name: '\u0000evil.txt',
          size: data.size,
          modified: 0,
          type: '',
          data,
        };
        await createImporter({ sink: lib.store, cleanHtml: noHtml }).importFiles([file]);
        const paths = (await lib.store.listDocuments()).map((d) => d.path);
        return {
          held: paths.length === 1 && paths[0] !== '',
          figure: `stored as ${JSON.stringify(paths[0])}`,
        };
      } finally {
        await lib.close();
      }
    },
  },
  {
    name: 'answer-references-unique',
    runtime: 'node',
    async run() {
      const strip = (id: string) => ({
        ...referenceFor(
          {
            id,
            source: 'library',
            documentId: 7,
            chunkId: 1,
            path: 'a.txt',
            title: 'A',
            start: 0,
            end: 1,
            text: 'x',
            score: 1,
          },
          1,
        ),
        id,
        text: 'x',
        score: 1,
      });
      const strips = ['d7:0-1', 'd7:2-3', 'd7:4-5', 'd7:6-7'].map(strip);
      const draft = citedDraft(
        parseCitations('A [1]. B [2]. C [3]. D [4].', 4),
        strips,
        referenceFor,
      );
      return {
        held: draft.references.length === 1,
        figure: `${draft.references.length} reference(s) for 4 strips of one document`,
      };
    },
  },
  {
    name: 'draft-reference-line-40k-spaces',
    runtime: 'node',
    async run() {
      const gap = ' '.repeat(40_000);
      const t0 = performance.now();
      parseDraftReferences(`Prose [1].\n\n[1] a${gap}b\n[2] c${gap}\u0000`);
      const took = performance.now() - t0;
      return { held: took < 50, figure: ms(took) };
    },
  },
];

// ---------------------------------------------------------------------------------------------
// Held probes from the top of the issue that need no browser

const fuzzedQueriesProbe: Probe = {
  name: 'held-fuzzed-queries',
  runtime: 'node',
  async run({ quick }) {
    const n = quick ? 1_000 : 10_540;
    const lib = await openTestLibrary();
    let errors = 0;
    try {
      const data = [
        'pelican colonies nest on cliffs',
        'narwhal pods winter under ice',
        'vitamin D and fractures',
      ];
      await createImporter({ sink: lib.store, cleanHtml: noHtml }).importFiles(
        data.map((t, i) => {
          const b = new Blob([t]);
          return {
            path: `d${i}.txt`,
            name: `d${i}.txt`,
            size: b.size,
            modified: 0,
            type: '',
            data: b,
          };
        }),
      );
      const syntax = [
        '"',
        '*',
        'NEAR(',
        'AND',
        'OR NOT',
        '^',
        ':',
        '(',
        ')',
        '-',
        '+',
        '\u0000',
        '\\',
        "'",
        'pelican',
        'ice',
      ];
      const rnd = mulberry32(10_540);
      const r = await measured(async () => {
        for (let i = 0; i < n; i++) {
          const q =
            i % 2
              ? hostileString(i)
              : Array.from(
                  { length: 1 + Math.floor(rnd() * 8) },
                  () => syntax[Math.floor(rnd() * syntax.length)],
                ).join(rnd() < 0.5 ? ' ' : '');
          try {
            await lib.search.search({
              query: q,
              filters: i % 7 ? {} : { pathGlob: q.slice(0, 200) },
            });
          } catch (e) {
            if (!(isAppError(e) && e.code === 'INVALID_QUERY')) errors++;
          }
        }
      });
      return { held: errors === 0, figure: `${n} queries, ${errors} errors, ${ms(r.ms)}` };
    } finally {
      await lib.close();
    }
  },
};

const chunkedBodyProbe: Probe = {
  name: 'held-300mb-chunked-body',
  runtime: 'node',
  async run() {
    let sent = { bytes: 0 };
    const server = await localServer((res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      sent = pump(res, 300 * MB, () => 'y'.repeat(256 * 1024), '');
    });
    try {
      const redactor = createRedactor();
      const ledger = createNetworkLedger({ clock: realClock, redactor });
      const http = createHttp({
        fetch: (i, init) => fetch(i, init),
        clock: realClock,
        random: () => 0.5,
        ledger,
        redactor,
        isOnline: () => true,
        isBrowser: false,
      });
      const r = await measured(() =>
        http
          .fetchPublic(`${server.url}/huge.txt`, 'page-fetch', { maxBytes: 2 * MB, maxRetries: 0 })
          .then(
            () => 'read',
            (e: unknown) => (isAppError(e) ? e.code : String(e)),
          ),
      );
      await new Promise((res) => setTimeout(res, 200));
      return {
        held: r.value === 'FILE_TOO_LARGE' && sent.bytes < 100 * MB,
        figure: `${r.value} after ${Math.round(sent.bytes / MB)} MB of 300 MB sent, ${ms(r.ms)}, peak +${Math.round(r.peakMB)} MB`,
      };
    } finally {
      await server.close();
    }
  },
};

const tinyFilesProbe: Probe = {
  name: 'held-5000-tiny-files',
  runtime: 'node',
  async run({ quick }) {
    const n = quick ? 1_000 : 5_000;
    const lib = await openTestLibrary();
    try {
      const files: ImportFile[] = Array.from({ length: n }, (_, i) => {
        const data = new Blob([`tiny note ${i} about item${i}`]);
        return {
          path: `tiny/${i}.txt`,
          name: `${i}.txt`,
          size: data.size,
          modified: 0,
          type: '',
          data,
        };
      });
      const r = await measured(() =>
        createImporter({ sink: lib.store, cleanHtml: noHtml }).importFiles(files),
      );
      const ok = r.value.added === n && r.value.failures.length === 0;
      return {
        held: ok,
        figure: `${r.value.added}/${n} added in ${ms(r.ms)}, peak +${Math.round(r.peakMB)} MB`,
      };
    } finally {
      await lib.close();
    }
  },
};

export const NODE_PROBES: Probe[] = [
  exportsProbe,
  sseLinearProbe,
  replyCutProbe,
  globProbe,
  docxDenseProbe,
  ...smallProbes,
  fuzzedQueriesProbe,
  bombProbe,
  chunkedBodyProbe,
  tinyFilesProbe,
];
