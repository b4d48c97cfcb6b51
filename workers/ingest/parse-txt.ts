// Plain-text files: encoding detection and decoding for .txt and .md. Owns the choice of
// encoding (BOM, then UTF-8, then a byte-level heuristic for UTF-16 without BOM and the
// single-byte Windows-1252 / ISO-8859-1), the notice naming it, and the INVALID_UTF8 refusal,
// which is now kept for binary data only.
import { createError } from '../shared/errors';
import { titleFromName, type ParseMeta, type ParsedText } from './parse-types';

export type TextEncodingName = 'UTF-8' | 'UTF-16LE' | 'UTF-16BE' | 'Windows-1252' | 'ISO-8859-1';

export interface DecodedText {
  text: string;
  encoding: TextEncodingName;
  /** Said to the user when the file was not plain UTF-8 (null for UTF-8). */
  notice: string | null;
}

const LABEL: Record<'UTF-8' | 'UTF-16LE' | 'UTF-16BE', string> = {
  'UTF-8': 'utf-8',
  'UTF-16LE': 'utf-16le',
  'UTF-16BE': 'utf-16be',
};

/** Bytes looked at for the UTF-16 and binary heuristics (the start of the file says enough). */
const SAMPLE_BYTES = 64 * 1024;

function decode(bytes: Uint8Array, encoding: TextEncodingName, fatal = true): string {
  if (encoding === 'Windows-1252' || encoding === 'ISO-8859-1') {
    return decodeSingleByte(bytes, encoding);
  }
  // A leading BOM of the named encoding is dropped by TextDecoder itself.
  return new TextDecoder(LABEL[encoding], { fatal }).decode(bytes);
}

function bomEncoding(bytes: Uint8Array): TextEncodingName | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'UTF-8';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'UTF-16LE';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'UTF-16BE';
  return null;
}

/**
 * UTF-16 without a BOM: text in Latin scripts has a zero in one byte of almost every pair
 * (the high byte), always the same one. Null when the zeros do not show that pattern.
 */
function utf16Guess(sample: Uint8Array): TextEncodingName | null {
  const pairs = Math.floor(sample.length / 2);
  if (pairs < 4) return null;
  let zeroEven = 0;
  let zeroOdd = 0;
  for (let i = 0; i + 1 < sample.length; i += 2) {
    if (sample[i] === 0) zeroEven++;
    if (sample[i + 1] === 0) zeroOdd++;
  }
  if (zeroOdd > pairs * 0.3 && zeroEven < pairs * 0.05) return 'UTF-16LE';
  if (zeroEven > pairs * 0.3 && zeroOdd < pairs * 0.05) return 'UTF-16BE';
  return null;
}

/**
 * Binary: more than 1 % NUL or other control characters (tab, LF, FF, CR and ESC are text).
 * Works on bytes and on decoded text (UTF-16 is checked after decoding).
 */
function looksBinary(sample: Uint8Array | string): boolean {
  let controls = 0;
  const length = sample.length;
  for (let i = 0; i < length; i++) {
    const c = typeof sample === 'string' ? sample.charCodeAt(i) : sample[i]!;
    if (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0c && c !== 0x0d && c !== 0x1b) {
      controls++;
    }
  }
  return controls > 0 && controls >= length * 0.01;
}

/**
 * Decodes a text file: a BOM decides; else strict UTF-8; else UTF-16 when its zero-byte
 * pattern shows; else binary data is refused; else a single-byte encoding (Windows-1252 when
 * bytes 0x80-0x9F occur, which are printable there, e.g. curly quotes; ISO-8859-1 otherwise),
 * unless most non-ASCII bytes form valid UTF-8 (then UTF-8 with the damaged bytes replaced).
 * @throws AppError INVALID_UTF8 when the bytes look binary (or are invalid in their BOM's encoding).
 */
export function decodeText(bytes: Uint8Array, meta: ParseMeta): DecodedText {
  const sample = bytes.subarray(0, SAMPLE_BYTES);
  const bom = bomEncoding(bytes);
  // A UTF-8 BOM says what a valid-UTF-8 guess would: damaged bytes become U+FFFD as without it.
  if (bom === 'UTF-8') return lenientUtf8(bytes.subarray(3), meta);
  if (bom) return strict(bytes, bom, meta);
  const utf16 = utf16Guess(sample);
  if (utf16) return strict(bytes, utf16, meta);
  if (looksBinary(sample)) throw notText(meta, 'it looks like binary data, not text');
  if (isUtf8(bytes)) return withNotice(decode(bytes, 'UTF-8'), 'UTF-8', meta);
  const census = utf8Census(bytes);
  if (census.multiByte > census.invalid) {
    return {
      text: decode(bytes, 'UTF-8', false),
      encoding: 'UTF-8',
      notice: `"${meta.path}" is UTF-8 with ${census.invalid} damaged byte(s), shown as \uFFFD; the rest was read as written.`,
    };
  }
  const single: TextEncodingName = bytes.some((b) => b >= 0x80 && b <= 0x9f)
    ? 'Windows-1252'
    : 'ISO-8859-1';
  return withNotice(decodeSingleByte(bytes, single), single, meta);
}

