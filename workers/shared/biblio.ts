// Bibliographic data of a document (title, authors, year, DOI, arXiv id) as it crosses workers,
// where it came from, and the one way Sift cites it: author-year with the page where known.
// Also the DOI / arXiv id forms every reader and writer agrees on.

/** Where a record came from; a later source replaces an earlier one only if it ranks higher. */
export type BiblioSource = 'pdf' | 'bibtex' | 'ris' | 'csl-json' | 'zotero' | 'user';

/** Higher wins: a user's edit is never overwritten by an import, an import beats PDF guesses. */
export const BIBLIO_SOURCE_RANK: Record<BiblioSource, number> = {
  pdf: 0,
  bibtex: 1,
  ris: 1,
  'csl-json': 1,
  zotero: 1,
  user: 2,
};

export interface BiblioAuthor {
  family: string;
  given?: string;
}

/** One work's bibliographic data. Every field but `authors` is optional. */
export interface Biblio {
  title?: string;
  authors: BiblioAuthor[];
  year?: number;
  /** Bare DOI, lower-cased: "10.1000/xyz" (no https://doi.org/). */
  doi?: string;
  /** Bare arXiv id: "2101.00001" or "hep-th/9901001" (no version suffix). */
  arxiv?: string;
  /** Journal, proceedings or publisher: where it appeared. */
  container?: string;
  /** CSL type: 'article-journal', 'paper-conference', 'book', 'report', … */
  type?: string;
  url?: string;
  source: BiblioSource;
}

/** A document's record as the library returns it. */
export interface DocumentBiblio extends Biblio {
  documentId: number;
  updatedAt: number;
}

const DOI_PREFIX = /^(?:https?:\/\/(?:dx\.)?doi\.org\/|doi:\s*)/i;
const DOI_BARE = /^10\.\d{4,9}\/\S+$/;

/** The bare lower-case DOI in `text` (a DOI, doi: or https://doi.org/ form), or undefined. */
export function normaliseDoi(text: string | undefined | null): string | undefined {
  if (!text) return undefined;
  const bare = text
    .trim()
    .replace(DOI_PREFIX, '')
    .replace(/[.,;)\]}>]+$/, '');
  return DOI_BARE.test(bare) ? bare.toLowerCase() : undefined;
}

const ARXIV_NEW = /^(\d{4}\.\d{4,5})(?:v\d+)?$/;
const ARXIV_OLD = /^([a-z-]+(?:\.[A-Z]{2})?\/\d{7})(?:v\d+)?$/;

/** The bare arXiv id (version dropped) in "arXiv:2101.00001v2", a URL or a bare id. */
export function normaliseArxiv(text: string | undefined | null): string | undefined {
  if (!text) return undefined;
  const bare = text
    .trim()
    .replace(/^(?:https?:\/\/arxiv\.org\/(?:abs|pdf)\/|arxiv:\s*)/i, '')
    .replace(/\.pdf$/i, '');
  return ARXIV_NEW.exec(bare)?.[1] ?? ARXIV_OLD.exec(bare)?.[1];
}

/** Authors as a citation names them: "Smith", "Smith & Jones", "Smith et al.". */
export function citeAuthors(authors: readonly BiblioAuthor[]): string {
  const names = authors.map((a) => a.family.trim()).filter(Boolean);
  if (names.length === 0) return '';
  if (names.length === 1) return names[0]!;
  if (names.length === 2) return `${names[0]} & ${names[1]}`;
  return `${names[0]} et al.`;
}

/**
 * The author-year citation: "Smith & Jones 2020, p. 14"; without authors the title (shortened)
 * stands in, without a year "n.d."; null when there is nothing to cite by (no authors, no title).
 */
export function citeAuthorYear(
  biblio: Pick<Biblio, 'authors' | 'year' | 'title'> | null | undefined,
  page?: number | null,
): string | null {
  if (!biblio) return null;
  const who = citeAuthors(biblio.authors) || shortTitle(biblio.title);
  if (!who) return null;
  const when = biblio.year ? String(biblio.year) : 'n.d.';
  return `${who} ${when}${page ? `, p. ${page}` : ''}`;
}

function shortTitle(title: string | undefined): string {
  const t = (title ?? '').trim();
  if (!t) return '';
  return t.length > 40 ? `“${t.slice(0, 39).trimEnd()}…”` : `“${t}”`;
}

/** Splits "Family, Given" or "Given Family" into an author. */
export function parseAuthorName(name: string): BiblioAuthor | null {
  const n = name.replace(/\s+/g, ' ').trim();
  if (!n) return null;
  const comma = n.indexOf(',');
  if (comma >= 0) {
    const family = n.slice(0, comma).trim();
    const given = n.slice(comma + 1).trim();
    return family ? { family, ...(given ? { given } : {}) } : null;
  }
  const parts = n.split(' ');
  const family = parts.pop()!;
  return parts.length ? { family, given: parts.join(' ') } : { family };
}

/** A plausible publication year in `text` (1500 to next year), or undefined. */
export function parseYear(text: string | number | undefined | null): number | undefined {
  if (text === undefined || text === null) return undefined;
  const m = /(?:^|\D)(1[5-9]\d\d|20\d\d)(?!\d)/.exec(String(text));
  if (!m) return undefined;
  const y = Number(m[1]);
  return y <= new Date().getUTCFullYear() + 1 ? y : undefined;
}
