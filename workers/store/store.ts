// The library: documents and their chunks with the FTS5 index kept in step, export/import of the
// whole database, and a change counter for caches. One transaction per logical change.
// Hashing and chunking are done by the caller.
import { createError } from '../shared/errors';
import { parsePageStarts } from '../shared/pages';
import { parseSections, sectionAt, type SectionStarts } from '../shared/sections';
import { isContentsChunk } from '../shared/contents-lines';
import type { LibraryStats } from '../shared/store-api';
import type {
  ChunkInput,
  DocumentDetail,
  DocumentInput,
  DocumentSummary,
  PutResult,
  QualityGrade,
} from '../shared/types';
import {
  FTS_TOKENIZER,
  migrate,
  readUserVersion,
  rebuildTermStats,
  SCHEMA_VERSION,
  type Migration,
  MIGRATIONS,
} from './migrations';
import { writeBiblio } from './biblio-store';
import type { OpenedDatabase } from './open-database';
import { SCRATCH_VFS } from './open-database';
import type { Row, Sql } from './sql';

export interface StoreDeps {
  /** ms since epoch; injected for `imported_at`. */
  clock?: () => number;
  migrations?: readonly Migration[];
}

export interface Store {
  /**
   * Stores a document and its chunks in ONE transaction.
   * added: new path; replaced: same path, new hash (old chunks go); unchanged: same path and
   * hash (nothing written); duplicate: same hash under another path (nothing written).
   * @throws AppError INVALID_ARGUMENT (chunks not slices of the text), STORAGE_FULL, DB_LOCKED
   */
  putDocument(input: DocumentInput, chunks: ChunkInput[], contentHash: string): Promise<PutResult>;
  /** @throws AppError NOT_FOUND */
  deleteDocument(id: number): Promise<void>;
  /**
   * Sets the quality grade of documents (null: back to ungraded, i.e. OWN_DOCUMENT_GRADE for a
   * local file); a change like any other (version bumped, caches keyed on it drop).
   * @returns how many documents exist among `ids`
   */
  setDocumentGrade(ids: number[], grade: QualityGrade | null): Promise<number>;
  /** Every document by path; with `ids`, only those of them that exist (same order). */
  listDocuments(ids?: readonly number[]): Promise<DocumentSummary[]>;
  /** @throws AppError NOT_FOUND */
  getDocument(id: number): Promise<DocumentDetail>;
  getDocumentByPath(path: string): Promise<DocumentSummary | null>;
  stats(): Promise<LibraryStats>;
  /** A consistent snapshot (VACUUM INTO a scratch file) as SQLite file bytes. */
  exportDatabase(): Promise<Uint8Array>;
  /**
   * Validates (header, integrity_check, schema version), migrates and then replaces the whole
   * library in one transaction; on any failure the current library is untouched.
   * @throws AppError INVALID_LIBRARY_FILE, SCHEMA_TOO_NEW
   */
  importDatabase(bytes: Uint8Array): Promise<LibraryStats>;
  /** Monotonic counter, bumped after every committed change. */
  version(): number;
  /** Called after every committed change; returns an unsubscribe function. */
  onChange(listener: (version: number) => void): () => void;
  readonly sql: Sql;
}

const SQLITE_HEADER = 'SQLite format 3\u0000';

interface DocumentRow {
  id: number;
  path: string;
  title: string;
  mime: string;
  size: number;
  modified: number;
  content_hash: string;
  imported_at: number;
  source_url: string | null;
  quality_grade: string | null;
  chunk_count: number;
}

const SUMMARY_COLUMNS = `d.id, d.path, d.title, d.mime, d.size, d.modified, d.content_hash,
  d.imported_at, d.source_url, d.quality_grade,
  (SELECT count(*) FROM chunks c WHERE c.document_id = d.id) AS chunk_count`;

function toSummary(row: DocumentRow): DocumentSummary {
  return {
    id: Number(row.id),
    path: row.path,
    title: row.title,
    mime: row.mime,
    size: Number(row.size),
    modified: Number(row.modified),
    contentHash: row.content_hash,
    importedAt: Number(row.imported_at),
    sourceUrl: row.source_url,
    qualityGrade: (row.quality_grade as QualityGrade | null) ?? null,
    chunkCount: Number(row.chunk_count),
  };
}

