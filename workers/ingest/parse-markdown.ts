// Markdown files: decoded like .txt (encoding detection), then markdown -> readable plain text via marked's lexer.
// Owns: which markup is kept as text (words, code, alt text, table cells) and which is dropped
// (emphasis markers, link URLs, heading hashes, raw HTML tags).
//
// Why a library: marked's lexer is a maintained CommonMark/GFM tokenizer (code fences,
// reference links, nested emphasis, tables, escapes); regexes get those wrong in ways that leak
// URLs and markers into the index. We only lex (no HTML rendering), then walk the tokens.
import { Lexer, type Token, type Tokens } from 'marked';
import { decodeText } from './parse-txt';
import { titleFromName, type ParseMeta, type ParsedText } from './parse-types';

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
};

/** Decodes the character references markdown text may contain (numeric and the common named ones). */
function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]+);/gi, (whole, body: string) => {
    if (body[0] === '#') {
      const code =
        body[1] === 'x' || body[1] === 'X'
          ? parseInt(body.slice(2), 16)
          : parseInt(body.slice(1), 10);
      return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff)
        ? String.fromCodePoint(code)
        : whole;
    }
    return NAMED_ENTITIES[body.toLowerCase()] ?? whole;
  });
}

/** Raw HTML inside markdown is shown as text, never rendered: keep its words, drop tags and script/style bodies. */
function htmlToText(html: string): string {
  return decodeEntities(
    html
      .replace(/<(script|style)\b[\s\S]*?(<\/\1\s*>|$)/gi, ' ')
      .replace(/<!--[\s\S]*?(-->|$)/g, ' ')
      .replace(/<[^>]*>/g, ' '),
  );
}

function inline(tokens: Token[] | undefined): string {
  if (!tokens) return '';
  let out = '';
  for (const t of tokens) {
    switch (t.type) {
      case 'text':
        out += (t as Tokens.Text).tokens
          ? inline((t as Tokens.Text).tokens)
          : decodeEntities((t as Tokens.Text).text);
        break;
      case 'escape':
      case 'codespan':
        out += (t as Tokens.Codespan).text;
        break;
      case 'br':
        out += '\n';
        break;
      case 'html': {
        // Inline raw HTML arrives one tag per token: a tag that breaks a line becomes a space,
        // formatting tags (<b>, <span>) vanish so "a<b>b</b>" stays one word.
        const tag = (t as Tokens.HTML).text;
        out += /^<\/?(br|p|div|li|tr|td|th|h[1-6]|hr)\b/i.test(tag)
          ? ' '
          : tag.startsWith('<')
            ? ''
            : htmlToText(tag);
        break;
      }
      case 'image':
        out += (t as Tokens.Image).text; // alt text is the image's words
        break;
      case 'link':
      case 'strong':
      case 'em':
      case 'del':
        out += inline((t as Tokens.Link).tokens);
        break;
      case 'checkbox':
        break;
      default:
        out +=
          'tokens' in t && t.tokens
            ? inline(t.tokens)
            : 'text' in t && typeof t.text === 'string'
              ? t.text
              : '';
    }
  }
  return out;
}

/** Block tokens -> paragraphs separated by blank lines (the chunker's preferred break). */
function blocks(tokens: Token[], out: string[], listPrefix = ''): void {
  for (const t of tokens) {
    switch (t.type) {
      case 'space':
      case 'hr':
      case 'def':
        break;
      case 'heading':
      case 'paragraph':
        out.push(listPrefix + inline((t as Tokens.Paragraph).tokens).trim());
        break;
      case 'text': {
        const text = t as Tokens.Text;
        out.push(
          listPrefix + (text.tokens ? inline(text.tokens) : decodeEntities(text.text)).trim(),
        );
        break;
      }
      case 'code':
        out.push((t as Tokens.Code).text);
        break;
      case 'blockquote':
        blocks((t as Tokens.Blockquote).tokens, out);
        break;
      case 'list': {
        // A tight list stays one paragraph (one item per line); a loose one keeps its blank lines.
        const list = t as Tokens.List;
        const lines: string[] = [];
        for (const item of list.items) {
          const parts: string[] = [];
          blocks(item.tokens, parts);
          lines.push(`- ${parts.filter(Boolean).join('\n')}`);
        }
        out.push(lines.join(list.loose ? '\n\n' : '\n'));
        break;
      }
      case 'table': {
        const table = t as Tokens.Table;
        const row = (cells: Tokens.TableCell[]) =>
          cells.map((c) => inline(c.tokens).trim()).join(' | ');
        out.push([row(table.header), ...table.rows.map(row)].join('\n'));
        break;
      }
      case 'html':
        out.push(htmlToText((t as Tokens.HTML).text).trim());
        break;
      default:
        if ('tokens' in t && t.tokens) blocks(t.tokens, out);
        else if ('text' in t && typeof t.text === 'string') out.push(t.text);
    }
  }
}

/**
 * Splits off YAML front matter (`---` ... `---` at the very top, as Jekyll/Hugo/Obsidian write
 * it). Without this, marked reads it as a rule plus a setext heading and "title: x" would
 * become the document's title. Only a `title:` field is used; the rest is metadata, not prose.
 */
function splitFrontMatter(source: string): { title: string | null; body: string } {
  const match = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/.exec(source);
  if (!match) return { title: null, body: source };
  const title = /^title:[ \t]*(.+)$/m
    .exec(match[1] ?? '')?.[1]
    ?.trim()
    .replace(/^(["'])(.*)\1$/, '$2');
  return { title: title || null, body: source.slice(match[0].length) };
}

/** Markdown source -> plain text and its title (front matter `title:`, else the first heading). Never throws on odd markdown. */
export function markdownToText(source: string): { heading: string | null; text: string } {
  const { title: frontTitle, body } = splitFrontMatter(source);
  const tokens = Lexer.lex(body, { gfm: true });
  const heading = tokens.find((t): t is Tokens.Heading => t.type === 'heading');
  const out: string[] = [];
  blocks(tokens, out);
  return {
    heading:
      frontTitle ?? (heading ? inline(heading.tokens).replace(/\s+/g, ' ').trim() || null : null),
    text: out.filter((p) => p.trim().length > 0).join('\n\n'),
  };
}

/**
 * Parses a .md file: title from the first heading, else the file name.
 * The encoding is detected as for .txt (./parse-txt.ts), with the same notice.
 * @throws AppError INVALID_UTF8 when the bytes look binary.
 */
export function parseMarkdown(bytes: Uint8Array, meta: ParseMeta): ParsedText {
  const decoded = decodeText(bytes, meta);
  const { heading, text } = markdownToText(decoded.text);
  return {
    title: heading ?? titleFromName(meta.name),
    text,
    ...(decoded.notice ? { notice: decoded.notice } : {}),
  };
}
