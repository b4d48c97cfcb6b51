// A project's references written as BibTeX and CSL-JSON. Records come from imported files and
// PDFs, so they are untrusted: BibTeX values are brace-balanced and LaTeX-escaped (no field can
// close its entry or run a command), keys are [A-Za-z0-9_-] only, CSL-JSON is JSON.stringify'd.
import type { Biblio } from '../shared/biblio';

export interface ExportReference {
  biblio: Biblio;
  /** The document's title and path, used when the record has none. */
  fallbackTitle: string;
}

const BIBTEX_TYPES: Record<string, string> = {
  'article-journal': 'article',
  'paper-conference': 'inproceedings',
  book: 'book',
  chapter: 'incollection',
  thesis: 'phdthesis',
  report: 'techreport',
};

/** A BibTeX field value: specials escaped, so it cannot break out of its braces. */
export function bibtexEscape(value: string): string {
  return value
    .replace(/\p{Cc}/gu, ' ') // control characters (newlines included) become spaces
    .replace(/\\/g, '\\textbackslash{}')
    .replace(/([{}])/g, '\\$1')
    .replace(/\\textbackslash\\\{\\\}/g, '\\textbackslash{}')
    .replace(/([&%$#_])/g, '\\$1')
    .replace(/~/g, '\\textasciitilde{}')
    .replace(/\^/g, '\\textasciicircum{}')
    .replace(/@/g, '{@}')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Unique citation keys "doll1954", "doll1954a", … from first author and year. */
function citationKeys(refs: readonly ExportReference[]): string[] {
  const used = new Map<string, number>();
  return refs.map((r) => {
    const who = (r.biblio.authors[0]?.family ?? r.biblio.title ?? r.fallbackTitle ?? 'ref')
      .normalize('NFKD')
      .replace(/[^A-Za-z0-9]/g, '')
      .toLowerCase()
      .slice(0, 24);
    const base = `${who || 'ref'}${r.biblio.year ?? ''}`;
    const n = used.get(base) ?? 0;
    used.set(base, n + 1);
    return n === 0 ? base : `${base}${String.fromCharCode(96 + Math.min(n, 26))}${n > 26 ? n : ''}`;
  });
}

export function toBibtex(refs: readonly ExportReference[]): string {
  const keys = citationKeys(refs);
  return refs
    .map((r, i) => {
      const b = r.biblio;
      // Values are escaped here, once; the author list is built from escaped names (a corporate
      // name in braces so BibTeX neither splits it on "and" nor reads it as "Given Family").
      const author = b.authors
        .map((a) =>
          a.given
            ? `${bibtexEscape(a.family)}, ${bibtexEscape(a.given)}`
            : `{${bibtexEscape(a.family)}}`,
        )
        .join(' and ');
      const esc = (v: string | undefined) => (v ? bibtexEscape(v) : undefined);
      const fields: Array<[string, string | undefined]> = [
        ['title', esc(b.title ?? r.fallbackTitle)],
        ['author', author || undefined],
        ['year', b.year ? String(b.year) : undefined],
        [b.type === 'paper-conference' ? 'booktitle' : 'journal', esc(b.container)],
        ['doi', esc(b.doi)],
        ['eprint', esc(b.arxiv)],
        ['archiveprefix', b.arxiv ? 'arXiv' : undefined],
        ['url', esc(b.url)],
      ];
      const body = fields
        .filter((f): f is [string, string] => !!f[1])
        .map(([k, v]) => `  ${k} = {${v}}`)
        .join(',\n');
      return `@${BIBTEX_TYPES[b.type ?? ''] ?? 'misc'}{${keys[i]},\n${body}\n}\n`;
    })
    .join('\n');
}

export function toCslJson(refs: readonly ExportReference[]): string {
  const keys = citationKeys(refs);
  const items = refs.map((r, i) => {
    const b = r.biblio;
    return {
      id: keys[i],
      type: b.type ?? 'document',
      title: b.title ?? r.fallbackTitle,
      ...(b.authors.length
        ? {
            author: b.authors.map((a) => ({
              family: a.family,
              ...(a.given ? { given: a.given } : {}),
            })),
          }
        : {}),
      ...(b.year ? { issued: { 'date-parts': [[b.year]] } } : {}),
      ...(b.container ? { 'container-title': b.container } : {}),
      ...(b.doi ? { DOI: b.doi } : {}),
      ...(b.url ? { URL: b.url } : b.arxiv ? { URL: `https://arxiv.org/abs/${b.arxiv}` } : {}),
    };
  });
  return `${JSON.stringify(items, null, 2)}\n`;
}