function validateChunks(input: DocumentInput, chunks: ChunkInput[]): void {
  chunks.forEach((chunk, i) => {
    if (
      chunk.seq !== i ||
      chunk.start < 0 ||
      chunk.end < chunk.start ||
      chunk.end > input.text.length
    ) {
      throw createError('INVALID_ARGUMENT', {
        reason: `Chunk ${i} of ${input.path} has a bad sequence number or offsets.`,
      });
    }
    if (input.text.slice(chunk.start, chunk.end) !== chunk.text) {
      throw createError('INVALID_ARGUMENT', {
        reason: `Chunk ${i} of ${input.path} is not the text between its offsets.`,
      });
    }
  });
}

/**
 * Migrates the database and returns the store over it.
 * @throws AppError SCHEMA_TOO_NEW, DB_CORRUPT, DB_*
 */
export async function createStore(db: OpenedDatabase, deps: StoreDeps = {}): Promise<Store> {
  const { sql, scratch } = db;
  const clock = deps.clock ?? Date.now;
  const migrations = deps.migrations ?? MIGRATIONS;
  await migrate(sql, migrations);

  let version = 0;
  let scratchCounter = 0;
  const listeners = new Set<(v: number) => void>();
  const changed = () => {
    version++;
    for (const listener of listeners) listener(version);
  };

  const termStats = Boolean(
    await sql.get("SELECT 1 AS x FROM sqlite_schema WHERE type = 'table' AND name = 'term_stats'"),
  );
  // A scratch FTS5 table with the index's tokenizer and columns: a document's chunks pass
  // through it to count the terms they add to or remove from term_stats (document frequency).
  await sql.exec(`
    CREATE VIRTUAL TABLE IF NOT EXISTS temp.sift_doc_terms USING fts5(title, body, tokenize = '${FTS_TOKENIZER}', detail = none, columnsize = 0);
    CREATE VIRTUAL TABLE IF NOT EXISTS temp.sift_doc_terms_v USING fts5vocab(temp, sift_doc_terms, row);
  `);

  /**
   * Adds (sign 1) or removes (sign -1) a document's terms in term_stats: each term the document's
   * chunks hold counts once in `docs` and once per chunk in `chunks`. Reads the chunks through
   * the FTS source view, so removal must run before the chunks (or the title) change.
   */
  async function countTerms(documentId: number, sign: 1 | -1): Promise<void> {
    if (!termStats) return; // a store opened with an older migration list (tests of upgrades)
    await sql.run('DELETE FROM temp.sift_doc_terms');
    await sql.run(
      `INSERT INTO temp.sift_doc_terms(rowid, title, body)
       SELECT id, title, body FROM chunks_fts_source WHERE document_id = ?`,
      [documentId],
    );
    await sql.run(
      `INSERT INTO term_stats (term, docs, chunks)
       SELECT term, ?, ? * doc FROM temp.sift_doc_terms_v WHERE true
       ON CONFLICT (term) DO UPDATE SET docs = docs + excluded.docs, chunks = chunks + excluded.chunks`,
      [sign, sign],
    );
    if (sign < 0) {
      await sql.run(
        `DELETE FROM term_stats
         WHERE term IN (SELECT term FROM temp.sift_doc_terms_v) AND docs <= 0`,
      );
    }
    await sql.run('DELETE FROM temp.sift_doc_terms');
  }

  /** Removes a document's chunks from the FTS index, term_stats and the chunks table. */
  async function removeChunks(documentId: number): Promise<void> {
    await countTerms(documentId, -1);
    await sql.run(
      `INSERT INTO chunks_fts(chunks_fts, rowid, title, body)
       SELECT 'delete', id, title, body FROM chunks_fts_source WHERE document_id = ?`,
      [documentId],
    );
    await sql.run('DELETE FROM chunks WHERE document_id = ?', [documentId]);
  }

  async function insertChunks(
    documentId: number,
    chunks: ChunkInput[],
    sections: SectionStarts | null | undefined,
  ): Promise<void> {
    for (const chunk of chunks) {
      // A contents or index chunk is marked, and a chunk under an outline heading keeps its
      // section (migrations 14 and 15's columns: a library built at an older schema, as the
      // upgrade tests do, takes plain chunks).
      const contents = isContentsChunk(chunk.text);
      const section = chunkSection(sections, chunk.start);
      await sql.run(
        `INSERT INTO chunks (document_id, seq, start, "end", text${contents ? ', contents' : ''}${section ? ', section' : ''})
         VALUES (?, ?, ?, ?, ?${contents ? ', 1' : ''}${section ? ', ?' : ''})`,
        [documentId, chunk.seq, chunk.start, chunk.end, chunk.text, ...(section ? [section] : [])],
      );
    }
    await sql.run(
      `INSERT INTO chunks_fts(rowid, title, body)
       SELECT id, title, body FROM chunks_fts_source WHERE document_id = ?`,
      [documentId],
    );
    await countTerms(documentId, 1);
  }

  async function stats(): Promise<LibraryStats> {
    const row = await sql.get<{ documents: number; chunks: number; total_size: number }>(
      `SELECT (SELECT count(*) FROM documents) AS documents, (SELECT count(*) FROM chunks) AS chunks,
              (SELECT coalesce(sum(size), 0) FROM documents) AS total_size`,
    );
    return {
      documents: Number(row?.documents ?? 0),
      chunks: Number(row?.chunks ?? 0),
      totalSize: Number(row?.total_size ?? 0),
      schemaVersion: await readUserVersion(sql),
      version,
    };
  }

  const store: Store = {
    sql,
    version: () => version,
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    async putDocument(input, chunks, contentHash) {
      validateChunks(input, chunks);
      const result = await sql.transaction(async (): Promise<PutResult> => {
        const existing = await sql.get<{ id: number; content_hash: string }>(
          'SELECT id, content_hash FROM documents WHERE path = ?',
          [input.path],
        );
        if (existing && existing.content_hash === contentHash) {
          return {
            outcome: 'unchanged',
            documentId: Number(existing.id),
            chunkCount: await chunkCount(sql, existing.id),
          };
        }
        const twin = await sql.get<{ id: number }>(
          'SELECT id FROM documents WHERE content_hash = ? AND path <> ? ORDER BY id LIMIT 1',
          [contentHash, input.path],
        );
        if (twin) {
          return {
            outcome: 'duplicate',
            documentId: Number(twin.id),
            chunkCount: await chunkCount(sql, twin.id),
          };
        }
        const values = [
          input.title,
          input.mime,
          input.size,
          input.modified,
          contentHash,
          clock(),
          input.sourceUrl ?? null,
          input.qualityGrade ?? null,
          input.text,
        ];
        // Pages and sections only where the parser gave them (the columns are migrations 12 and
        // 13's: a library built at an older schema, as the upgrade tests do, takes neither).
        const layout = layoutColumns(input);
        const layoutNames = layout.map(([name]) => `, ${name}`).join('');
        let documentId: number;
        if (existing) {
          documentId = Number(existing.id);
          // Order matters: the FTS 'delete' reads the old title and text through the view.
          await removeChunks(documentId);
          await sql.run(
            `UPDATE documents SET title = ?, mime = ?, size = ?, modified = ?, content_hash = ?,
               imported_at = ?, source_url = ?, quality_grade = ?, text = ?${layout.map(([name]) => `, ${name} = ?`).join('')}
             WHERE id = ?`,
            [...values, ...layout.map(([, v]) => v), documentId],
          );
        } else {
          const inserted = await sql.run(
            `INSERT INTO documents (title, mime, size, modified, content_hash, imported_at,
               source_url, quality_grade, text${layoutNames}, path)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?${', ?'.repeat(layout.length)}, ?)`,
            [...values, ...layout.map(([, v]) => v), input.path],
          );
          documentId = inserted.lastInsertId;
        }
        await insertChunks(documentId, chunks, input.sections);
        if (input.biblio) await writeBiblio(sql, documentId, input.biblio, clock());
        return { outcome: existing ? 'replaced' : 'added', documentId, chunkCount: chunks.length };
      });
      if (result.outcome === 'added' || result.outcome === 'replaced') changed();
      return result;
    },

    async deleteDocument(id) {
      await sql.transaction(async () => {
        const row = await sql.get('SELECT id FROM documents WHERE id = ?', [id]);
        if (!row) throw createError('NOT_FOUND', { reason: `Document ${id} does not exist.` });
        await removeChunks(id);
        await sql.run('DELETE FROM documents WHERE id = ?', [id]);
      });
      changed();
    },

    async setDocumentGrade(ids, grade) {
      if (grade !== null && !'ABCDE'.includes(grade)) {
        throw createError('INVALID_ARGUMENT', { reason: `Unknown grade ${String(grade)}.` });
      }
      let n = 0;
      await sql.transaction(async () => {
        for (const id of ids) {
          const row = await sql.get('SELECT id FROM documents WHERE id = ?', [id]);
          if (!row) continue;
          await sql.run('UPDATE documents SET quality_grade = ? WHERE id = ?', [grade, id]);
          n++;
        }
      });
      if (n > 0) changed();
      return n;
    },

    listDocuments: (ids) => sql.serialized(() => listDocuments(sql, ids)),
    getDocument: (id) => sql.serialized(() => getDocument(sql, id)),
    getDocumentByPath: (path) => sql.serialized(() => getDocumentByPath(sql, path)),
    stats: () => sql.serialized(stats),
    async exportDatabase() {
      const name = `export-${++scratchCounter}.db`;
      scratch.remove(name);
      try {
        // VACUUM INTO reads one consistent snapshot (a read transaction) and writes a compact copy.
        await sql.serialized(() => sql.exec(`VACUUM INTO 'file:${name}?vfs=${SCRATCH_VFS}'`));
        const bytes = scratch.read(name);
        if (!bytes) throw createError('DB_ERROR', { reason: 'The export produced no file.' });
        return bytes;
      } finally {
        scratch.remove(name);
      }
    },

    async importDatabase(bytes) {
      const header = new TextDecoder('latin1').decode(bytes.subarray(0, 16));
      if (bytes.byteLength < 512 || header !== SQLITE_HEADER) {
        throw invalid('The file does not start with the SQLite header.');
      }
      const name = `import-${++scratchCounter}.db`;
      scratch.write(name, bytes);
      let other: Sql | null = null;
      try {
        try {
          other = await scratch.open(name);
          await checkIntegrity(other);
        } catch (err) {
          if ((err as { code?: string }).code === 'INVALID_LIBRARY_FILE') throw err;
          throw invalid('The file is not a readable SQLite database.', err);
        }
        await checkLibrarySchema(other);
        await migrate(other, migrations); // throws SCHEMA_TOO_NEW for newer files
        await replaceLibrary(sql, other, termStats);
      } catch (err) {
        if ((err as { code?: string }).code === 'DB_CORRUPT')
          throw invalid('The database is damaged.', err);
        throw err;
      } finally {
        await other?.close().catch(() => undefined);
        scratch.remove(name);
      }
      changed();
      return stats();
    },
  };
  return store;
}

