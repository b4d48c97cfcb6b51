// Byte-level helpers of the vector index: CRC32, the id hash that assigns HNSW levels, and a
// little-endian section writer/reader for persistence.
import { createError } from '../shared/errors';

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

/** CRC-32 (IEEE, as in zlib/PNG) of `bytes[start, end)`. */
export function crc32(bytes: Uint8Array, start = 0, end = bytes.length): number {
  return (crc32Update(0xffffffff, bytes, start, end) ^ 0xffffffff) >>> 0;
}

/** The running CRC-32 register `c` (0xffffffff at the start) over more bytes. */
function crc32Update(c: number, bytes: Uint8Array, start = 0, end = bytes.length): number {
  for (let i = start; i < end; i++) c = CRC_TABLE[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return c;
}

/** murmur3 fmix32: a well-mixed 32-bit hash of a 32-bit integer. */
function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A 32-bit hash of a safe-integer id (both halves mixed), salted by `seed`. */
export function hashId(id: number, seed: number): number {
  const lo = id >>> 0;
  const hi = Math.floor(id / 4294967296) >>> 0;
  return fmix32(fmix32(lo ^ Math.imul(seed, 0x9e3779b1)) ^ fmix32(hi + 0x7f4a7c15));
}

/**
 * The paper's level draw floor(-ln(u) * mL) with mL = 1/ln(M), done in integers so it is the
 * same on every engine (Math.log is not required to be correctly rounded): with u = h / 2^32,
 * level >= L exactly when u < M^-L, i.e. h * M^L < 2^32. Products near 2^32 are exact doubles.
 */
export function levelForHash(h: number, M: number, maxLevel: number): number {
  let level = 0;
  let p = M;
  while (level < maxLevel && h * p < 4294967296) {
    level++;
    p *= M;
  }
  return level;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

type Numeric = Int16Array | Int32Array | Uint8Array | Float64Array;

function pad8(n: number): number {
  return (n + 7) & ~7;
}

/** Appends typed-array sections, each 8-byte aligned, little-endian. */
export class SectionWriter {
  private parts: Array<{ offset: number; data: Numeric }> = [];
  length: number;
  constructor(headerBytes: number) {
    this.length = pad8(headerBytes);
  }
  add(data: Numeric): void {
    this.parts.push({ offset: this.length, data });
    this.length = pad8(this.length + data.byteLength);
  }
  /** The sections added, with their byte offsets, in order. */
  sections(): ReadonlyArray<{ offset: number; data: Numeric }> {
    return this.parts;
  }
  /** Copies every section into `out` (which must be `length` bytes). */
  writeInto(out: Uint8Array): void {
    const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
    for (const { offset, data } of this.parts) {
      if (LITTLE_ENDIAN || data instanceof Uint8Array) {
        out.set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), offset);
      } else writeSwapped(view, offset, data);
    }
  }
}

/**
 * The bytes `writeInto` + `sealChecksum` give, behind `header` (its first `header.length`
 * bytes, total length already written; the CRC field at 16 is filled here), in parts of
 * `partBytes` (the last one shorter): only one part is held at a time instead of a copy of the
 * whole index. The sections are read as the parts are taken, so they must not change until the
 * last part has been taken.
 */
export function* sectionParts(
  writer: SectionWriter,
  header: Uint8Array,
  partBytes: number,
): Generator<Uint8Array> {
  const pieces = function* (): Generator<Uint8Array> {
    yield header;
    let at = header.length;
    for (const { offset, data } of writer.sections()) {
      if (offset > at) yield new Uint8Array(offset - at);
      if (LITTLE_ENDIAN || data instanceof Uint8Array) {
        yield new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
      } else {
        const swapped = new Uint8Array(data.byteLength);
        writeSwapped(new DataView(swapped.buffer), 0, data);
        yield swapped;
      }
      at = offset + data.byteLength;
    }
    if (writer.length > at) yield new Uint8Array(writer.length - at);
  };
  // The CRC covers everything after its own field: one pass before the header goes out.
  let c = 0xffffffff;
  let first = true;
  for (const piece of pieces()) {
    c = crc32Update(c, piece, first ? 20 : 0);
    first = false;
  }
  new DataView(header.buffer, header.byteOffset, header.byteLength).setUint32(
    16,
    (c ^ 0xffffffff) >>> 0,
    true,
  );
  let part = new Uint8Array(Math.min(partBytes, writer.length));
  let filled = 0;
  let left = writer.length;
  for (const piece of pieces()) {
    for (let from = 0; from < piece.length;) {
      const n = Math.min(piece.length - from, part.length - filled);
      part.set(piece.subarray(from, from + n), filled);
      filled += n;
      from += n;
      if (filled === part.length) {
        yield part;
        left -= part.length;
        part = new Uint8Array(Math.min(partBytes, left));
        filled = 0;
      }
    }
  }
}

