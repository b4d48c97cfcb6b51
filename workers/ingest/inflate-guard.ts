// Decompression-bomb guards: zip containers (DOCX) and PDF streams are measured BEFORE a parser
// inflates them, and refused with FILE_TOO_LARGE naming the limit when they would inflate past
// it. Owns: the inflate limits, the zip central-directory reader, the PDF stream scan and the
// bounded streaming inflate (DecompressionStream, read chunk by chunk, cancelled at the cap, so
// measuring never holds more than one chunk).
import { createError } from '../shared/errors';
import type { ParseMeta } from './parse-types';

const MB = 1024 * 1024;

/**
 * 64 MB: the most any one part (a zip entry, a PDF stream) may inflate to. A real document.xml
 * of a 1,000-page report is ~10-20 MB; mammoth and pdfjs hold a few times a part's size while
 * parsing it, so 64 MB keeps the peak well under a phone tab's memory.
 */
export const MAX_INFLATED_PART_BYTES = 64 * MB;
/** 64 MB for a whole zip: mammoth may read every XML part into memory at once. */
export const MAX_INFLATED_ZIP_BYTES = 64 * MB;
/**
 * 256 MB for all of a PDF's text-bearing streams (images are skipped: text extraction never
 * decodes them). pdfjs decodes them page by page and frees each page, so this bounds the work
 * of one import rather than a peak; a 1,000-page book's content streams are ~50 MB.
 */
export const MAX_INFLATED_PDF_BYTES = 256 * MB;

/**
 * 150,000 XML elements in all of a DOCX's XML parts. mammoth holds ~1.5 KB per element while it
 * reads (measured: 140,000 elements of ordinary paragraphs peaked at 275 MB, 600,000 empty
 * paragraphs in a 7 KB file at 984 MB), so bytes alone do not bound its memory: a 50 KB file can
 * inflate to 16 MB of empty elements. 150,000 is ~400 pages of ordinary Word paragraphs.
 */
export const MAX_DOCX_ELEMENTS = 150_000;

export interface InflateLimits {
  part: number;
  total: number;
  /** Zip only: the most XML elements all `.xml` parts may hold together. */
  elements?: number;
}

/** Counts XML start tags (`<` then a name, not `</`, `<?`, `<!`) in bytes fed chunk by chunk. */
export function createElementCounter(): { feed(bytes: Uint8Array): void; readonly count: number } {
  let count = 0;
  let afterLt = false;
  return {
    feed(bytes) {
      for (let i = 0; i < bytes.length; i++) {
        const b = bytes[i]!;
        if (afterLt && b !== 0x2f && b !== 0x3f && b !== 0x21) count++;
        afterLt = b === 0x3c;
      }
    },
    get count() {
      return count;
    },
  };
}

const mb = (n: number) => `${Math.round(n / MB)} MB`;

function tooLarge(meta: ParseMeta, what: string, size: number | null, limit: number) {
  const amount = size === null ? `more than ${mb(limit)}` : mb(size);
  return createError('FILE_TOO_LARGE', {
    reason: `"${meta.path}" would inflate to ${amount} (${what}); Sift refuses more than ${mb(limit)} uncompressed so a compressed "bomb" cannot exhaust memory.`,
    path: meta.path,
    limit,
    ...(size === null ? {} : { size }),
  });
}

/**
 * Inflates `data` through `stages` (zlib 'deflate' or 'deflate-raw', in order) without keeping
 * the output, and stops at `cap`. Corrupt data ends the count where it broke (the parser will
 * stop there too). Returns the inflated byte count, or null when it passed `cap`.
 */
export async function inflatedSize(
  data: Uint8Array,
  stages: CompressionFormat[],
  cap: number,
  onChunk?: (chunk: Uint8Array) => boolean | void,
): Promise<number | null> {
  // Typed loosely: DecompressionStream reads BufferSource and writes Uint8Array chunks.
  let stream = new Blob([data as BlobPart]).stream() as ReadableStream<unknown>;
  for (const stage of stages) {
    stream = stream.pipeThrough(new DecompressionStream(stage));
  }
  const reader = (stream as ReadableStream<Uint8Array>).getReader();
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return total;
      total += value.byteLength;
      if (total > cap || onChunk?.(value) === false) {
        await reader.cancel().catch(() => undefined);
        return null;
      }
    }
  } catch {
    return total;
  }
}