async function chunkCount(sql: Sql, documentId: number): Promise<number> {
  const row = await sql.get<{ n: number }>(
    'SELECT count(*) AS n FROM chunks WHERE document_id = ?',
    [documentId],
  );
  return Number(row?.n ?? 0);
}

async function listDocuments(sql: Sql, ids?: readonly number[]): Promise<DocumentSummary[]> {
  const rows = ids
    ? await sql.all<DocumentRow>(
        `SELECT ${SUMMARY_COLUMNS} FROM documents d
         WHERE d.id IN (SELECT value FROM json_each(?)) ORDER BY d.path`,
        [JSON.stringify(ids)],
      )
    : await sql.all<DocumentRow>(`SELECT ${SUMMARY_COLUMNS} FROM documents d ORDER BY d.path`);
  return rows.map(toSummary);
}

async function getDocument(sql: Sql, id: number): Promise<DocumentDetail> {
  const row = await sql.get<
    DocumentRow & { text: string; page_starts: string | null; sections: string | null }
  >(
    `SELECT ${SUMMARY_COLUMNS}, d.text, d.page_starts, d.sections FROM documents d WHERE d.id = ?`,
    [id],
  );
  if (!row) throw createError('NOT_FOUND', { reason: `Document ${id} does not exist.` });
  const chunks = await sql.all<{
    id: number;
    seq: number;
    start: number;
    end: number;
    text: string;
  }>('SELECT id, seq, start, "end", text FROM chunks WHERE document_id = ? ORDER BY seq', [id]);
  return {
    ...toSummary(row),
    text: row.text,
    pageStarts: parsePageStarts(row.page_starts),
    sections: parseSections(row.sections),
    chunks: chunks.map((c) => ({
      id: Number(c.id),
      seq: Number(c.seq),
      start: Number(c.start),
      end: Number(c.end),
      text: c.text,
    })),
  };
}

