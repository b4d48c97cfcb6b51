// Bibliographic data guessed from a PDF: its Info dictionary and XMP metadata (pdfjs
// `getMetadata`) and the text of its first page (DOI and arXiv id patterns). Pure: the PDF
// parser hands over what pdfjs read. Guesses carry source 'pdf', so any import or edit wins.
import {
  normaliseArxiv,
  normaliseDoi,
  parseAuthorName,
  parseYear,
  type Biblio,
  type BiblioAuthor,
} from '../shared/biblio';

export interface PdfMetadataInput {
  /** pdfjs `info` (the Info dictionary): Title, Author, CreationDate, Subject, Keywords. */
  info?: unknown;
  /** XMP properties, e.g. from pdfjs `metadata.getAll()`: dc:title, dc:creator, prism:doi. */
  xmp?: Record<string, unknown> | null;
  /** The text of the first page. */
  firstPage?: string;
}

const DOI_IN_TEXT = /\b(?:doi:\s*|https?:\/\/(?:dx\.)?doi\.org\/)?(10\.\d{4,9}\/[^\s"<>]+)/i;
const ARXIV_IN_TEXT =
  /\barXiv:\s*(\d{4}\.\d{4,5}(?:v\d+)?|[a-z-]+(?:\.[A-Z]{2})?\/\d{7}(?:v\d+)?)/i;

/** Titles tools write that say nothing about the work. */
const JUNK_TITLE = /^(?:untitled|microsoft word - .*|.*\.(?:docx?|pdf|tex|dvi)|title)$/i;

function str(v: unknown): string | undefined {
  if (typeof v === 'string') return v.replace(/\s+/g, ' ').trim() || undefined;
  if (Array.isArray(v)) return str(v[0]);
  return undefined;
}

/** "A. Smith and B. Jones", "Smith, A.; Jones, B." or an XMP creator list, as authors. */
export function splitAuthors(v: unknown): BiblioAuthor[] {
  const list = Array.isArray(v)
    ? v.filter((x): x is string => typeof x === 'string')
    : typeof v === 'string'
      ? v.split(/\s*(?:;|\band\b|&)\s*/i)
      : [];
  // "Smith, A., Jones, B." (comma-separated "Family, Given" pairs) cannot be told from
  // "A. Smith, B. Jones" for sure; when there is no "and" / ";" and more than one comma, split
  // on commas and read each as "Given Family".
  const parts =
    list.length === 1 && typeof v === 'string' && (v.match(/,/g) ?? []).length > 1
      ? v.split(/\s*,\s*/)
      : list;
  return parts.map(parseAuthorName).filter((a): a is BiblioAuthor => a !== null);
}

/** The bibliographic guess for one PDF; fields it cannot find are left out. */
export function biblioFromPdf(input: PdfMetadataInput): Biblio {
  const info = (input.info && typeof input.info === 'object' ? input.info : {}) as Record<
    string,
    unknown
  >;
  const xmp = input.xmp ?? {};
  const page = (input.firstPage ?? '').slice(0, 6000);
  const title = [str(xmp['dc:title']), str(info.Title)].find((t) => t && !JUNK_TITLE.test(t));
  const xmpAuthors = splitAuthors(xmp['dc:creator']);
  const authors = xmpAuthors.length ? xmpAuthors : splitAuthors(str(info.Author));
  const doi =
    normaliseDoi(str(xmp['prism:doi'])) ??
    normaliseDoi(str(xmp['dc:identifier'])) ??
    normaliseDoi(str(info.doi)) ??
    normaliseDoi(DOI_IN_TEXT.exec(page)?.[1]) ??
    normaliseDoi(DOI_IN_TEXT.exec(`${str(info.Subject) ?? ''} ${str(info.Keywords) ?? ''}`)?.[1]);
  const arxiv = normaliseArxiv(ARXIV_IN_TEXT.exec(page)?.[1]);
  // A year stated in the metadata (XMP date, Info CreationDate "D:2019…") or, for a preprint,
  // the arXiv id's "YYMM"; the first page's years are too often references to others' work.
  const year =
    parseYear(str(xmp['prism:publicationDate']) ?? str(xmp['dc:date'])) ??
    (arxiv && /^\d{4}\./.test(arxiv) ? 2000 + Number(arxiv.slice(0, 2)) : undefined) ??
    parseYear(str(info.CreationDate)?.replace(/^D:/, '').slice(0, 4));
  return {
    authors,
    source: 'pdf',
    ...(title ? { title } : {}),
    ...(year ? { year } : {}),
    ...(doi ? { doi } : {}),
    ...(arxiv ? { arxiv } : {}),
  };
}

/** True when the guess holds anything worth storing. */
export function hasBiblio(b: Biblio): boolean {
  return b.authors.length > 0 || !!b.doi || !!b.arxiv || !!b.year || !!b.title;
}
