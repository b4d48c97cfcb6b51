// A cited strip's document context for the sentence checker: its document's title and the text
// just around it (CONTEXT_CHARS either side, cut back to whole words). The strip stays what is
// cited; the context only helps the checker decide (a sentence that leans on its abstract, "All
// six macaques in group 3 were protected.", shares no word with its strip). The window is bounded
// on purpose: words found only further away in the document earn no credit. Pure; no imports
// beyond the Span type.
import type { Span } from './text';

/** Characters of document text taken on each side of a cited strip. */
export const CONTEXT_CHARS = 250;

export interface StripContext {
  /** The strip's document title ('' when unknown). */
  title: string;
  /** Text before the strip and after it, within CONTEXT_CHARS, whole words only. */
  before: string;
  after: string;
}

/** The context of `text[span.start, span.end)` (a strip with exact offsets) in its document. */
export function stripContext(
  title: string,
  text: string,
  span: Pick<Span, 'start' | 'end'>,
  chars = CONTEXT_CHARS,
): StripContext {
  if (span.start < 0 || span.end > text.length || span.end < span.start)
    return { title, before: '', after: '' };
  const from = Math.max(0, span.start - chars);
  const to = Math.min(text.length, span.end + chars);
  let before = text.slice(from, span.start);
  let after = text.slice(span.end, to);
  // a word cut by the window's edge is dropped (it could match a term it does not hold)
  if (from > 0 && /\S/.test(text[from - 1] ?? '')) before = before.replace(/^\S*/, '');
  if (to < text.length && /\S/.test(text[to] ?? '')) after = after.replace(/\S*$/, '');
  return { title, before: before.trim(), after: after.trim() };
}

/** The context as one text: title, then the window with the strip in place. */
export function contextText(strip: string, c: StripContext): string {
  return [c.title, c.before, strip, c.after].filter(Boolean).join(' ');
}
