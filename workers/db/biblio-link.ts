// Bibliographic data as the library serves it: records read and edited per document, reference
// files linked to documents (DOI, arXiv id, then file name), a Zotero data folder imported
// (database read from a scratch copy, stored files through the importer, collections as
// projects), and a project's references exported.
import { parseReferences, type BibEntry } from '../ingest/bib-parse';
import { toBibtex, toCslJson } from '../projects/bib-export';
import type { BiblioApi, ReferenceImportResult } from '../shared/biblio-api';
import type { Biblio } from '../shared/biblio';
import { createError } from '../shared/errors';
import type { DocumentSummary, ImportFile } from '../shared/types';
import { createBiblioStore } from '../store/biblio-store';
import { readZoteroDatabase } from '../store/zotero-read';
import type { LibraryParts } from './service';

const baseName = (p: string) => (p.split(/[\\/]/).pop() ?? p).toLowerCase();

/** Documents by file name, DOI and arXiv id, to link references to. */
async function documentIndex(parts: LibraryParts) {
  const docs = await parts.store.listDocuments();
  const bib = createBiblioStore(parts.store.sql);
  const records = await bib.list(docs.map((d) => d.id));
  const byName = new Map<string, number>();
  for (const d of docs) if (!byName.has(baseName(d.path))) byName.set(baseName(d.path), d.id);
  const byDoi = new Map<string, number>();
  const byArxiv = new Map<string, number>();
  for (const r of records) {
    if (r.doi && !byDoi.has(r.doi)) byDoi.set(r.doi, r.documentId);
    if (r.arxiv && !byArxiv.has(r.arxiv)) byArxiv.set(r.arxiv, r.documentId);
  }
  return {
    docs,
    match(e: BibEntry): number | undefined {
      return (
        (e.doi ? byDoi.get(e.doi) : undefined) ??
        (e.arxiv ? byArxiv.get(e.arxiv) : undefined) ??
        e.files.map((f) => byName.get(baseName(f))).find((id) => id !== undefined)
      );
    },
  };
}

function withoutLinks(e: BibEntry): Biblio {
  const { key: _key, files: _files, ...biblio } = e;
  return biblio;
}

export function createBiblioLink(ready: () => Promise<LibraryParts>): BiblioApi {
  const biblioOf = async () => createBiblioStore((await ready()).store.sql);
  return {
    getBiblio: async (id) => (await biblioOf()).get(id),
    listBiblio: async (ids) => (await biblioOf()).list(ids),
    async setBiblio(id, biblio) {
      const bib = await biblioOf();
      await bib.put(id, { ...biblio, source: 'user' });
      return (await bib.get(id))!;
    },

    async importReferences(file) {
      const parsed = parseReferences(file.name, file.text);
      const parts = await ready();
      const bib = createBiblioStore(parts.store.sql);
      const index = await documentIndex(parts);
      const result: ReferenceImportResult = {
        format: parsed.format,
        entries: parsed.entries.length,
        linked: 0,
        kept: 0,
        unmatched: [],
        skipped: parsed.skipped,
      };
      for (const e of parsed.entries) {
        const id = index.match(e);
        if (id === undefined) {
          if (result.unmatched.length < 50) result.unmatched.push(e.title ?? e.key ?? '(untitled)');
          continue;
        }
        if (await bib.put(id, withoutLinks(e))) result.linked++;
        else result.kept++;
      }
      return result;
    },

    async importZotero(files, onProgress) {
      const parts = await ready();
      const dbFile = pickZoteroDatabase(files);
      const root = dbFile.path.slice(0, dbFile.path.length - 'zotero.sqlite'.length);
      const scratchName = `zotero-import-${Date.now()}.sqlite`;
      parts.db.scratch.write(scratchName, new Uint8Array(await dbFile.data.arrayBuffer()));
      let library;
      try {
        const z = await parts.db.scratch.open(scratchName);
        try {
          library = await readZoteroDatabase(z);
        } finally {
          await z.close();
        }
      } finally {
        parts.db.scratch.remove(scratchName);
      }
      const byPath = new Map(files.map((f) => [f.path.replace(/\\/g, '/'), f]));
      const wanted: Array<{ itemId: number; file: ImportFile }> = [];
      for (const item of library.items) {
        for (const a of item.attachments) {
          const file = byPath.get(`${root}${a.path}`);
          if (file) wanted.push({ itemId: item.itemId, file });
        }
      }
      const progress = await parts.ingest.importFiles(
        wanted.map((w) => w.file),
        onProgress,
      );
      const docs = await parts.store.listDocuments();
      const docOfPath = new Map<string, DocumentSummary>(docs.map((d) => [d.path, d]));
      const bib = createBiblioStore(parts.store.sql);
      const docsOfItem = new Map<number, number[]>();
      let linked = 0;
      for (const w of wanted) {
        const d = docOfPath.get(w.file.path);
        if (!d) continue;
        const item = library.items.find((i) => i.itemId === w.itemId)!;
        if (await bib.put(d.id, item.biblio)) linked++;
        docsOfItem.set(w.itemId, [...(docsOfItem.get(w.itemId) ?? []), d.id]);
      }
      const projects: string[] = [];
      const existing = new Map((await parts.projects.list()).map((p) => [p.name, p.id]));
      for (const c of library.collections) {
        const ids = [...new Set(c.itemIds.flatMap((i) => docsOfItem.get(i) ?? []))];
        if (ids.length === 0) continue;
        const name = c.name.slice(0, 200);
        const id = existing.get(name) ?? (await parts.projects.create(name)).id;
        await parts.projects.addDocuments(id, ids);
        projects.push(name);
      }
      if (projects.length) parts.hybrid.clearCache();
      return { items: library.items.length, files: progress, linked, projects };
    },

    async exportReferences(projectId, format) {
      const parts = await ready();
      const ids = [...new Set(await parts.projects.documentIds(projectId))];
      const docs = new Map((await parts.store.listDocuments()).map((d) => [d.id, d]));
      const records = new Map(
        (await createBiblioStore(parts.store.sql).list(ids)).map((r) => [r.documentId, r]),
      );
      const refs = ids
        .filter((id) => docs.has(id))
        .map((id) => {
          const d = docs.get(id)!;
          const r = records.get(id);
          const biblio: Biblio = r ? { ...r } : { source: 'user', authors: [], title: d.title };
          return { biblio, fallbackTitle: d.title || baseName(d.path) };
        });
      return format === 'bibtex' ? toBibtex(refs) : toCslJson(refs);
    },
  };
}

/** The shallowest zotero.sqlite among the picked files. @throws AppError PARSE_FAILED */
function pickZoteroDatabase(files: readonly ImportFile[]): ImportFile {
  const dbs = files
    .filter((f) => baseName(f.path || f.name) === 'zotero.sqlite')
    .sort((a, b) => a.path.split('/').length - b.path.split('/').length);
  if (!dbs[0]) {
    throw createError('PARSE_FAILED', {
      reason:
        'The folder has no zotero.sqlite: pick the Zotero data folder (Zotero > Settings > Advanced > Files and Folders shows where it is).',
    });
  }
  return dbs[0];
}
