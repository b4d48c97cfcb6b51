// A PDF's outline (its bookmarks) as section paths with the page each starts on, and where each
// section starts in the document's stored text: the heading's own words on its page when they are
// there, else the page's start. Bounded against hostile outlines (entries, depth, title length),
// and never fatal: a broken outline only means no sections.
import type { PageStarts } from '../shared/pages';
import type { SectionStarts } from '../shared/sections';

/** The part of a pdf.js document this reads. */
export interface OutlineDocLike {
  getOutline(): Promise<ReadonlyArray<OutlineItemLike> | null>;
  getDestination(id: string): Promise<ReadonlyArray<unknown> | null>;
  getPageIndex(ref: unknown): Promise<number>;
}

export interface OutlineItemLike {
  title?: unknown;
  dest?: unknown;
  items?: ReadonlyArray<OutlineItemLike> | null;
}

/** One outline entry: its path of titles from the top, and its 1-based page. */
export interface OutlineEntry {
  path: string[];
  page: number;
}

export const MAX_OUTLINE_ENTRIES = 5000;
export const MAX_OUTLINE_DEPTH = 8;
export const MAX_TITLE_CHARS = 200;

/** The outline's entries in reading order (those whose page resolves); [] when it has none. */
export async function readOutline(doc: OutlineDocLike): Promise<OutlineEntry[]> {
  let items: ReadonlyArray<OutlineItemLike> | null;
  try {
    items = await doc.getOutline();
  } catch {
    return [];
  }
  const out: OutlineEntry[] = [];
  let visited = 0;
  async function walk(list: ReadonlyArray<OutlineItemLike>, parents: string[]): Promise<void> {
    if (parents.length >= MAX_OUTLINE_DEPTH) return;
    for (const item of list) {
      if (++visited > MAX_OUTLINE_ENTRIES) return;
      const title = cleanTitle(item.title);
      if (!title) continue;
      const path = [...parents, title];
      const page = await pageOf(doc, item.dest);
      if (page !== null) out.push({ path, page });
      if (Array.isArray(item.items) && item.items.length) await walk(item.items, path);
    }
  }
  if (Array.isArray(items)) await walk(items, []);
  return out;
}

function cleanTitle(title: unknown): string {
  if (typeof title !== 'string') return '';
  return title
    .replace(/\p{Cc}+/gu, ' ') // outline titles may carry control characters
    .replace(/\s+/gu, ' ')
    .trim()
    .slice(0, MAX_TITLE_CHARS);
}

/** The 1-based page a destination points at, or null when it does not resolve. */
async function pageOf(doc: OutlineDocLike, dest: unknown): Promise<number | null> {
  try {
    const explicit = typeof dest === 'string' ? await doc.getDestination(dest) : dest;
    if (!Array.isArray(explicit) || explicit.length === 0) return null;
    const target: unknown = explicit[0];
    const index =
      typeof target === 'number' ? target : target ? await doc.getPageIndex(target) : -1;
    return Number.isInteger(index) && index >= 0 ? index + 1 : null;
  } catch {
    return null;
  }
}

/**
 * Where each outline entry starts in `text`: the first case-insensitive match of its title (white
 * space read loosely) on its page, else the page's first character. Entries on pages without
 * text are dropped. Sorted by offset; entries at the same offset keep outline order, the last
 * (deepest) wins when a passage is looked up.
 */
export function sectionStarts(
  entries: readonly OutlineEntry[],
  text: string,
  pageStarts: PageStarts,
): SectionStarts {
  const pageRange = new Map<number, [number, number]>();
  pageStarts.forEach(([page, start], i) =>
    pageRange.set(page, [start, pageStarts[i + 1]?.[1] ?? text.length]),
  );
  const out: Array<[number, string[]]> = [];
  for (const e of entries) {
    const range = pageRange.get(e.page);
    if (!range) continue;
    out.push([findTitle(text, e.path[e.path.length - 1]!, range) ?? range[0], e.path]);
  }
  return out
    .map((s, i) => ({ s, i }))
    .sort((a, b) => a.s[0] - b.s[0] || a.i - b.i)
    .map(({ s }) => s);
}

function findTitle(text: string, title: string, [from, to]: [number, number]): number | null {
  const words = title.split(' ').filter(Boolean).map(escapeRegExp);
  if (!words.length) return null;
  const m = new RegExp(words.join('\\s+'), 'iu').exec(text.slice(from, to));
  return m ? from + m.index : null;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');
}