async function getDocumentByPath(sql: Sql, path: string): Promise<DocumentSummary | null> {
  const row = await sql.get<DocumentRow>(
    `SELECT ${SUMMARY_COLUMNS} FROM documents d WHERE d.path = ?`,
    [path],
  );
  return row ? toSummary(row) : null;
}

/** Plain tables of a database: not sqlite_*, not virtual tables, not FTS shadow tables. */
async function plainTables(conn: Sql): Promise<string[]> {
  const rows = await conn.all<{ name: string; sql: string | null }>(
    "SELECT name, sql FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
  );
  const virtual = rows.filter((r) => /^CREATE VIRTUAL TABLE/i.test(r.sql ?? '')).map((r) => r.name);
  return rows
    .filter((r) => !/^CREATE VIRTUAL TABLE/i.test(r.sql ?? ''))
    .map((r) => r.name)
    .filter((name) => !virtual.some((v) => name.startsWith(`${v}_`)));
}

const invalid = (reason: string, cause?: unknown) =>
  createError('INVALID_LIBRARY_FILE', { reason, ...(cause === undefined ? {} : { cause }) });

/** @throws AppError INVALID_LIBRARY_FILE when SQLite's integrity check does not say ok */
async function checkIntegrity(conn: Sql): Promise<void> {
  const check = await conn.all<{ integrity_check: string }>('PRAGMA integrity_check');
  if (check.length !== 1 || check[0]?.integrity_check !== 'ok') {
    throw invalid(
      `The database failed its integrity check (${check[0]?.integrity_check ?? 'no answer'}).`,
    );
  }
}