function writeSwapped(view: DataView, offset: number, data: Numeric): void {
  for (let i = 0; i < data.length; i++) {
    if (data instanceof Int16Array) view.setInt16(offset + i * 2, data[i]!, true);
    else if (data instanceof Int32Array) view.setInt32(offset + i * 4, data[i]!, true);
    else view.setFloat64(offset + i * 8, data[i]!, true);
  }
}

/** Reads sections written by SectionWriter; throws INDEX_CORRUPT when one runs past the end. */
export class SectionReader {
  offset: number;
  /**
   * `adopt`: the caller hands `bytes` over (it keeps no other use for them), so aligned sections
   * are returned as views on them instead of copies: the bytes become the index's storage and a
   * load holds one copy of the index, not two.
   */
  constructor(
    private readonly bytes: Uint8Array,
    headerBytes: number,
    private readonly adopt = false,
  ) {
    this.offset = pad8(headerBytes);
  }
  /** True when the section at `at` can be a view (adopted, little-endian, aligned). */
  private viewable(at: number, align: number): boolean {
    return this.adopt && LITTLE_ENDIAN && (this.bytes.byteOffset + at) % align === 0;
  }
  private take(byteLength: number): number {
    const at = this.offset;
    if (at + byteLength > this.bytes.length) {
      throw createError('INDEX_CORRUPT', { reason: 'The vector index file is truncated.' });
    }
    this.offset = pad8(at + byteLength);
    return at;
  }
  int16(n: number): Int16Array {
    const at = this.take(n * 2);
    if (this.viewable(at, 2))
      return new Int16Array(this.bytes.buffer, this.bytes.byteOffset + at, n);
    const out = new Int16Array(n);
    if (LITTLE_ENDIAN) new Uint8Array(out.buffer).set(this.bytes.subarray(at, at + n * 2));
    else {
      const v = this.view();
      for (let i = 0; i < n; i++) out[i] = v.getInt16(at + i * 2, true);
    }
    return out;
  }
  int32(n: number): Int32Array {
    const at = this.take(n * 4);
    if (this.viewable(at, 4))
      return new Int32Array(this.bytes.buffer, this.bytes.byteOffset + at, n);
    const out = new Int32Array(n);
    if (LITTLE_ENDIAN) new Uint8Array(out.buffer).set(this.bytes.subarray(at, at + n * 4));
    else {
      const v = this.view();
      for (let i = 0; i < n; i++) out[i] = v.getInt32(at + i * 4, true);
    }
    return out;
  }
  float64(n: number): Float64Array {
    const at = this.take(n * 8);
    if (this.viewable(at, 8))
      return new Float64Array(this.bytes.buffer, this.bytes.byteOffset + at, n);
    const out = new Float64Array(n);
    if (LITTLE_ENDIAN) new Uint8Array(out.buffer).set(this.bytes.subarray(at, at + n * 8));
    else {
      const v = this.view();
      for (let i = 0; i < n; i++) out[i] = v.getFloat64(at + i * 8, true);
    }
    return out;
  }
  uint8(n: number): Uint8Array {
    const at = this.take(n);
    return this.adopt ? this.bytes.subarray(at, at + n) : this.bytes.slice(at, at + n);
  }
  end(): number {
    return this.offset;
  }
  private view(): DataView {
    return new DataView(this.bytes.buffer, this.bytes.byteOffset, this.bytes.byteLength);
  }
}

/** Rounds a byte length up to the section alignment. */
export { pad8 };
