// DOCX files: raw text through mammoth (paragraphs become blank-line separated text).
// Owns: PARSE_FAILED for corrupt or non-DOCX zips.
import mammoth from 'mammoth';
import { createError } from '../shared/errors';
import { guardZip } from './inflate-guard';
import { titleFromName, type ParseMeta, type ParsedText } from './parse-types';

/**
 * Parses a .docx file: the title is the file name, the text is mammoth's raw text.
 * @throws AppError PARSE_FAILED when the file is not a readable DOCX (corrupt zip, no document.xml,
 * or an encrypted/password-protected document, which Word stores as a non-zip container).
 * @throws AppError FILE_TOO_LARGE when a part or the whole would inflate past the limits
 * (./inflate-guard.ts), checked before mammoth inflates anything.
 */
export async function parseDocx(bytes: Uint8Array, meta: ParseMeta): Promise<ParsedText> {
  await guardZip(bytes, meta);
  const arrayBuffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  try {
    // mammoth's browser build reads `arrayBuffer`, its Node build `buffer`: pass both.
    const input = { arrayBuffer, buffer: bytes } as unknown as { arrayBuffer: ArrayBuffer };
    const result = await mammoth.extractRawText(input);
    return { title: titleFromName(meta.name), text: result.value };
  } catch (cause) {
    const encrypted = bytes[0] === 0xd0 && bytes[1] === 0xcf; // OLE compound file: encrypted Office doc
    throw createError('PARSE_FAILED', {
      reason: encrypted
        ? `"${meta.path}" is a password-protected Word file: save an unprotected copy and import that.`
        : `"${meta.path}" is not a readable .docx file (${cause instanceof Error ? cause.message : 'unknown error'}).`,
      path: meta.path,
      cause,
    });
  }
}
