// Plain-text files: strict UTF-8 decoding. Owns the INVALID_UTF8 decision for .txt and .md.
// Must not import anything but workers/shared/ and sibling parser modules.
import { createError } from '../shared/errors';
import { titleFromName, type ParseMeta, type ParsedText } from './parse-types';

/**
 * Decodes UTF-8 strictly (a leading BOM is dropped by TextDecoder itself).
 * Strict, because replacing bad bytes with U+FFFD would silently index a mis-encoded file
 * (Latin-1, UTF-16) as garbage; the user is better told to re-save it as UTF-8.
 * @throws AppError INVALID_UTF8 naming the file and the byte offset of the first bad sequence.
 */
export function decodeUtf8Strict(bytes: Uint8Array, meta: ParseMeta): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch (cause) {
    const offset = firstInvalidUtf8Offset(bytes);
    const utf16 =
      bytes.length >= 2 &&
      ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff));
    throw createError('INVALID_UTF8', {
      reason: utf16
        ? `"${meta.path}" is UTF-16 text.`
        : `"${meta.path}" has bytes that are not UTF-8 (first at byte ${offset}).`,
      path: meta.path,
      offset,
      cause,
    });
  }
}

/** Byte offset of the first invalid UTF-8 sequence (for the error message). */
export function firstInvalidUtf8Offset(bytes: Uint8Array): number {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  // Binary search on prefix validity would be wrong (a prefix may cut a valid sequence); scan instead.
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
    if (len === 0 || i + len > bytes.length) return i;
    if (len > 1) {
      try {
        decoder.decode(bytes.subarray(i, i + len));
      } catch {
        return i;
      }
    }
    i += len;
  }
  return -1;
}

/**
 * Parses a .txt file: the title is the file name, the text is the decoded content as written.
 * @throws AppError INVALID_UTF8 when the bytes are not UTF-8.
 */
export function parseTxt(bytes: Uint8Array, meta: ParseMeta): ParsedText {
  return { title: titleFromName(meta.name), text: decodeUtf8Strict(bytes, meta) };
}