// ---------------------------------------------------------------------------------------------
// Zip (DOCX, and any later zip-based format)

interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  uncompressedSize: number;
  localHeaderOffset: number;
}

const u16 = (v: DataView, o: number) => v.getUint16(o, true);
const u32 = (v: DataView, o: number) => v.getUint32(o, true);
const u64 = (v: DataView, o: number) => Number(v.getBigUint64(o, true));

/** The central directory's entries, or null when `bytes` is not a readable zip. */
export function readZipDirectory(bytes: Uint8Array): ZipEntry[] | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // End of central directory: 22 bytes plus a comment of up to 65,535 bytes, at the very end.
  let eocd = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 0xffff); i--) {
    if (u32(view, i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return null;
  let count = u16(view, eocd + 10);
  let cdOffset = u32(view, eocd + 16);
  const locator = eocd - 20;
  if (locator >= 0 && u32(view, locator) === 0x07064b50) {
    const zip64 = u64(view, locator + 8);
    if (zip64 + 56 > bytes.length || u32(view, zip64) !== 0x06064b50) return null;
    count = u64(view, zip64 + 32);
    cdOffset = u64(view, zip64 + 48);
  }
  const entries: ZipEntry[] = [];
  let p = cdOffset;
  for (let n = 0; n < count; n++) {
    if (p + 46 > bytes.length || u32(view, p) !== 0x02014b50) return null;
    const nameLength = u16(view, p + 28);
    const extraLength = u16(view, p + 30);
    const commentLength = u16(view, p + 32);
    if (p + 46 + nameLength + extraLength > bytes.length) return null;
    const entry: ZipEntry = {
      name: new TextDecoder().decode(bytes.subarray(p + 46, p + 46 + nameLength)),
      method: u16(view, p + 10),
      compressedSize: u32(view, p + 20),
      uncompressedSize: u32(view, p + 24),
      localHeaderOffset: u32(view, p + 42),
    };
    readZip64Extra(view, p + 46 + nameLength, extraLength, entry);
    entries.push(entry);
    p += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** ZIP64 sizes live in extra field 0x0001, present for each 32-bit field set to 0xFFFFFFFF. */
function readZip64Extra(view: DataView, start: number, length: number, entry: ZipEntry): void {
  for (let q = start; q + 4 <= start + length;) {
    const id = u16(view, q);
    const size = u16(view, q + 2);
    if (id === 0x0001) {
      let r = q + 4;
      const take = (): number => {
        const value = r + 8 <= q + 4 + size ? u64(view, r) : 0xffffffff;
        r += 8;
        return value;
      };
      if (entry.uncompressedSize === 0xffffffff) entry.uncompressedSize = take();
      if (entry.compressedSize === 0xffffffff) entry.compressedSize = take();
      if (entry.localHeaderOffset === 0xffffffff) entry.localHeaderOffset = take();
      return;
    }
    q += 4 + size;
  }
}

/**
 * Refuses a zip whose parts would inflate past the limits: first by the sizes the central
 * directory declares (no inflating at all), then by inflating each deflated entry with the
 * output dropped, so a directory that under-declares a size cannot slip a bomb through.
 * A file that is not a readable zip passes (the parser then reports it as damaged).
 * @throws AppError FILE_TOO_LARGE naming the limit and the part.
 */
export async function guardZip(
  bytes: Uint8Array,
  meta: ParseMeta,
  limits: InflateLimits = {
    part: MAX_INFLATED_PART_BYTES,
    total: MAX_INFLATED_ZIP_BYTES,
    elements: MAX_DOCX_ELEMENTS,
  },
): Promise<void> {
  const entries = readZipDirectory(bytes);
  if (!entries) return;
  let declared = 0;
  for (const e of entries) {
    if (e.uncompressedSize > limits.part)
      throw tooLarge(meta, e.name, e.uncompressedSize, limits.part);
    declared += e.uncompressedSize;
    if (declared > limits.total) throw tooLarge(meta, 'all parts', declared, limits.total);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const elements = createElementCounter();
  const maxElements = limits.elements ?? Infinity;
  let actual = 0;
  for (const e of entries) {
    const local = e.localHeaderOffset;
    if (local + 30 > bytes.length || u32(view, local) !== 0x04034b50) continue;
    const start = local + 30 + u16(view, local + 26) + u16(view, local + 28);
    const data = bytes.subarray(start, Math.min(bytes.length, start + e.compressedSize));
    const xml = /\.xml$/i.test(e.name) && maxElements < Infinity;
    if (e.method !== 8) {
      // Stored entries are no bigger than the file itself; only their elements are counted.
      if (xml) elements.feed(data);
      if (elements.count > maxElements) throw tooManyElements(meta, e.name, maxElements);
      continue;
    }
    // The parser trusts the declared size, so an entry may not inflate past it either.
    const cap = Math.min(limits.part, e.uncompressedSize, limits.total - actual);
    const count = xml
      ? (chunk: Uint8Array) => {
          elements.feed(chunk);
          return elements.count <= maxElements;
        }
      : undefined;
    const size = await inflatedSize(data, ['deflate-raw'], cap, count);
    if (elements.count > maxElements) throw tooManyElements(meta, e.name, maxElements);
    if (size === null) {
      throw tooLarge(
        meta,
        `${e.name}, which declares ${e.uncompressedSize} bytes`,
        null,
        Math.min(limits.part, limits.total),
      );
    }
    actual += size;
  }
}

function tooManyElements(meta: ParseMeta, part: string, limit: number) {
  return createError('FILE_TOO_LARGE', {
    reason: `"${meta.path}" holds more than ${limit.toLocaleString('en')} XML elements (in ${part}); Sift stops there so one document cannot exhaust memory. Split it into smaller documents, or save it as PDF or plain text and import that.`,
    path: meta.path,
    limit,
  });
}

// ---------------------------------------------------------------------------------------------
// PDF streams

const latin1 = new TextDecoder('windows-1252'); // one char per byte: string offsets = byte offsets

/** The filter names of a stream dictionary, in order (`/Filter /X` or `/Filter [/X /Y]`). */
function filtersOf(dict: string): string[] {
  const m = /\/Filter\s*(\[[^\]]*\]|\/[A-Za-z0-9]+)/.exec(dict);
  if (!m?.[1]) return [];
  return [...m[1].matchAll(/\/([A-Za-z0-9]+)/g)].map((x) => x[1]!);
}

const FLATE = new Set(['FlateDecode', 'Fl']);

/**
 * Refuses a PDF whose text-bearing streams (content, object, xref, font and form streams; not
 * images, which text extraction never decodes) would inflate past the limits. Measures each
 * Flate stream (chains of Flate filters included) by inflating it with the output dropped.
 * Streams that begin with another filter (ASCII85, LZW...) are not measured: see ./README.md.
 * @throws AppError FILE_TOO_LARGE naming the limit.
 */
export async function guardPdfStreams(
  bytes: Uint8Array,
  meta: ParseMeta,
  limits: InflateLimits = { part: MAX_INFLATED_PART_BYTES, total: MAX_INFLATED_PDF_BYTES },
): Promise<void> {
  const text = latin1.decode(bytes);
  const keyword = /(?:>>|\s)stream\r?\n/g;
  let total = 0;
  let match: RegExpExecArray | null;
  while ((match = keyword.exec(text))) {
    const dataStart = match.index + match[0].length;
    const dictStart = text.lastIndexOf(' obj', match.index);
    const dict = text.slice(
      dictStart < 0 || match.index - dictStart > 8192 ? match.index - 8192 : dictStart,
      match.index + 2,
    );
    const end = text.indexOf('endstream', dataStart);
    if (end < 0) break;
    keyword.lastIndex = end;
    if (/\/Subtype\s*\/Image\b/.test(dict)) continue;
    const filters = filtersOf(dict);
    let flate = 0;
    while (flate < filters.length && FLATE.has(filters[flate]!)) flate++;
    if (flate === 0) continue;
    const stages = Array.from({ length: flate }, (): CompressionFormat => 'deflate');
    const cap = Math.min(limits.part, limits.total - total);
    const size = await inflatedSize(bytes.subarray(dataStart, end), stages, cap);
    if (size === null) {
      const limit = cap === limits.part ? limits.part : limits.total;
      throw tooLarge(meta, cap === limits.part ? 'one stream' : 'all streams', null, limit);
    }
    total += size;
  }
}
