// Where each section of a document starts in its stored text, and the section of a passage: one
// place for the lookup and for how a section path is written ("3 Evaluation › 3.4 Indexing")
// wherever a passage is shown. Section paths come from a PDF's outline (workers/ingest/pdf-outline.ts).
import { lastStartAtOrBefore } from './pages';

/** `[offset of the section's start, its path of titles from the top]`, by offset. */
export type SectionStarts = ReadonlyArray<readonly [number, readonly string[]]>;

/** The section path holding character `offset` (null: no sections, or before the first). */
export function sectionAt(
  sections: SectionStarts | null | undefined,
  offset: number,
): readonly string[] | null {
  const i = sections ? lastStartAtOrBefore(sections, offset, (s) => s[0]) : -1;
  return i < 0 ? null : sections![i]![1];
}

/** Levels of a section path shown: the deepest ones, the most a line holds. */
export const SECTION_LEVELS_SHOWN = 3;

/** "Part › Chapter › Section" (its last SECTION_LEVELS_SHOWN levels; '' without a path). */
export function formatSection(path: readonly string[] | null | undefined): string {
  if (!path?.length) return '';
  const shown = path.slice(-SECTION_LEVELS_SHOWN);
  return (path.length > shown.length ? '… › ' : '') + shown.join(' › ');
}

/** Reads stored section starts (JSON) defensively: anything malformed reads as no sections. */
export function parseSections(json: string | null | undefined): SectionStarts | null {
  if (!json) return null;
  try {
    const v: unknown = JSON.parse(json);
    if (!Array.isArray(v) || !v.length) return null;
    const ok = v.every(
      (s) =>
        Array.isArray(s) &&
        s.length === 2 &&
        Number.isInteger(s[0]) &&
        Array.isArray(s[1]) &&
        (s[1] as unknown[]).every((t) => typeof t === 'string'),
    );
    return ok ? (v as Array<[number, string[]]>) : null;
  } catch {
    return null;
  }
}
