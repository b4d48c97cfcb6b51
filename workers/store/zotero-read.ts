// Reads a Zotero data folder's `zotero.sqlite` (a copy in the scratch MemoryVFS, opened with
// query_only, so Zotero's own file is never touched): regular items with their fields, creators
// and year, their stored attachments (files under storage/<attachment key>/), and collections.
// Tables used: items, itemTypes, itemData, itemDataValues, fields, creators, itemCreators,
// collections, collectionItems, itemAttachments (deletedItems when present).
import { normaliseArxiv, normaliseDoi, parseYear, type Biblio } from '../shared/biblio';
import { createError } from '../shared/errors';
import type { Sql } from './sql';

export interface ZoteroAttachment {
  /** Path inside the data folder: "storage/ABCD1234/paper.pdf". */
  path: string;
  contentType: string | null;
}

export interface ZoteroItem {
  itemId: number;
  key: string;
  biblio: Biblio;
  attachments: ZoteroAttachment[];
}

export interface ZoteroCollection {
  name: string;
  itemIds: number[];
}

export interface ZoteroLibrary {
  items: ZoteroItem[];
  collections: ZoteroCollection[];
}

/** Zotero item types that are not works (notes, attachments, annotations). */
const NOT_WORKS = new Set(['note', 'attachment', 'annotation']);

const CSL_TYPES: Record<string, string> = {
  journalArticle: 'article-journal',
  conferencePaper: 'paper-conference',
  book: 'book',
  bookSection: 'chapter',
  thesis: 'thesis',
  report: 'report',
  preprint: 'article',
  webpage: 'webpage',
};

async function hasTable(sql: Sql, name: string): Promise<boolean> {
  return !!(await sql.get("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", [name]));
}

/** @throws AppError PARSE_FAILED when the file is not a Zotero database */
export async function readZoteroDatabase(sql: Sql): Promise<ZoteroLibrary> {
  await sql.exec('PRAGMA query_only = 1');
  for (const t of ['items', 'itemData', 'itemDataValues', 'fields', 'itemAttachments']) {
    if (!(await hasTable(sql, t))) {
      throw createError('PARSE_FAILED', {
        reason: `zotero.sqlite has no "${t}" table: pick the Zotero data folder (the one holding zotero.sqlite and storage/).`,
      });
    }
  }
  const deleted = (await hasTable(sql, 'deletedItems'))
    ? 'AND i.itemID NOT IN (SELECT itemID FROM deletedItems)'
    : '';
  const items = await sql.all<{ itemID: number; key: string; typeName: string }>(
    `SELECT i.itemID, i.key, t.typeName FROM items i JOIN itemTypes t ON t.itemTypeID = i.itemTypeID
     WHERE 1 ${deleted} ORDER BY i.itemID`,
  );
  const fields = await sql.all<{ itemID: number; fieldName: string; value: string }>(
    `SELECT d.itemID, f.fieldName, v.value FROM itemData d
     JOIN fields f ON f.fieldID = d.fieldID JOIN itemDataValues v ON v.valueID = d.valueID`,
  );
  const creators = (await hasTable(sql, 'itemCreators'))
    ? await sql.all<{ itemID: number; firstName: string | null; lastName: string | null }>(
        `SELECT ic.itemID, c.firstName, c.lastName FROM itemCreators ic
         JOIN creators c ON c.creatorID = ic.creatorID ORDER BY ic.itemID, ic.orderIndex`,
      )
    : [];
  const attachments = await sql.all<{
    parentItemID: number | null;
    key: string;
    path: string | null;
    contentType: string | null;
  }>(
    `SELECT a.parentItemID, i.key, a.path, a.contentType FROM itemAttachments a
     JOIN items i ON i.itemID = a.itemID WHERE 1 ${deleted}`,
  );
  const fieldsOf = new Map<number, Map<string, string>>();
  for (const f of fields) {
    const id = Number(f.itemID);
    if (!fieldsOf.has(id)) fieldsOf.set(id, new Map());
    fieldsOf.get(id)!.set(f.fieldName, String(f.value));
  }
  const authorsOf = new Map<number, Biblio['authors']>();
  for (const c of creators) {
    const family = (c.lastName ?? '').trim();
    if (!family) continue;
    const id = Number(c.itemID);
    const given = (c.firstName ?? '').trim();
    authorsOf.set(id, [...(authorsOf.get(id) ?? []), { family, ...(given ? { given } : {}) }]);
  }
  const filesOf = new Map<number, ZoteroAttachment[]>();
  for (const a of attachments) {
    // "storage:paper.pdf" is a stored file; a linked file (an absolute path) is outside the folder.
    if (a.parentItemID === null || !a.path?.startsWith('storage:')) continue;
    const name = a.path.slice('storage:'.length);
    if (!name || name.includes('/') || name.includes('\\') || name === '..') continue;
    const id = Number(a.parentItemID);
    const list = filesOf.get(id) ?? [];
    list.push({ path: `storage/${a.key}/${name}`, contentType: a.contentType });
    filesOf.set(id, list);
  }
  const works: ZoteroItem[] = [];
  for (const it of items) {
    if (NOT_WORKS.has(it.typeName)) continue;
    const id = Number(it.itemID);
    const f = fieldsOf.get(id) ?? new Map<string, string>();
    works.push({
      itemId: id,
      key: it.key,
      biblio: zoteroBiblio(it.typeName, f, authorsOf.get(id) ?? []),
      attachments: filesOf.get(id) ?? [],
    });
  }
  return {
    items: works,
    collections: await readCollections(sql, new Set(works.map((w) => w.itemId))),
  };
}