/** @throws AppError INVALID_LIBRARY_FILE when the database holds no Sift library */
async function checkLibrarySchema(conn: Sql): Promise<void> {
  const fileVersion = await readUserVersion(conn);
  const tables = await plainTables(conn);
  if (fileVersion === 0 || !tables.includes('documents') || !tables.includes('chunks')) {
    throw invalid('The database has no Sift library schema.');
  }
}

/**
 * Replaces the rows of every plain table with `source`'s (same schema version), in one
 * transaction, then rebuilds the derived FTS index (and term_stats when the schema has it).
 */
async function replaceLibrary(sql: Sql, source: Sql, termStats: boolean): Promise<void> {
  await sql.transaction(async () => {
    // Foreign keys are checked at COMMIT, so tables can be filled in any order.
    await sql.exec('PRAGMA defer_foreign_keys = ON');
    const mine = await plainTables(sql);
    for (const table of mine) await sql.run(`DELETE FROM "${table}"`);
    const theirs = new Set(await plainTables(source));
    for (const table of mine) {
      if (!theirs.has(table)) continue;
      const cols = (
        await sql.all<{ name: string }>(`SELECT name FROM pragma_table_info(?)`, [table])
      ).map((c) => c.name);
      const list = cols.map((c) => `"${c}"`).join(', ');
      await source.each(`SELECT ${list} FROM "${table}"`, [], async (row: Row) => {
        // wa-sqlite binds an empty Uint8Array as NULL: a zero-length blob (vector_index's
        // marker since migration 10) is written as the literal X'' instead.
        const empty = cols.map((c) => isEmptyBlob(row[c]));
        const values = cols.map((c, i) => (empty[i] ? "X''" : '?')).join(', ');
        await sql.run(
          `INSERT INTO "${table}" (${list}) VALUES (${values})`,
          cols.filter((_, i) => !empty[i]).map((c) => row[c] ?? null),
        );
      });
    }
    // The index is derived data: rebuild it from the imported rows through the view.
    await sql.run("INSERT INTO chunks_fts(chunks_fts) VALUES ('rebuild')");
    if (termStats) await rebuildTermStats(sql);
  });
}

function isEmptyBlob(value: unknown): boolean {
  return value instanceof Uint8Array && value.length === 0;
}

export { SCHEMA_VERSION };

/** The optional layout columns a document sets, as [column, JSON] (PDF pages and sections). */
function layoutColumns(input: DocumentInput): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  if (input.pageStarts?.length) out.push(['page_starts', JSON.stringify(input.pageStarts)]);
  if (input.sections?.length) out.push(['sections', JSON.stringify(input.sections)]);
  return out;
}

/** Section levels a chunk's title field carries: its heading and the one above. */
const INDEXED_SECTION_LEVELS = 2;

/** The section a chunk starts in, as indexed: its last INDEXED_SECTION_LEVELS titles. */
function chunkSection(sections: SectionStarts | null | undefined, start: number): string | null {
  const path = sectionAt(sections, start);
  return path?.length ? path.slice(-INDEXED_SECTION_LEVELS).join(' ') : null;
}
