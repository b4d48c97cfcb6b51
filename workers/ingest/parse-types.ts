// Shapes shared by the per-format parsers.
import type { Biblio } from '../shared/biblio';
import type { SectionStarts } from '../shared/sections';

/** What a parser knows about the file besides its bytes. */
export interface ParseMeta {
  path: string; // relative path (or URL) as imported
  name: string; // file name with extension
}

/** A parser's result: plain text (never HTML) and a title for the library view. */
export interface ParsedText {
  title: string;
  text: string;
  /** Something the user should know about how the file was read (e.g. its encoding). */
  notice?: string;
  /** Bibliographic data found in the file (a PDF's metadata and first page). */
  biblio?: Biblio;
  /** Where each page starts in `text` (PDFs): `[page number, offset]`. */
  pageStarts?: Array<[number, number]>;
  /** Where each section of the outline starts in `text` (PDFs with bookmarks). */
  sections?: SectionStarts;
}

/** The file name without its last extension, as the fallback title. */
export function titleFromName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? name;
  const dot = base.lastIndexOf('.');
  const stem = dot > 0 ? base.slice(0, dot) : base;
  return stem.trim() || base;
}
