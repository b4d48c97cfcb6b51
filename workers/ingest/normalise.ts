// Canonical form of a document's plain text: what Sift stores, chunks, hashes and searches.
// Owns: the normalisation rules (see `normaliseText`). Changing a rule changes every content
// hash: re-imports would then count as changed once (harmless, but do it on purpose).

/**
 * Normalises extracted text so that the same content gives the same hash and the same chunks,
 * whichever editor, OS or parser produced it:
 * - Unicode NFC: "é" typed as one code point or as "e" + combining accent hashes and searches alike.
 * - A leading BOM is dropped; CRLF and lone CR become LF (Windows/old Mac line endings).
 * - NUL and other C0 control characters except tab and newline are dropped (binary noise from
 *   PDF/DOCX extraction that would otherwise end up in the index and in snippets).
 * - Trailing spaces/tabs at line ends are removed (invisible, and editors strip them on save).
 * - Runs of blank lines collapse to one blank line: a paragraph break is kept (the chunker
 *   breaks there), but the number of empty lines a parser emits is noise.
 * - Leading and trailing blank space of the whole text is trimmed.
 * Not done on purpose: case folding, collapsing spaces inside a line, NFKC (it would change
 * what the user sees in snippets, e.g. "ﬁ" ligatures or full-width forms stay as written).
 */
export function normaliseText(text: string): string {
  return (
    text
      .replace(/^\uFEFF/, '')
      .normalize('NFC')
      .replace(/\r\n?/g, '\n')
      // eslint-disable-next-line no-control-regex -- removing control characters is the point
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g, '')
      .replace(/[ \t]+$/gm, '')
      .replace(/\n{3,}/g, '\n\n')
      .trim()
  );
}