function zoteroBiblio(
  typeName: string,
  f: Map<string, string>,
  authors: Biblio['authors'],
): Biblio {
  const title = f.get('title')?.trim();
  const year = parseYear(f.get('date'));
  const doi = normaliseDoi(f.get('DOI'));
  const url = f.get('url')?.trim();
  const arxiv =
    normaliseArxiv(url) ??
    normaliseArxiv(/arXiv:\s*(\S+)/i.exec(f.get('extra') ?? '')?.[1]) ??
    (f.get('repository')?.toLowerCase() === 'arxiv' ? normaliseArxiv(f.get('number')) : undefined);
  const container =
    f.get('publicationTitle') ??
    f.get('proceedingsTitle') ??
    f.get('bookTitle') ??
    f.get('publisher');
  const type = CSL_TYPES[typeName] ?? 'document';
  return {
    source: 'zotero',
    authors,
    type,
    ...(title ? { title } : {}),
    ...(year ? { year } : {}),
    ...(doi ? { doi } : {}),
    ...(arxiv ? { arxiv } : {}),
    ...(container ? { container } : {}),
    ...(url ? { url } : {}),
  };
}

/** Collections with their works; a sub-collection's name is its path ("Thesis / Chapter 2"). */
async function readCollections(sql: Sql, works: Set<number>): Promise<ZoteroCollection[]> {
  if (!(await hasTable(sql, 'collections')) || !(await hasTable(sql, 'collectionItems'))) return [];
  const cols = await sql.all<{
    collectionID: number;
    collectionName: string;
    parentCollectionID: number | null;
  }>(
    'SELECT collectionID, collectionName, parentCollectionID FROM collections ORDER BY collectionID',
  );
  const members = await sql.all<{ collectionID: number; itemID: number }>(
    'SELECT collectionID, itemID FROM collectionItems ORDER BY collectionID, orderIndex, itemID',
  );
  const byId = new Map(cols.map((c) => [Number(c.collectionID), c]));
  const nameOf = (id: number, depth = 0): string => {
    const c = byId.get(id);
    if (!c) return '';
    const parent = c.parentCollectionID === null ? null : Number(c.parentCollectionID);
    return parent !== null && depth < 20 && byId.has(parent)
      ? `${nameOf(parent, depth + 1)} / ${c.collectionName}`
      : c.collectionName;
  };
  return cols.map((c) => ({
    name: nameOf(Number(c.collectionID)),
    itemIds: members
      .filter(
        (m) => Number(m.collectionID) === Number(c.collectionID) && works.has(Number(m.itemID)),
      )
      .map((m) => Number(m.itemID)),
  }));
}
