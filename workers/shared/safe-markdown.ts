// The one escaping module for every export (answers' Markdown, the project report,
// retrieval_audit.md, index_metadata.json, the answers history JSON): untrusted text (document
// titles, paths, passages, model output) goes in as Markdown text, a code span, a table cell or
// a link target, and can never become markup, whatever viewer renders the file. Imports nothing.

/** C0/C1 controls except tab and line breaks (those are collapsed by the one-line helpers). */
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u0008\u000b\u000e-\u001f\u007f-\u009f]/g;
/** Bidi overrides and isolates: they can make a link or a path read as something else. */
const BIDI = /[\u202a-\u202e\u2066-\u2069]/g;

function scrub(text: string): string {
  return text.replace(CONTROLS, '\uFFFD').replace(BIDI, '');
}

/**
 * Untrusted text as one line of Markdown text: whitespace runs (newlines included) become one
 * space; every character Markdown or HTML could read as syntax is backslash-escaped (`<` and `&`
 * too, so no tag or entity survives), and a line-start marker (`-`, `+`, `=`, `1.`) is escaped.
 * `:`, `@` and `www.` are escaped too: a GFM autolink (`https://...`, `www.`, an e-mail) would
 * swallow the backslash that escapes a following `<` and leave the tag live.
 */
export function mdText(text: string): string {
  return scrub(text)
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[\\`*_[\]{}()<>#!|~&:@]/g, '\\$&')
    .replace(/(www)\./gi, '$1\\.')
    .replace(/^([-+=])/, '\\$1')
    .replace(/^(\d+)([.)])/, '$1\\$2');
}

/** mdText cut to `max` characters first (so an escape is never cut in half), with an ellipsis. */
export function mdCell(text: string, max = 160): string {
  const one = scrub(text).replace(/\s+/g, ' ').trim();
  if (one.length <= max) return mdText(one);
  return mdText(
    `${Array.from(one.slice(0, max))
      .slice(0, max - 1)
      .join('')}…`,
  );
}

/**
 * Untrusted text as an inline code span: one line (a newline would end the span and its
 * paragraph), fenced with more backticks than the longest run inside. In a table cell pass
 * `inTable`: GFM splits cells at `|` even inside code, so pipes are escaped (GFM unescapes them).
 */
export function mdCode(text: string, opts: { inTable?: boolean } = {}): string {
  let one = scrub(text).replace(/\s+/g, ' ');
  // GFM reads `\|` in a cell as a pipe even after another backslash: no backslash may precede.
  if (opts.inTable) one = one.replace(/\\/g, '\u29f5').replace(/\|/g, '\\|');
  if (one.trim() === '') return '` `';
  const longest = Math.max(0, ...(one.match(/`+/g) ?? []).map((r) => r.length));
  const fence = '`'.repeat(longest + 1);
  // CommonMark strips one space from each end when both ends have one: pad to keep them.
  const pad =
    one.startsWith('`') || one.endsWith('`') || (one.startsWith(' ') && one.endsWith(' '))
      ? ' '
      : '';
  return `${fence}${pad}${one}${pad}${fence}`;
}

/**
 * A link target that is safe to write: http(s) URLs and relative paths only (no `javascript:`,
 * `data:`, `vbscript:`, `file:`...; browsers ignore tabs and newlines inside a scheme, so those
 * are removed before it is read). Returned percent-encoded in `<...>` for `[text](<...>)` only
 * (standing alone, `<relative>` would read as a tag: use mdUrl); null when not safe.
 */
export function mdLinkTarget(url: string): string | null {
  const bare = scrub(url)
    .replace(/[\t\n\r\uFFFD]/g, '')
    .trim();
  if (!bare) return null;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(bare);
  if (scheme) {
    if (!/^https?$/i.test(scheme[1]!)) return null;
    try {
      const parsed = new URL(bare);
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
    } catch {
      return null;
    }
  } else if (bare.startsWith('//') || bare.startsWith('\\')) return null; // protocol-relative
  const encoded = encodeURI(safeDecode(bare)).replace(/[<>()[\]'"`\\~*_|]/g, (c) => pct(c));
  return `<${encoded}>`;
}

function safeDecode(s: string): string {
  try {
    return decodeURI(s);
  } catch {
    return s;
  }
}

const pct = (c: string) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`;

/** An absolute http(s) URL as an autolink `<https://...>`; null for anything else. */
export function mdUrl(url: string): string | null {
  const target = mdLinkTarget(url);
  return target && /^<https?:\/\//i.test(target) ? target : null;
}

/** `[text](<target>)` when the target is safe, else the text and the target as a code span. */
export function mdLink(text: string, url: string): string {
  const target = mdLinkTarget(url);
  const label = mdText(text) || mdText(url);
  return target ? `[${label}](${target})` : `${label} (${mdCode(url)})`;
}

/**
 * JSON for an export: inside strings, `<`, `>`, `&`, Markdown's link, image and emphasis
 * characters and U+2028/U+2029 are written as \u escapes (the same data to any JSON reader), so
 * the file holds no tag or link even if a viewer renders it as HTML or Markdown.
 */
export function safeJson(value: unknown, space?: number): string {
  return JSON.stringify(value, null, space).replace(/"(?:[^"\\]|\\.)*"/g, (literal) =>
    literal.replace(
      /[<>&[\]()!*_`~|#\u2028\u2029]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    ),
  );
}
