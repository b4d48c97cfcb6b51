// Where a PDF's pages start in its stored text, and the page of a passage: one place for the
// lookup and for how a page is written ("p. 14", "pp. 14-15") wherever a passage is cited.

/** `[page number, offset of its first character]` per page that has text, in order. */
export type PageStarts = ReadonlyArray<readonly [number, number]>;

/**
 * The index of the last entry of `starts` (sorted by `at`) that begins at or before `offset`, or
 * -1 when none does: the binary search behind a passage's page and its section.
 */
export function lastStartAtOrBefore<T>(
  starts: ReadonlyArray<T>,
  offset: number,
  at: (entry: T) => number,
): number {
  if (!starts.length || at(starts[0]!) > offset) return -1;
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (at(starts[mid]!) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The page holding character `offset` (null: the document has no pages). */
export function pageAt(pageStarts: PageStarts | null | undefined, offset: number): number | null {
  if (!pageStarts?.length) return null;
  // Text before the first page's start (none in practice) reads as the first page.
  return pageStarts[
    Math.max(
      0,
      lastStartAtOrBefore(pageStarts, offset, (p) => p[1]),
    )
  ]![0];
}

/** The first and last page of characters `start`..`end` (exclusive), or null without pages. */
export function pagesOf(
  pageStarts: PageStarts | null | undefined,
  start: number,
  end: number,
): { first: number; last: number } | null {
  const first = pageAt(pageStarts, start);
  if (first === null) return null;
  return { first, last: pageAt(pageStarts, Math.max(start, end - 1)) ?? first };
}

/** "p. 14" or "pp. 14-15" (an empty string without a page). */
export function formatPages(pages: { first: number; last: number } | null | undefined): string {
  if (!pages) return '';
  return pages.last > pages.first ? `pp. ${pages.first}-${pages.last}` : `p. ${pages.first}`;
}

/** Reads stored page starts (JSON) defensively: anything malformed reads as no pages. */
export function parsePageStarts(json: string | null | undefined): PageStarts | null {
  if (!json) return null;
  try {
    const v: unknown = JSON.parse(json);
    if (!Array.isArray(v)) return null;
    const ok = v.every(
      (p) => Array.isArray(p) && p.length === 2 && Number.isInteger(p[0]) && Number.isInteger(p[1]),
    );
    return ok && v.length ? (v as Array<[number, number]>) : null;
  } catch {
    return null;
  }
}
