// HTML files: decoded here, cleaned on the UI thread. Workers have no DOM, so the cleaning
// (DOMParser + DOMPurify + Readability, app/import/clean-html.ts) is injected as `cleanHtml`,
// a Comlink proxy in the app. Owns: charset sniffing and the title fallback.
import { createError, isAppError } from '../shared/errors';
import type { CleanHtml } from '../shared/ingest-api';
import { titleFromName, type ParseMeta, type ParsedText } from './parse-types';

/**
 * Decodes HTML bytes the way a browser would for a local file: BOM, then a `<meta charset>` /
 * `http-equiv` declaration in the first 1024 bytes, then UTF-8 (lenient: U+FFFD for bad bytes,
 * because HTML found on disk is often mislabelled and its words are still worth indexing).
 */
export function decodeHtml(bytes: Uint8Array): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
    return new TextDecoder('utf-8').decode(bytes);
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 1024));
  const match = /<meta[^>]+charset\s*=\s*["']?\s*([a-z0-9_.:-]+)/i.exec(head);
  if (match?.[1]) {
    try {
      return new TextDecoder(match[1].toLowerCase()).decode(bytes);
    } catch {
      // unknown label: fall through to UTF-8
    }
  }
  return new TextDecoder('utf-8').decode(bytes);
}

/**
 * Parses an .html/.htm file through the injected cleaner.
 * @throws AppError PARSE_FAILED when the cleaner fails (it runs in another thread and may reject).
 */
export async function parseHtml(
  bytes: Uint8Array,
  meta: ParseMeta,
  cleanHtml: CleanHtml,
  url?: string,
): Promise<ParsedText> {
  const html = decodeHtml(bytes);
  let cleaned: { title: string; text: string };
  try {
    cleaned = await cleanHtml(html, url);
  } catch (cause) {
    if (isAppError(cause)) throw cause;
    throw createError('PARSE_FAILED', {
      reason: `"${meta.path}" could not be cleaned as HTML (${cause instanceof Error ? cause.message : 'unknown error'}).`,
      path: meta.path,
      cause,
    });
  }
  return { title: cleaned.title.trim() || titleFromName(meta.name), text: cleaned.text };
}
