// Test support: renders Markdown the way a viewer that allows HTML would (marked, GFM) and lists
// every element or attribute outside the allow-list an export may produce; plus seeded hostile
// strings for fuzzing the escaping module (workers/shared/safe-markdown.ts).
import { parseHTML } from 'linkedom';
import { marked } from 'marked';
import { mulberry32 } from './rng.testkit';

/** The only elements an export may render to. */
export const ALLOWED_ELEMENTS = new Set([
  'p',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'ul',
  'ol',
  'li',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'code',
  'pre',
  'em',
  'strong',
  'a',
  'blockquote',
  'hr',
  'br',
]);
/** Attributes allowed per element (marked writes `align` on table cells, `start` on lists). */
const ALLOWED_ATTRIBUTES: Record<string, Set<string>> = {
  a: new Set(['href']),
  th: new Set(['align']),
  td: new Set(['align']),
  ol: new Set(['start']),
};

/** Problems found in the HTML `markdown` renders to; empty when it carries no live markup. */
export function liveMarkup(markdown: string): string[] {
  const html = marked.parse(markdown, { async: false, gfm: true });
  const { document } = parseHTML(`<!doctype html><html><body>${html}</body></html>`);
  const problems: string[] = [];
  for (const el of Array.from(document.body.querySelectorAll('*'))) {
    const tag = el.tagName.toLowerCase();
    if (!ALLOWED_ELEMENTS.has(tag)) problems.push(`element <${tag}>`);
    for (const attr of Array.from(el.attributes)) {
      const name = attr.name.toLowerCase();
      if (!ALLOWED_ATTRIBUTES[tag]?.has(name)) problems.push(`<${tag} ${name}>`);
    }
    if (tag === 'a') {
      // eslint-disable-next-line no-control-regex
      const href = (el.getAttribute('href') ?? '').replace(/[\s\u0000-\u001f]/g, '');
      if (/^[a-z][a-z0-9+.-]*:/i.test(href) && !/^https?:/i.test(href)) {
        problems.push(`<a href="${href.slice(0, 40)}">`);
      }
      if (href.startsWith('//')) problems.push(`<a href="${href.slice(0, 40)}">`);
    }
  }
  // HTML comments and processing instructions are markup a viewer may act on too.
  if (/<!--|<\?|<!\[CDATA\[/i.test(html)) problems.push('comment or CDATA');
  return problems;
}

/** Pieces attackers use: tags, event handlers, schemes, Markdown syntax, controls, bidi. */
export const HOSTILE_PIECES = [
  '<img src=x onerror=alert(1)>',
  '<script>alert(1)</script>',
  '<svg/onload=alert(1)>',
  '<a href="javascript:alert(1)">x</a>',
  '<iframe src=//evil.example>',
  '<style>*{}</style>',
  '<!-- c -->',
  '<![CDATA[x]]>',
  '<?php ?>',
  '</p><p onclick=x>',
  '[x](javascript:alert(1))',
  '[x](data:text/html,<b>)',
  '![i](https://evil.example/p.png)',
  '[ref]: javascript:alert(1)',
  '[1]: //evil.example',
  '<javascript:alert(1)>',
  '<https://evil.example>',
  'java\tscript:alert(1)',
  '&lt;img src=x onerror=alert(1)&gt;',
  '&#60;script&#62;',
  '`',
  '``',
  '```',
  '~~~',
  '\n\n',
  '\n',
  '\r\n',
  '    indented',
  '|',
  '\\',
  '\\|',
  '*',
  '_',
  '#',
  '> ',
  '- ',
  '1. ',
  '[ ] ',
  '---',
  '===',
  '~~del~~',
  '\u0000',
  '\u001b[31m',
  '\u202e',
  '\u2028',
  '😀',
  'é',
  ' ',
  'x',
  'https://ok.example/a?b=1&c=2',
  'notes/a.txt',
  '<',
  '>',
  '"',
  "'",
  '(',
  ')',
  ':',
];

/** A seeded hostile string of 1-12 pieces. */
export function hostileString(seed: number): string {
  const rnd = mulberry32(seed);
  const n = 1 + Math.floor(rnd() * 12);
  return Array.from(
    { length: n },
    () => HOSTILE_PIECES[Math.floor(rnd() * HOSTILE_PIECES.length)]!,
  ).join('');
}
