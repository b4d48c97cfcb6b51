// Readers of reference files: BibTeX (.bib), RIS (.ris) and CSL-JSON (.json), into Biblio
// records with the file names and DOI that link them to imported documents. Our own small
// readers rather than citation-js (dozens of plugin packages, network lookups we must not make)
// or @retorquere/bibtex-parser (a full LaTeX-to-Unicode grammar, far bigger than the subset a
// reference manager exports). Bad entries are skipped and counted, never fatal.
import { createError } from '../shared/errors';
import {
  normaliseArxiv,
  normaliseDoi,
  parseAuthorName,
  parseYear,
  type Biblio,
  type BiblioAuthor,
} from '../shared/biblio';

/** One reference read from a file: its data and what links it to a document. */
export interface BibEntry extends Biblio {
  /** The citation key (BibTeX key, RIS ID, CSL id). */
  key?: string;
  /** File names or paths the entry points to (BibTeX `file`, RIS L1/L4, CSL none). */
  files: string[];
}

export interface BibParseResult {
  entries: BibEntry[];
  /** Entries that could not be read (no closing brace, not an object, …). */
  skipped: number;
}

export type BibFormat = 'bibtex' | 'ris' | 'csl-json';

/** The format of a reference file from its name, or its first characters. */
export function detectBibFormat(name: string, text: string): BibFormat | null {
  const lower = name.toLowerCase();
  if (lower.endsWith('.bib') || lower.endsWith('.bibtex')) return 'bibtex';
  if (lower.endsWith('.ris')) return 'ris';
  if (lower.endsWith('.json') || lower.endsWith('.csljson')) return 'csl-json';
  const head = text.trimStart().slice(0, 200);
  if (head.startsWith('@')) return 'bibtex';
  if (/^TY {2}- /m.test(head)) return 'ris';
  if (head.startsWith('[') || head.startsWith('{')) return 'csl-json';
  return null;
}

/** @throws AppError PARSE_FAILED when the file is none of the three formats */
export function parseReferences(
  name: string,
  text: string,
): BibParseResult & { format: BibFormat } {
  const format = detectBibFormat(name, text);
  if (!format) {
    throw createError('PARSE_FAILED', {
      reason: `"${name}" is not a BibTeX (.bib), RIS (.ris) or CSL-JSON (.json) reference file.`,
      path: name,
    });
  }
  const result =
    format === 'bibtex'
      ? parseBibtex(text)
      : format === 'ris'
        ? parseRis(text)
        : parseCslJson(text, name);
  return { ...result, format };
}

// ---------- BibTeX ----------

const LATEX_ACCENTS: Record<string, Record<string, string>> = {
  H: { o: 'ő', u: 'ű', O: 'Ő', U: 'Ű' },
  "'": {
    a: 'á',
    e: 'é',
    i: 'í',
    o: 'ó',
    u: 'ú',
    y: 'ý',
    c: 'ć',
    n: 'ń',
    s: 'ś',
    z: 'ź',
    A: 'Á',
    E: 'É',
    I: 'Í',
    O: 'Ó',
    U: 'Ú',
  },
  '`': { a: 'à', e: 'è', i: 'ì', o: 'ò', u: 'ù', A: 'À', E: 'È' },
  '"': { a: 'ä', e: 'ë', i: 'ï', o: 'ö', u: 'ü', y: 'ÿ', A: 'Ä', O: 'Ö', U: 'Ü' },
  '^': { a: 'â', e: 'ê', i: 'î', o: 'ô', u: 'û', A: 'Â', E: 'Ê' },
  '~': { a: 'ã', n: 'ñ', o: 'õ', A: 'Ã', N: 'Ñ', O: 'Õ' },
  c: { c: 'ç', C: 'Ç', s: 'ş' },
  v: { c: 'č', s: 'š', z: 'ž', r: 'ř', e: 'ě', C: 'Č', S: 'Š', Z: 'Ž' },
};
const LATEX_SYMBOLS: Record<string, string> = {
  ss: 'ß',
  o: 'ø',
  O: 'Ø',
  ae: 'æ',
  AE: 'Æ',
  aa: 'å',
  AA: 'Å',
  l: 'ł',
  L: 'Ł',
  i: 'ı',
  '&': '&',
  '%': '%',
  $: '$',
  _: '_',
  '#': '#',
};

