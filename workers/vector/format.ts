// The persisted layout of a vector index: one fixed header then 8-byte aligned sections.
// Owns: magic, format version, header fields and the CRC32 check. Bump FORMAT_VERSION (and
// treat older bytes as "rebuild from SQLite") whenever the layout changes.
import { createError } from '../shared/errors';
import { crc32 } from './codec';

export const MAGIC = 'SIFTVIDX';
export const FORMAT_VERSION = 1;
export const KIND_HNSW = 1;
export const KIND_EXACT = 2;
export const HEADER_BYTES = 80;

/**
 * Header (little-endian):
 *  0 magic[8] | 8 version u32 | 12 kind u32 | 16 crc32 u32 of bytes [20, end) | 20 total length u32
 * 24 dim | 28 rows | 32 M | 36 efConstruction | 40 efSearch | 44 levelSeed | 48 entry i32
 * 52 maxLevel | 56 upper-pool length | 60 filterExactMaxAllowed | 64 filterExactMaxFraction f64 | 72 reserved
 */
export interface Header {
  kind: number;
  dim: number;
  rows: number;
  M: number;
  efConstruction: number;
  efSearch: number;
  levelSeed: number;
  entry: number;
  maxLevel: number;
  upperLength: number;
  filterExactMaxAllowed: number;
  filterExactMaxFraction: number;
}

/** `totalLength`: of the whole serialised index (default `out.length`: `out` is all of it). */
export function writeHeader(out: Uint8Array, h: Header, totalLength = out.length): void {
  const v = new DataView(out.buffer, out.byteOffset, out.byteLength);
  for (let i = 0; i < 8; i++) out[i] = MAGIC.charCodeAt(i);
  v.setUint32(8, FORMAT_VERSION, true);
  v.setUint32(12, h.kind, true);
  v.setUint32(20, totalLength, true);
  v.setUint32(24, h.dim, true);
  v.setUint32(28, h.rows, true);
  v.setUint32(32, h.M, true);
  v.setUint32(36, h.efConstruction, true);
  v.setUint32(40, h.efSearch, true);
  v.setUint32(44, h.levelSeed >>> 0, true);
  v.setInt32(48, h.entry, true);
  v.setUint32(52, h.maxLevel, true);
  v.setUint32(56, h.upperLength, true);
  v.setUint32(60, h.filterExactMaxAllowed, true);
  v.setFloat64(64, h.filterExactMaxFraction, true);
}

/** Seals the bytes: the CRC covers everything after the CRC field. */
export function sealChecksum(out: Uint8Array): void {
  new DataView(out.buffer, out.byteOffset, out.byteLength).setUint32(16, crc32(out, 20), true);
}

function corrupt(reason: string): never {
  throw createError('INDEX_CORRUPT', { reason });
}

/** @throws AppError INDEX_CORRUPT for a missing/foreign file, another version, a bad length or checksum. */
export function readHeader(bytes: Uint8Array): Header {
  if (!(bytes instanceof Uint8Array) || bytes.length < HEADER_BYTES) {
    corrupt('The vector index file is missing or too short.');
  }
  for (let i = 0; i < 8; i++) {
    if (bytes[i] !== MAGIC.charCodeAt(i)) corrupt('The file is not a Sift vector index.');
  }
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = v.getUint32(8, true);
  if (version !== FORMAT_VERSION) {
    corrupt(
      `The vector index has format version ${version}; this Sift reads version ${FORMAT_VERSION}.`,
    );
  }
  if (v.getUint32(20, true) !== bytes.length)
    corrupt('The vector index file is truncated or padded.');
  if (v.getUint32(16, true) !== crc32(bytes, 20))
    corrupt('The vector index checksum does not match.');
  return {
    kind: v.getUint32(12, true),
    dim: v.getUint32(24, true),
    rows: v.getUint32(28, true),
    M: v.getUint32(32, true),
    efConstruction: v.getUint32(36, true),
    efSearch: v.getUint32(40, true),
    levelSeed: v.getUint32(44, true),
    entry: v.getInt32(48, true),
    maxLevel: v.getUint32(52, true),
    upperLength: v.getUint32(56, true),
    filterExactMaxAllowed: v.getUint32(60, true),
    filterExactMaxFraction: v.getFloat64(64, true),
  };
}

export { corrupt };
