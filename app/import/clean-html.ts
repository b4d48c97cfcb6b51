// Turns untrusted HTML into plain text on the UI thread (Web Workers have no DOM).
// Owns: the cleaning pipeline: inert DOMParser document -> DOMPurify (in place) -> Readability
// -> block-aware text walk, with the sanitised body as fallback. Never inserts anything into the
// live document and never returns HTML.
import createDOMPurify from 'dompurify';
import { Readability } from '@mozilla/readability';
import type { CleanHtml, CleanedHtml } from '../../workers/shared/ingest-api';

/** What the cleaner needs from a window: a real browser `window`, or a jsdom window in tests. */
export type CleanerWindow = Window & typeof globalThis;

export interface HtmlCleanerOptions {
  /**
   * Readability gives up above this many elements (it walks the tree several times and some of
   * its passes recurse); we then fall back to the sanitised body text.
   */
  maxElements?: number;
  /** Documents nested deeper than this skip Readability (recursion depth), same fallback. */
  maxDepth?: number;
}

const SKIP = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'svg',
  'math',
  'head',
  'title',
  'canvas',
  'audio',
  'video',
  'select',
  'datalist',
  // Form field values and legacy raw-text elements hold text that is not page prose (and is where
  // payloads hide as literal "<script>" text).
  'textarea',
  'xmp',
  'plaintext',
  'noembed',
  'noframes',
]);

const BLOCK = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'caption',
  'details',
  'dialog',
  'dd',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hgroup',
  'hr',
  'main',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'summary',
  'table',
  'tbody',
  'thead',
  'tfoot',
  'ul',
  'body',
  'html',
]);

/**
 * Plain text of a subtree: blocks separated by a blank line, list items and table rows on their
 * own lines, cells separated by " | ", whitespace collapsed outside <pre>. Iterative, so a
 * pathologically deep tree cannot overflow the stack.
 */
export function textOf(root: Node): string {
  const out: string[] = [];
  type Frame = { node: Node; exit: boolean };
  const stack: Frame[] = [{ node: root, exit: false }];
  let preDepth = 0;
  while (stack.length > 0) {
    const { node, exit } = stack.pop()!;
    if (node.nodeType === 3 /* TEXT_NODE */) {
      const data = node.nodeValue ?? '';
      out.push(preDepth > 0 ? data : data.replace(/\s+/g, ' '));
      continue;
    }
    if (node.nodeType !== 1 /* ELEMENT_NODE */ && node.nodeType !== 9 && node.nodeType !== 11)
      continue;
    const tag = node.nodeType === 1 ? (node as Element).localName.toLowerCase() : '';
    if (exit) {
      if (tag === 'pre') preDepth--;
      if (BLOCK.has(tag)) out.push('\n\n');
      else if (tag === 'td' || tag === 'th') out.push(' | ');
      continue;
    }
    if (SKIP.has(tag)) continue;
    if (tag === 'br') {
      out.push('\n');
      continue;
    }
    if (BLOCK.has(tag)) out.push('\n\n');
    else if (tag === 'li') out.push('\n- ');
    else if (tag === 'tr') out.push('\n');
    if (tag === 'pre') preDepth++;
    stack.push({ node, exit: true });
    const children = node.childNodes;
    for (let i = children.length - 1; i >= 0; i--) stack.push({ node: children[i]!, exit: false });
  }
  return out
    .join('')
    .split('\n')
    .map((line) => line.replace(/(\s*\|\s*)+$/, '').trim()) // trailing cell separator of a row
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Depth of the deepest element, computed without recursion; stops counting past `limit`. */
function depthExceeds(root: Node, limit: number): boolean {
  const stack: Array<[Node, number]> = [[root, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (depth > limit) return true;
    for (let child = node.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === 1) stack.push([child, depth + 1]);
    }
  }
  return false;
}

function oneLine(text: string | null | undefined, max = 300): string {
  return (text ?? '').replace(/\s+/g, ' ').trim().slice(0, max);
}

/**
 * Creates the HTML cleaner for a window. The app calls `createHtmlCleaner(window)` once and
 * hands `Comlink.proxy(cleaner)` to the ingest worker (`IngestApi.setHtmlCleaner`).
 */
export function createHtmlCleaner(win: CleanerWindow, options: HtmlCleanerOptions = {}): CleanHtml {
  const purify = createDOMPurify(win);
  const maxElements = options.maxElements ?? 50_000;
  const maxDepth = options.maxDepth ?? 400;

  /**
   * @throws Error only if the window lacks DOMParser (never in a browser).
   */
  return async function cleanHtml(html: string, url?: string): Promise<CleanedHtml> {
    // DOMParser documents are inert: no script runs, no resource loads, no event fires. It is
    // never adopted into the live document.
    const doc = new win.DOMParser().parseFromString(html, 'text/html');
    const rawTitle = oneLine(doc.title);

    // Sanitise in place (scripts, handlers, javascript: URLs, iframes, SVG/MathML go). The head
    // is emptied: its only text worth keeping (the title) is read above.
    doc.head?.replaceChildren();
    purify.sanitize(doc.body, {
      IN_PLACE: true,
      USE_PROFILES: { html: true },
      FORBID_TAGS: [
        'style',
        'iframe',
        'frame',
        'object',
        'embed',
        'noscript',
        'template',
        'link',
        'meta',
        'base',
      ],
      FORBID_ATTR: ['style', 'srcset'],
    });

    let articleText = '';
    let articleTitle = '';
    const elementCount = doc.getElementsByTagName('*').length;
    if (elementCount <= maxElements && !depthExceeds(doc.body, maxDepth)) {
      try {
        const article = new Readability<Node>(doc.cloneNode(true) as Document, {
          maxElemsToParse: maxElements,
          disableJSONLD: true,
          serializer: (node) => node, // keep the element: we take its text ourselves
        }).parse();
        if (article?.content) articleText = textOf(article.content);
        articleTitle = oneLine(article?.title);
      } catch {
        // Readability refused or failed on odd markup: the sanitised body below still has the words.
      }
    }
    const text = articleText || textOf(doc.body);
    let title = rawTitle || articleTitle;
    if (!title) {
      const h1 = doc.body.querySelector('h1');
      title = oneLine(h1?.textContent) || (url ? oneLine(url) : '');
    }
    return { title, text };
  };
}