/** The plain text of a BibTeX value: accents decoded, braces and simple commands dropped. */
export function latexToText(value: string): string {
  return value
    .replace(
      /\\([`'"^~cvH])\s*\{?\\?([A-Za-z])\}?/g,
      (m, acc: string, ch: string) => LATEX_ACCENTS[acc]?.[ch] ?? ch,
    )
    .replace(/\\(ss|ae|AE|aa|AA|[oOlLi])(?![A-Za-z])\s?/g, (m, s: string) => LATEX_SYMBOLS[s] ?? s)
    .replace(/\\([&%$_#])/g, '$1')
    .replace(/\\textbackslash\{\}/g, '\uE004')
    .replace(/\\textasciitilde\{\}/g, '\uE003')
    .replace(/\\textasciicircum\{\}/g, '^')
    .replace(/\\\{/g, '\uE001')
    .replace(/\\\}/g, '\uE002')
    .replace(/\\(?:textit|textbf|emph|textrm|textsc|mathrm|url)\s*/g, '')
    .replace(/\\[A-Za-z]+\s*/g, '') // any other command: its argument's text stays
    .replace(/--/g, '–')
    .replace(/[{}]/g, '')
    .replace(/~/g, ' ')
    .replace(/\uE001/g, '{')
    .replace(/\uE002/g, '}')
    .replace(/\uE003/g, '~')
    .replace(/\uE004/g, '\\')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Reads a balanced {…} or "…" value starting at `i`; returns the raw inside and the end index. */
function readDelimited(s: string, i: number): [string, number] | null {
  const open = s[i];
  if (open === '{') {
    let depth = 0;
    for (let j = i; j < s.length; j++) {
      if (s[j] === '\\') {
        j++;
        continue;
      }
      if (s[j] === '{') depth++;
      else if (s[j] === '}' && --depth === 0) return [s.slice(i + 1, j), j + 1];
    }
    return null;
  }
  if (open === '"') {
    let depth = 0;
    for (let j = i + 1; j < s.length; j++) {
      if (s[j] === '\\') {
        j++;
        continue;
      }
      if (s[j] === '{') depth++;
      else if (s[j] === '}') depth--;
      else if (s[j] === '"' && depth === 0) return [s.slice(i + 1, j), j + 1];
    }
    return null;
  }
  return null;
}

/** Fields of one entry body ("key, field = value, …"), `#` concatenation and @string macros. */
function readFields(body: string, macros: Map<string, string>): Map<string, string> | null {
  const fields = new Map<string, string>();
  let i = 0;
  const ws = () => {
    while (i < body.length && /[\s,]/.test(body[i]!)) i++;
  };
  while (i < body.length) {
    ws();
    const name = /^[A-Za-z][\w:.-]*/.exec(body.slice(i))?.[0];
    if (!name) break;
    i += name.length;
    while (/\s/.test(body[i] ?? '')) i++;
    if (body[i] !== '=') return null;
    i++;
    let value = '';
    for (;;) {
      while (/\s/.test(body[i] ?? '')) i++;
      if (body[i] === '{' || body[i] === '"') {
        const r = readDelimited(body, i);
        if (!r) return null;
        value += r[0];
        i = r[1];
      } else {
        const word = /^[\w:.-]+/.exec(body.slice(i))?.[0];
        if (!word) return null;
        value += macros.get(word.toLowerCase()) ?? word;
        i += word.length;
      }
      while (/\s/.test(body[i] ?? '')) i++;
      if (body[i] !== '#') break;
      i++;
    }
    fields.set(name.toLowerCase(), value);
  }
  return fields;
}

const BIBTEX_TYPES: Record<string, string> = {
  article: 'article-journal',
  inproceedings: 'paper-conference',
  conference: 'paper-conference',
  book: 'book',
  incollection: 'chapter',
  inbook: 'chapter',
  phdthesis: 'thesis',
  mastersthesis: 'thesis',
  techreport: 'report',
  misc: 'document',
  online: 'webpage',
  unpublished: 'manuscript',
};

/** BibTeX `author` ("Smith, John and Doe, J. and others") as authors. */
export function bibtexAuthors(value: string): BiblioAuthor[] {
  return value
    .split(/\s+and\s+/i)
    .map((n) => n.trim())
    .filter((n) => n && n.toLowerCase() !== 'others')
    .map((n) =>
      n.startsWith('{') && n.endsWith('}')
        ? { family: latexToText(n) }
        : parseAuthorName(latexToText(n)),
    )
    .filter((a): a is BiblioAuthor => a !== null);
}

/** JabRef/Zotero/Mendeley `file` fields: "desc:path/to/a.pdf:PDF;…" or a bare path. */
function bibtexFiles(value: string | undefined): string[] {
  if (!value) return [];
  return value
    .split(';')
    .map((part) => {
      const bits = part.split(':');
      // "desc:path:type"; a Windows path "C\:\\x.pdf" has an escaped colon.
      return (bits.length >= 3 ? bits.slice(1, -1).join(':') : part)
        .replace(/\\:/g, ':')
        .replace(/\\\\/g, '\\')
        .trim();
    })
    .filter(Boolean);
}

export function parseBibtex(text: string): BibParseResult {
  const entries: BibEntry[] = [];
  const macros = new Map<string, string>();
  let skipped = 0;
  const at = /@\s*([A-Za-z]+)\s*([{(])/g;
  let m: RegExpExecArray | null;
  while ((m = at.exec(text))) {
    const kind = m[1]!.toLowerCase();
    const openAt = m.index + m[0].length - 1;
    const wrapped = m[2] === '(' ? `{${text.slice(openAt + 1)}` : text.slice(openAt);
    const r = readDelimited(wrapped, 0);
    if (!r) {
      skipped++;
      continue;
    }
    at.lastIndex = openAt + r[1];
    if (kind === 'comment' || kind === 'preamble') continue;
    if (kind === 'string') {
      const f = readFields(r[0], macros);
      for (const [k, v] of f ?? []) macros.set(k, v);
      continue;
    }
    const comma = r[0].indexOf(',');
    const key = (comma >= 0 ? r[0].slice(0, comma) : r[0]).trim();
    const fields = readFields(comma >= 0 ? r[0].slice(comma + 1) : '', macros);
    if (!fields) {
      skipped++;
      continue;
    }
    const get = (k: string) => {
      const v = fields.get(k);
      return v === undefined ? undefined : latexToText(v) || undefined;
    };
    const title = get('title');
    const year = parseYear(get('year') ?? get('date'));
    const doi = normaliseDoi(get('doi'));
    const arxiv =
      (get('archiveprefix') ?? get('eprinttype'))?.toLowerCase() === 'arxiv'
        ? normaliseArxiv(get('eprint'))
        : normaliseArxiv(get('arxiv') ?? get('arxivid'));
    const container = get('journal') ?? get('journaltitle') ?? get('booktitle') ?? get('publisher');
    const url = fields.get('url')?.trim();
    const authors = bibtexAuthors(fields.get('author') ?? fields.get('editor') ?? '');
    entries.push(
      entry({
        key: key || undefined,
        source: 'bibtex',
        authors,
        files: bibtexFiles(fields.get('file')),
        type: BIBTEX_TYPES[kind] ?? 'document',
        title,
        year,
        doi,
        arxiv,
        container,
        url: url || undefined,
      }),
    );
  }
  return { entries, skipped };
}

// ---------- RIS ----------

const RIS_TYPES: Record<string, string> = {
  JOUR: 'article-journal',
  JFULL: 'article-journal',
  CONF: 'paper-conference',
  CPAPER: 'paper-conference',
  BOOK: 'book',
  CHAP: 'chapter',
  THES: 'thesis',
  RPRT: 'report',
  ELEC: 'webpage',
  GEN: 'document',
};

export function parseRis(text: string): BibParseResult {
  const entries: BibEntry[] = [];
  let skipped = 0;
  let tags: Array<[string, string]> | null = null;
  const finish = () => {
    if (!tags) return;
    const all = (t: string) => tags!.filter(([k]) => k === t).map(([, v]) => v);
    const one = (...t: string[]) => t.map((k) => all(k)[0]).find((v) => v);
    const title = one('TI', 'T1', 'CT', 'BT');
    const authors = [...all('AU'), ...all('A1')]
      .map(parseAuthorName)
      .filter((a): a is BiblioAuthor => a !== null);
    const year = parseYear(one('PY', 'Y1', 'DA'));
    const doi = normaliseDoi(one('DO', 'M3'));
    const urls = [...all('UR')];
    const arxiv = urls.map(normaliseArxiv).find(Boolean);
    const container = one('T2', 'JO', 'JF', 'J2', 'PB');
    const files = [...all('L1'), ...all('L4')].map((f) => f.replace(/^file:\/\/\/?/i, ''));
    const type = RIS_TYPES[one('TY') ?? ''] ?? 'document';
    const key = one('ID');
    entries.push(
      entry({
        key,
        source: 'ris',
        authors,
        files,
        type,
        title,
        year,
        doi,
        arxiv,
        container,
        url: urls[0],
      }),
    );
    tags = null;
  };
  for (const raw of text.split(/\r?\n/)) {
    const m = /^([A-Z][A-Z0-9]) {2}-(?: (.*))?$/.exec(raw);
    if (!m) {
      if (tags && raw.trim() && tags.length) tags[tags.length - 1]![1] += ` ${raw.trim()}`;
      continue;
    }
    const [, tag, value = ''] = m;
    if (tag === 'TY') {
      if (tags) skipped++; // an entry without ER
      tags = [];
    }
    if (!tags) continue;
    if (tag === 'ER') finish();
    else tags.push([tag!, value.trim()]);
  }
  if (tags) skipped++;
  return { entries, skipped };
}

// ---------- CSL-JSON ----------

interface CslItem {
  id?: unknown;
  type?: unknown;
  title?: unknown;
  author?: unknown;
  issued?: { 'date-parts'?: unknown; raw?: unknown; literal?: unknown };
  DOI?: unknown;
  URL?: unknown;
  'container-title'?: unknown;
  publisher?: unknown;
  number?: unknown;
  archive?: unknown;
}

const s = (v: unknown): string | undefined =>
  typeof v === 'string' && v.trim() ? v.trim() : typeof v === 'number' ? String(v) : undefined;

/** @throws AppError PARSE_FAILED when the text is not JSON */
export function parseCslJson(text: string, name = 'references.json'): BibParseResult {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw createError('PARSE_FAILED', {
      reason: `"${name}" is not valid JSON (CSL-JSON expected).`,
      path: name,
    });
  }
  const items = Array.isArray(json) ? json : json && typeof json === 'object' ? [json] : [];
  const entries: BibEntry[] = [];
  let skipped = 0;
  for (const raw of items) {
    if (!raw || typeof raw !== 'object') {
      skipped++;
      continue;
    }
    const it = raw as CslItem;
    const authors = (Array.isArray(it.author) ? it.author : [])
      .map((a: unknown): BiblioAuthor | null => {
        if (!a || typeof a !== 'object') return null;
        const o = a as { family?: unknown; given?: unknown; literal?: unknown };
        const family = s(o.family) ?? s(o.literal);
        const given = s(o.given);
        return family ? { family, ...(given ? { given } : {}) } : null;
      })
      .filter((a): a is BiblioAuthor => a !== null);
    const parts = it.issued?.['date-parts'];
    const first =
      Array.isArray(parts) && Array.isArray(parts[0]) ? (parts[0] as unknown[])[0] : undefined;
    const year = parseYear(s(first) ?? s(it.issued?.raw) ?? s(it.issued?.literal));
    const url = s(it.URL);
    const title = s(it.title);
    if (!title && authors.length === 0) {
      skipped++;
      continue;
    }
    entries.push(
      entry({
        key: s(it.id),
        source: 'csl-json',
        authors,
        files: [],
        type: s(it.type),
        title,
        year,
        doi: normaliseDoi(s(it.DOI)),
        arxiv:
          normaliseArxiv(url) ??
          (s(it.archive)?.toLowerCase() === 'arxiv' ? normaliseArxiv(s(it.number)) : undefined),
        container: s(it['container-title']) ?? s(it.publisher),
        url,
      }),
    );
  }
  return { entries, skipped };
}

/** An entry without its absent fields (exactOptionalPropertyTypes: absent, never undefined). */
function entry(o: { [K in keyof BibEntry]-?: BibEntry[K] | undefined }): BibEntry {
  return Object.fromEntries(
    Object.entries(o).filter(([, v]) => v !== undefined),
  ) as unknown as BibEntry;
}
