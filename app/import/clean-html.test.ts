import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { JSDOM } from 'jsdom';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHtmlCleaner, textOf, type CleanerWindow } from './clean-html';

const FIXTURES = join(__dirname, '../../e2e/fixtures');

// A live jsdom window WITH scripting enabled: if the cleaner ever let markup reach this live
// document, its scripts and handlers would really run and set __pwned / document.title.
let dom: JSDOM;
let win: CleanerWindow & { __pwned?: boolean };

beforeEach(() => {
  dom = new JSDOM(
    '<!doctype html><html><head><title>Sift</title></head><body><div id="app"></div></body></html>',
    {
      runScripts: 'dangerously',
      pretendToBeVisual: true,
    },
  );
  win = dom.window as unknown as CleanerWindow & { __pwned?: boolean };
});

afterEach(() => dom.window.close());

/** Lets any queued task (an onload/onerror handler, a timer) run before we check for effects. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('createHtmlCleaner', () => {
  it('uses a test window that really runs scripts put into its live document (control)', () => {
    const script = win.document.createElement('script');
    script.textContent = 'window.__pwned = true';
    win.document.body.appendChild(script);
    expect(win.__pwned).toBe(true);
  });

  it('extracts the article of a real page with paragraph breaks and without the navigation', async () => {
    const clean = createHtmlCleaner(win);
    const { title, text } = await clean(readFileSync(join(FIXTURES, 'page.html'), 'utf8'));
    expect(title).toBe('The Narwhal and the Basalt Coast');
    expect(text).toContain(
      'Every spring the narwhal pods return to the fjord below the basalt cliffs.',
    );
    expect(text).toMatch(/brass telescopes\.\n\nResearchers have tracked/);
    expect(text).toContain('Visiting the coast');
    expect(text).not.toMatch(/Home \| About|Contact|font-family|<\w/);
  });

  it('never runs or returns the payload of hostile HTML', async () => {
    const clean = createHtmlCleaner(win);
    const liveBefore = win.document.documentElement.outerHTML;
    const { title, text } = await clean(readFileSync(join(FIXTURES, 'hostile.html'), 'utf8'));
    await settle();
    expect(win.__pwned).toBeUndefined();
    expect(win.document.title).toBe('Sift');
    expect(win.document.documentElement.outerHTML).toBe(liveBefore); // nothing inserted live
    expect(title).toBe('Gooseberry Jam Recipe');
    expect(text).toContain('This harmless gooseberry jam recipe needs ripe gooseberries');
    expect(text).toContain('make the jam in early summer');
    expect(text).not.toMatch(/pwned|javascript:|onerror|onload|<script|alert/i);
  });

  it('keeps script text out even where Readability finds no article (fallback path)', async () => {
    const clean = createHtmlCleaner(win);
    const html =
      '<body><span>tiny</span><script>window.__pwned=true</script>' +
      '<img src=x onerror="window.__pwned=true"><a href="javascript:window.__pwned=true">link words</a></body>';
    const { text } = await clean(html);
    await settle();
    expect(win.__pwned).toBeUndefined();
    expect(text).toContain('tiny');
    expect(text).toContain('link words');
    expect(text).not.toMatch(/pwned|javascript/);
  });

  it('survives pathological nesting by falling back to the sanitised body', async () => {
    const clean = createHtmlCleaner(win);
    const depth = 1000; // > maxDepth (400); jsdom parses deep trees in quadratic time, browsers cap depth at 512
    const html = `${'<div>'.repeat(depth)}deep marker words${'</div>'.repeat(depth)}<script>window.__pwned=true</script>`;
    const { text } = await clean(html);
    expect(text).toBe('deep marker words');
    expect(win.__pwned).toBeUndefined();
  });

  it('returns empty text for markup without words, and a title from the URL as last resort', async () => {
    const clean = createHtmlCleaner(win);
    expect(await clean('<body><img src=x><br></body>', 'https://example.org/a')).toEqual({
      title: 'https://example.org/a',
      text: '',
    });
  });
});

// Known XSS / mXSS vectors; every one tries to set __pwned or leave the word "pwned" behind.
const VECTORS = [
  '<script>window.__pwned=true</script>',
  '<img src=x onerror="window.__pwned=true">',
  '<svg onload="window.__pwned=true"></svg>',
  '<svg><script>window.__pwned=true</script></svg>',
  '<a href="javascript:window.__pwned=true">pwned link</a>',
  '<a href="  JaVaScRiPt:window.__pwned=true">mixed case link</a>',
  '<iframe srcdoc="<script>parent.__pwned=true</script>"></iframe>',
  '<iframe src="data:text/html,<script>parent.__pwned=true</script>"></iframe>',
  '<math><mtext><table><mglyph><style><img src=x onerror="window.__pwned=true"></style></mglyph></table></mtext></math>',
  '<noscript><p title="</noscript><img src=x onerror=window.__pwned=true>"></noscript>',
  '<template><script>window.__pwned=true</script></template>',
  '<style>@import "javascript:window.__pwned=true";</style>',
  '<object data="javascript:window.__pwned=true"></object>',
  '<details open ontoggle="window.__pwned=true">pwned toggle</details>',
  '<body onload="window.__pwned=true">',
  '<form><button formaction="javascript:window.__pwned=true">pwned button</button></form>',
  '<div style="background:url(javascript:window.__pwned=true)">styled</div>',
  '<input autofocus onfocus="window.__pwned=true">',
  '<xmp><script>window.__pwned=true</script></xmp>',
  '<textarea><script>window.__pwned=true</script></textarea>',
  '<!--<script>window.__pwned=true</script>-->',
];
const BENIGN = [
  '<p>Safe words here.</p>',
  '<h2>Heading</h2>',
  '<ul><li>item</li></ul>',
  'loose text',
  '<div>',
  '</div>',
];

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('createHtmlCleaner fuzz', () => {
  // Regression found by the fuzz: form-field and raw-text elements hold "<script>" as literal text.
  it('drops the literal text of <textarea>, <xmp> and friends (also on the fallback path)', async () => {
    // maxElements: 1 skips Readability (which drops <textarea> itself) to test the body-text walk.
    const clean = createHtmlCleaner(win, { maxElements: 1 });
    const { text } = await clean(
      '<p>kept words</p><textarea><script>window.__pwned=true</script></textarea>' +
        '<xmp><script>window.__pwned=true</script></xmp><noembed>window.__pwned</noembed>',
    );
    expect(text).toBe('kept words');
  });

  it('never executes or returns a payload for random mixes of XSS vectors (seeded)', async () => {
    const clean = createHtmlCleaner(win);
    const seeds = [Number(process.env.HTML_FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31))];
    for (const seed of seeds) {
      const rand = mulberry32(seed);
      for (let round = 0; round < 40; round++) {
        const parts: string[] = [];
        for (let k = 0; k < 12; k++) {
          const pool = rand() < 0.5 ? VECTORS : BENIGN;
          parts.push(pool[Math.floor(rand() * pool.length)]!);
        }
        const html = parts.join('\n');
        const { text } = await clean(html);
        // The link/button labels contain "pwned" as visible words; the payloads must be gone.
        const leaked = /pwned|javascript:|onerror|onload/i.test(
          text.replace(/pwned (link|toggle|button)/g, ''),
        );
        if (leaked || win.__pwned !== undefined) {
          throw new Error(
            `HTML fuzz seed ${seed}, round ${round}: payload leaked or ran. Replay with HTML_FUZZ_SEED=${seed}\n${html}\n---\n${text}`,
          );
        }
      }
    }
    await settle();
    expect(win.__pwned).toBeUndefined();
    expect(win.document.title).toBe('Sift');
  });
});

describe('textOf', () => {
  it('lays out blocks, list items, table rows and <pre> text', () => {
    const doc = new win.DOMParser().parseFromString(
      '<h2>Head</h2><p>one   two\nthree</p><ul><li>a</li><li>b</li></ul>' +
        '<table><tr><th>k</th><td>v</td></tr></table><pre>x  =  1\ny = 2</pre>line<br>break',
      'text/html',
    );
    expect(textOf(doc.body)).toBe(
      'Head\n\none two three\n\n- a\n- b\n\nk | v\n\nx  =  1\ny = 2\n\nline\nbreak',
    );
  });
});
