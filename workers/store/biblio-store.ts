// Per-document bibliographic records (migration 11, `document_biblio`): read, write with the
// source rule (a user's edit is never replaced by an import, an import replaces a PDF guess),
// and the look-ups that link a reference file's entries to documents (DOI, file name).
import {
  BIBLIO_SOURCE_RANK,
  normaliseDoi,
  type Biblio,
  type BiblioAuthor,
  type DocumentBiblio,
} from '../shared/biblio';
import { createError } from '../shared/errors';
import type { Sql } from './sql';

interface Row {
  document_id: number;
  title: string | null;
  authors: string;
  year: number | null;
  doi: string | null;
  arxiv: string | null;
  container: string | null;
  type: string | null;
  url: string | null;
  source: Biblio['source'];
  updated_at: number;
}

function fromRow(r: Row): DocumentBiblio {
  let authors: Biblio['authors'] = [];
  try {
    const parsed = JSON.parse(r.authors) as unknown;
    if (Array.isArray(parsed)) authors = parsed as Biblio['authors'];
  } catch {
    // a damaged cell reads as no authors; the rest of the record stays usable
  }
  return {
    documentId: Number(r.document_id),
    authors,
    source: r.source,
    updatedAt: Number(r.updated_at),
    ...(r.title ? { title: r.title } : {}),
    ...(r.year ? { year: Number(r.year) } : {}),
    ...(r.doi ? { doi: r.doi } : {}),
    ...(r.arxiv ? { arxiv: r.arxiv } : {}),
    ...(r.container ? { container: r.container } : {}),
    ...(r.type ? { type: r.type } : {}),
    ...(r.url ? { url: r.url } : {}),
  };
}

/** Bounds what a record may hold: imported files are untrusted and can be huge. */
export function cleanBiblio(b: Biblio): Biblio {
  const cut = (v: string | undefined, n: number) =>
    v === undefined ? undefined : v.replace(/\s+/g, ' ').trim().slice(0, n) || undefined;
  const authors = (Array.isArray(b.authors) ? b.authors : [])
    .slice(0, 200)
    .map((a): BiblioAuthor => {
      const given = cut(a.given, 200);
      return { family: cut(a.family, 200) ?? '', ...(given ? { given } : {}) };
    })
    .filter((a) => a.family);
  const year = Number.isInteger(b.year) && b.year! > 0 && b.year! < 3000 ? b.year : undefined;
  const out: Biblio = { authors, source: b.source };
  const title = cut(b.title, 1000);
  const doi = normaliseDoi(b.doi);
  const arxiv = cut(b.arxiv, 40);
  const container = cut(b.container, 500);
  const type = cut(b.type, 40);
  const url = cut(b.url, 2000);
  return {
    ...out,
    ...(title ? { title } : {}),
    ...(year ? { year } : {}),
    ...(doi ? { doi } : {}),
    ...(arxiv ? { arxiv } : {}),
    ...(container ? { container } : {}),
    ...(type ? { type } : {}),
    ...(url && /^https?:\/\//i.test(url) ? { url } : {}),
  };
}

export interface BiblioStore {
  get(documentId: number): Promise<DocumentBiblio | null>;
  /** Records of these documents (absent ones left out), in the order asked. */
  list(documentIds: readonly number[]): Promise<DocumentBiblio[]>;
  /**
   * Writes `biblio` for a document unless its stored record comes from a higher-ranked source.
   * @returns whether it was written
   * @throws AppError NOT_FOUND when the document does not exist
   */
  put(documentId: number, biblio: Biblio): Promise<boolean>;
  /** Documents whose record has this DOI. */
  byDoi(doi: string): Promise<number[]>;
}

/**
 * Writes a record inside the caller's transaction (the store's putDocument writes a PDF's guess
 * with its document), unless the stored one comes from a higher-ranked source.
 * @throws AppError NOT_FOUND when the document does not exist
 */
export async function writeBiblio(
  sql: Sql,
  documentId: number,
  input: Biblio,
  time: number,
): Promise<boolean> {
  const b = cleanBiblio(input);
  const doc = await sql.get('SELECT id FROM documents WHERE id = ?', [documentId]);
  if (!doc) throw createError('NOT_FOUND', { reason: `Document ${documentId} does not exist.` });
  const old = await sql.get<{ source: Biblio['source'] }>(
    'SELECT source FROM document_biblio WHERE document_id = ?',
    [documentId],
  );
  if (old && BIBLIO_SOURCE_RANK[old.source] > BIBLIO_SOURCE_RANK[b.source]) return false;
  await sql.run(
    `INSERT OR REPLACE INTO document_biblio
       (document_id, title, authors, year, doi, arxiv, container, type, url, source, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      documentId,
      b.title ?? null,
      JSON.stringify(b.authors),
      b.year ?? null,
      b.doi ?? null,
      b.arxiv ?? null,
      b.container ?? null,
      b.type ?? null,
      b.url ?? null,
      b.source,
      time,
    ],
  );
  return true;
}

export function createBiblioStore(sql: Sql, now: () => number = Date.now): BiblioStore {
  return {
    async get(documentId) {
      const r = await sql.get<Row>('SELECT * FROM document_biblio WHERE document_id = ?', [
        documentId,
      ]);
      return r ? fromRow(r) : null;
    },
    async list(ids) {
      if (ids.length === 0) return [];
      const rows = await sql.all<Row>(
        `SELECT * FROM document_biblio WHERE document_id IN (${ids.map(() => '?').join(',')})`,
        [...ids],
      );
      const byId = new Map(rows.map((r) => [Number(r.document_id), fromRow(r)]));
      return ids.map((id) => byId.get(id)).filter((b): b is DocumentBiblio => !!b);
    },
    async put(documentId, input) {
      return sql.transaction(() => writeBiblio(sql, documentId, input, now()));
    },
    async byDoi(doi) {
      const d = normaliseDoi(doi);
      if (!d) return [];
      const rows = await sql.all<{ document_id: number }>(
        'SELECT document_id FROM document_biblio WHERE doi = ? ORDER BY document_id',
        [d],
      );
      return rows.map((r) => Number(r.document_id));
    },
  };
}