/** UTF-8 known from its BOM: decoded with damaged bytes as U+FFFD and a notice counting them. */
function lenientUtf8(bytes: Uint8Array, meta: ParseMeta): DecodedText {
  if (isUtf8(bytes)) return strict(bytes, 'UTF-8', meta);
  const text = decode(bytes, 'UTF-8', false);
  if (looksBinary(text.slice(0, SAMPLE_BYTES))) {
    throw notText(meta, 'it looks like binary data, not text');
  }
  const { invalid } = utf8Census(bytes);
  return {
    text,
    encoding: 'UTF-8',
    notice: `"${meta.path}" is UTF-8 with ${invalid} damaged byte(s), shown as \uFFFD; the rest was read as written.`,
  };
}

/** Decodes in an encoding chosen from a BOM or the UTF-16 pattern; invalid data is not text. */
function strict(bytes: Uint8Array, encoding: TextEncodingName, meta: ParseMeta): DecodedText {
  let text: string;
  try {
    text = decode(bytes, encoding);
  } catch (cause) {
    throw notText(meta, `it is not valid ${encoding}`, cause);
  }
  if (looksBinary(text.slice(0, SAMPLE_BYTES))) {
    throw notText(meta, 'it looks like binary data, not text');
  }
  return withNotice(text, encoding, meta);
}

/** What Windows-1252 puts at 0x80-0x9F (the rest of it, like ISO-8859-1, is U+0000-U+00FF). */
const CP1252_HIGH =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

/**
 * Single-byte decoding done here, not by TextDecoder: Node's 'windows-1252' decoder is
 * ISO-8859-1 (0x93 stays U+0093), browsers' is the real table; this is the same everywhere.
 */
export function decodeSingleByte(bytes: Uint8Array, encoding: TextEncodingName): string {
  const parts: string[] = [];
  const step = 8192;
  for (let i = 0; i < bytes.length; i += step) {
    const codes = Array.from(bytes.subarray(i, i + step), (b) =>
      encoding === 'Windows-1252' && b >= 0x80 && b <= 0x9f ? CP1252_HIGH.charCodeAt(b - 0x80) : b,
    );
    parts.push(String.fromCharCode(...codes));
  }
  return parts.join('');
}

function isUtf8(bytes: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

function withNotice(text: string, encoding: TextEncodingName, meta: ParseMeta): DecodedText {
  return {
    text,
    encoding,
    notice:
      encoding === 'UTF-8'
        ? null
        : `"${meta.path}" is not UTF-8: it was read as ${encoding}. If accented letters look wrong, re-save it as UTF-8 and import it again.`,
  };
}

function notText(meta: ParseMeta, why: string, cause?: unknown) {
  return createError('INVALID_UTF8', {
    reason: `"${meta.path}" was not imported: ${why}.`,
    path: meta.path,
    ...(cause === undefined ? {} : { cause }),
  });
}

/**
 * Counts well-formed multi-byte UTF-8 sequences and invalid bytes. A file with more of the
 * former is UTF-8 with a few damaged bytes, not a single-byte encoding.
 */
export function utf8Census(bytes: Uint8Array): { multiByte: number; invalid: number } {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let multiByte = 0;
  let invalid = 0;
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    const len =
      b < 0x80
        ? 1
        : b >= 0xc2 && b <= 0xdf
          ? 2
          : b >= 0xe0 && b <= 0xef
            ? 3
            : b >= 0xf0 && b <= 0xf4
              ? 4
              : 0;
    if (len === 1) {
      i++;
      continue;
    }
    let ok = len > 0 && i + len <= bytes.length;
    if (ok) {
      try {
        decoder.decode(bytes.subarray(i, i + len));
      } catch {
        ok = false;
      }
    }
    if (ok) {
      multiByte++;
      i += len;
    } else {
      invalid++;
      i++;
    }
  }
  return { multiByte, invalid };
}

/**
 * Parses a .txt file: the title is the file name, the text is the decoded content as written,
 * with a notice naming the encoding when it was not UTF-8.
 * @throws AppError INVALID_UTF8 when the bytes look binary.
 */
export function parseTxt(bytes: Uint8Array, meta: ParseMeta): ParsedText {
  const { text, notice } = decodeText(bytes, meta);
  return { title: titleFromName(meta.name), text, ...(notice ? { notice } : {}) };
}
