// The escaping module under hostile strings: every helper, in every context an export uses it
// (a paragraph, a heading, a list item, a table cell, a quote), renders to no element or
// attribute outside the allow-list. Seeds that once broke out are kept as named tests.
import { describe, expect, it } from 'vitest';
import { hostileString, liveMarkup } from './markdown-safety.testkit';
import { mdCell, mdCode, mdLink, mdLinkTarget, mdText, mdUrl, safeJson } from './safe-markdown';

/** The ways exports place a value: each must stay inert for any value. */
function contexts(v: string): string[] {
  return [
    `# ${mdText(v)}`,
    `Some text ${mdText(v)} more.`,
    `- ${mdText(v)} — ${mdCode(v)}`,
    `1. ${mdCell(v, 40)} — ${mdCode(v)} (${mdLink(v, v)})`,
    `> ${mdText(v)}`,
    `${mdText(v)}\n${mdText(v)}`,
    `| A | B | C |\n|---|---|---|\n| ${mdCell(v)} | ${mdCode(v, { inTable: true })} | ${mdLink(v, `https://ok.example/${v}`)} |`,
    `[1] ${mdText(v)} — ${mdUrl(v) ?? mdCode(v)}`,
    safeJson({ v, list: [v] }, 2),
  ];
}

function problemsFor(v: string): string[] {
  return contexts(v).flatMap((md) => liveMarkup(md).map((p) => `${p} in ${JSON.stringify(md)}`));
}

/** Seeds that broke out of an earlier version of the module, kept as regressions. */
const REGRESSION_SEEDS: Array<[string, number]> = [
  ['backslash-pipe in a table code span split the cell and freed an <img>', 1],
  ['an https:// autolink swallowed the backslash before <iframe>', 4],
  ['an autolink in a link label freed a <?php ?> instruction', 9],
  ['~~ in a relative link target rendered <del>', 10],
  ['a relative target standing alone as <x> read as a tag', 427],
];

describe('safe-markdown', () => {
  it('finds live markup where it is (the checker can fail)', () => {
    expect(liveMarkup('x <img src=x onerror=alert(1)>')).toContain('element <img>');
    expect(liveMarkup('[a](javascript:alert(1))')).not.toEqual([]);
    expect(liveMarkup('`a\n\n<img src=x onerror=y>\n\n`')).toContain('element <img>');
  });

  it.each([
    ['an image with onerror', 'x <img src=x onerror=alert(1)>'],
    ['a file name with newlines', 'a\n\n<img src=x onerror=alert(1)>\n\n.txt'],
    ['backticks closing a code span', 'a`` <img src=x onerror=1> ``b'],
    ['a javascript: link', '[click](javascript:alert(1))'],
    ['a link definition', '[1]: javascript:alert(1)'],
    ['an entity-encoded tag', '&lt;script&gt;alert(1)&lt;/script&gt;'],
    ['a scheme split by a tab', 'java\tscript:alert(1)'],
    ['a remote image', '![x](https://evil.example/t.png)'],
  ])('keeps %s inert in every context', (_name, v) => {
    expect(problemsFor(v)).toEqual([]);
  });

  it('writes code spans that hold the text whatever backticks it has', () => {
    for (const v of ['a`b', '`a', 'a`', '``', 'x ``` y', ' a ']) {
      const html = liveMarkup(mdCode(v));
      expect(html).toEqual([]);
      expect(mdCode(v)).toMatch(/^`+/);
    }
    expect(mdCode('a\n\nb')).toBe('`a b`');
  });

  it('allows http(s) and relative link targets only', () => {
    expect(mdLinkTarget('https://x.org/a b')).toBe('<https://x.org/a%20b>');
    expect(mdLinkTarget('notes/a (1).md')).toBe('<notes/a%20%281%29.md>');
    for (const bad of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      'java\nscript:alert(1)',
      ' data:text/html,x',
      'vbscript:x',
      'file:///etc/passwd',
      '//evil.example/x',
    ]) {
      expect(mdLinkTarget(bad), bad).toBeNull();
    }
  });

  it('writes JSON that parses back to the same data and holds no tag', () => {
    const value = { t: '<img src=x onerror=alert(1)> & \u2028', n: [1, '</script>'] };
    const json = safeJson(value, 2);
    expect(JSON.parse(json)).toEqual(value);
    expect(json).not.toMatch(/[<>&\u2028]/);
  });

  it.each(REGRESSION_SEEDS)('regression seed %s stays inert', (_name, seed) => {
    expect(problemsFor(hostileString(seed))).toEqual([]);
  });

  it('keeps 1,000 seeded hostile strings inert in every context', () => {
    const failing: number[] = [];
    for (let seed = 1; seed <= 1000; seed++) {
      if (problemsFor(hostileString(seed)).length > 0) failing.push(seed);
    }
    // A failing seed: add it to REGRESSION_SEEDS with a name, then fix the module.
    expect(failing.slice(0, 10)).toEqual([]);
  });
});
