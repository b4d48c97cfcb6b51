// The library schema as an ordered list of migrations, tracked in PRAGMA user_version.
// Owns: table definitions and how an older library becomes the current one. Append new
// migrations at the end; never edit a released one (libraries in the wild ran it already).
import { isContentsChunk } from '../shared/contents-lines';
import { createError } from '../shared/errors';
import type { Sql } from './sql';

export interface Migration {
  /** 1-based; equals the index in MIGRATIONS plus one. */
  version: number;
  description: string;
  up(sql: Sql): Promise<void>;
}

/** The FTS5 tokenizer of the chunk index (and of the query tokenizer, which must match it). */
// porter: English stemming, as Anserini's BM25 baseline does (so "running" finds "runs").
// unicode61 remove_diacritics 2: Unicode-aware folding; "2" also strips diacritics from
// characters that carry several (the fixed successor of "1").
export const FTS_TOKENIZER = 'porter unicode61 remove_diacritics 2';

export const MIGRATIONS: Migration[] = [
  {
    version: 1,
    description: 'documents, chunks, and the FTS5 index over title + chunk text',
    async up(sql) {
      await sql.exec(`
        CREATE TABLE documents (
          id INTEGER PRIMARY KEY,
          path TEXT NOT NULL UNIQUE,
          title TEXT NOT NULL,
          mime TEXT NOT NULL,
          size INTEGER NOT NULL,
          modified INTEGER NOT NULL,
          content_hash TEXT NOT NULL,
          imported_at INTEGER NOT NULL,
          source_url TEXT,
          quality_grade TEXT CHECK (quality_grade IN ('A','B','C','D','E')),
          text TEXT NOT NULL
        );
        CREATE INDEX documents_content_hash ON documents(content_hash);
        CREATE TABLE chunks (
          id INTEGER PRIMARY KEY,
          document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
          seq INTEGER NOT NULL,
          start INTEGER NOT NULL,
          "end" INTEGER NOT NULL,
          text TEXT NOT NULL,
          UNIQUE (document_id, seq)
        );
        -- The FTS5 index keeps no copy of the text (external content): it reads title and body
        -- through this view. Rows are added/removed explicitly in the same transaction as the
        -- chunks ('delete' needs the indexed values, so it runs before the chunks go).
        CREATE VIEW chunks_fts_source AS
          SELECT c.id AS id, c.document_id AS document_id, d.title AS title, c.text AS body
          FROM chunks c JOIN documents d ON d.id = c.document_id;
        CREATE VIRTUAL TABLE chunks_fts USING fts5(
          title, body,
          content = 'chunks_fts_source', content_rowid = 'id',
          tokenize = '${FTS_TOKENIZER}'
        );
      `);
    },
  },
  {
    version: 2,
    description: 'indexes for the mime and modified-date search filters',
    async up(sql) {
      await sql.exec(`
        CREATE INDEX documents_mime ON documents(mime);
        CREATE INDEX documents_modified ON documents(modified);
      `);
    },
  },
  {
    version: 3,
    description: 'canonical int16 chunk vectors per embedding model and version (issue 3)',
    async up(sql) {
      // One row per chunk and model version: vectors of two models/versions never mix in a
      // search (filter on both). text_hash (hex SHA-256 of the exact text given to the model)
      // lets an import reuse a vector instead of embedding the same text twice; chunks with no
      // row for the active model are the resumable backlog. vector: dim x int16 little-endian.
      await sql.exec(`
        CREATE TABLE chunk_vectors (
          chunk_id INTEGER NOT NULL REFERENCES chunks(id) ON DELETE CASCADE,
          model_id TEXT NOT NULL,
          model_version TEXT NOT NULL,
          dim INTEGER NOT NULL,
          text_hash TEXT NOT NULL,
          vector BLOB NOT NULL CHECK (length(vector) = 2 * dim),
          PRIMARY KEY (chunk_id, model_id, model_version)
        ) WITHOUT ROWID;
        CREATE INDEX chunk_vectors_model_hash ON chunk_vectors(model_id, model_version, text_hash);
      `);
    },
  },
  {
    version: 4,
    description:
      'vector cache by text hash (edited files reuse vectors) and the persisted vector index',
    async up(sql) {
      // vector_cache outlives chunks: replacing a changed file deletes its chunks (and their
      // vectors), but its unchanged paragraphs come back with the same text hash. model is
      // "id@version". vector_index holds the serialised HNSW graph (format version + CRC32 inside),
      // so start-up does not rebuild it; a missing or damaged one is rebuilt from chunk_vectors.
      await sql.exec(`
        CREATE TABLE vector_cache (
          model TEXT NOT NULL,
          text_hash TEXT NOT NULL,
          vector BLOB NOT NULL,
          used_at INTEGER NOT NULL,
          PRIMARY KEY (model, text_hash)
        );
        CREATE INDEX vector_cache_used ON vector_cache(model, used_at);
        CREATE TABLE vector_index (
          model TEXT PRIMARY KEY,
          bytes BLOB NOT NULL,
          saved_at INTEGER NOT NULL
        );
      `);
    },
  },
  {
    version: 5,
    description: 'document frequency per index term (IDF without reading posting lists)',
    async up(sql) {
      // term_stats: for each stem of the FTS index, the documents and chunks holding it (title or
      // body). Kept in step with chunks_fts by the store, in the same transaction; lexical search
      // reads IDF from it in one lookup per term, which lets long queries skip the posting lists
      // of common terms (lexical-search.ts). Filled here from the existing index.
      await sql.exec(`
        CREATE TABLE term_stats (
          term TEXT PRIMARY KEY,
          docs INTEGER NOT NULL,
          chunks INTEGER NOT NULL
        ) WITHOUT ROWID;
      `);
      await rebuildTermStats(sql);
    },
  },
  {
    version: 6,
    description: 'research projects: named collections of documents and their claims (issue 17)',
    async up(sql) {
      // A document may belong to several projects; deleting either side drops the membership.
      // Claims keep their last check as JSON (statuses, sources), so a report can be rebuilt
      // without re-running it.
      await sql.exec(`
        CREATE TABLE projects (
          id INTEGER PRIMARY KEY,
          name TEXT NOT NULL UNIQUE,
          question TEXT NOT NULL DEFAULT '',
          created_at INTEGER NOT NULL,
          updated_at INTEGER NOT NULL
        );
        CREATE TABLE project_documents (
          project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
          document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
          added_at INTEGER NOT NULL,
          PRIMARY KEY (project_id, document_id)
        ) WITHOUT ROWID;
        CREATE INDEX project_documents_document ON project_documents(document_id);
        CREATE TABLE project_claims (
          id INTEGER PRIMARY KEY,
          project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
          seq INTEGER NOT NULL,
          text TEXT NOT NULL,
          key_claim INTEGER NOT NULL DEFAULT 0,
          checked_at INTEGER,
          result TEXT
        );
        CREATE INDEX project_claims_project ON project_claims(project_id, seq);
      `);
    },
  },
  {
    version: 7,
    description: 'answer history: answers with their CRAG metadata (issue 16)',
    async up(sql) {
      // Self-contained: no foreign key to documents, so a kept answer outlives the documents it
      // cites (they are shown as missing). answer: the Answer DTO as JSON without its CRAG
      // metadata, which sits in crag (diagnostics read only that); format: the JSON's version.
      await sql.exec(`
        CREATE TABLE answers (
          id INTEGER PRIMARY KEY,
          created_at INTEGER NOT NULL,
          question TEXT NOT NULL,
          mode TEXT NOT NULL,
          decision TEXT NOT NULL CHECK (decision IN ('CORRECT','AMBIGUOUS','INCORRECT')),
          web_used INTEGER NOT NULL,
          partial INTEGER NOT NULL,
          not_found INTEGER NOT NULL,
          total_ms REAL NOT NULL,
          labels TEXT NOT NULL,
          format INTEGER NOT NULL,
          answer TEXT NOT NULL,
          crag TEXT NOT NULL
        );
        CREATE INDEX answers_created ON answers(created_at);
      `);
    },
  },
  {
    version: 8,
    description:
      'chunk_vectors as a rowid table: one 4 KB overflow page per vector saved (issue 13)',
    async up(sql) {
      // A WITHOUT ROWID row lives in an index b-tree, whose cells keep at most about 1,000 bytes
      // on a 4 KB page: every vector row (1 KB blob + keys) spilled its tail into an overflow page
      // of its own, 4.7 KB per 512-dim vector instead of 1.4 KB (100k chunks: 468 MB vs 141 MB,
      // reports/hybrid-memory-100k.json). Same columns, key, foreign key and index; every
      // query orders by chunk_id explicitly, so results are unchanged. A vector whose chunk is gone
      // (foreign keys were off when it was left) is dropped instead of failing the upgrade.
      await sql.exec(`
        CREATE TABLE chunk_vectors_rowid (
          chunk_id INTEGER NOT NULL REFERENCES chunks(id) ON DELETE CASCADE,
          model_id TEXT NOT NULL,
          model_version TEXT NOT NULL,
          dim INTEGER NOT NULL,
          text_hash TEXT NOT NULL,
          vector BLOB NOT NULL CHECK (length(vector) = 2 * dim),
          PRIMARY KEY (chunk_id, model_id, model_version)
        );
        INSERT INTO chunk_vectors_rowid SELECT chunk_id, model_id, model_version, dim, text_hash, vector
          FROM chunk_vectors WHERE chunk_id IN (SELECT id FROM chunks)
          ORDER BY chunk_id, model_id, model_version;
        DROP TABLE chunk_vectors;
        ALTER TABLE chunk_vectors_rowid RENAME TO chunk_vectors;
        CREATE INDEX chunk_vectors_model_hash ON chunk_vectors(model_id, model_version, text_hash);
      `);
    },
  },
  {
    version: 9,
    description:
      'each vector stored once: vector_cache keeps only vectors of deleted chunks (issue 13)',
    async up(sql) {
      // Reuse by text hash already reads chunk_vectors (indexed on model and text hash), so the
      // cache only has to outlive chunks: a trigger keeps a chunk vector when its row is deleted
      // (a changed file's chunks are replaced; its unchanged paragraphs come back with the same
      // hash). Copies of live vectors go: at 100k chunks 102 MB of the file, 1 GB at 1M.
      // used_at is milliseconds since 1970, as the store writes it.
      await sql.exec(`
        DELETE FROM vector_cache WHERE EXISTS (
          SELECT 1 FROM chunk_vectors v
          WHERE v.model_id || '@' || v.model_version = vector_cache.model
            AND v.text_hash = vector_cache.text_hash);
        CREATE TRIGGER chunk_vectors_keep_deleted AFTER DELETE ON chunk_vectors BEGIN
          INSERT OR REPLACE INTO vector_cache (model, text_hash, vector, used_at)
          VALUES (old.model_id || '@' || old.model_version, old.text_hash, old.vector,
                  CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER));
        END;
      `);
    },
  },
  {
    version: 10,
    description: 'the persisted vector index in 1 MB parts instead of one blob',
    async up(sql) {
      // One blob of the whole index (112 MB at 100k chunks, about 900 MB at 1M) had to be held
      // whole, and copied, in wa-sqlite's WASM memory to be written or read; that memory never
      // shrinks (a save at 100k grew the worker by 440 MB). Parts are written and read one at a
      // time. A blob saved before this migration is still read (vectors.ts loadIndex) until the
      // next save replaces it with parts: the index is not rebuilt on upgrade.
      await sql.exec(`
        CREATE TABLE vector_index_parts (
          model TEXT NOT NULL,
          part INTEGER NOT NULL,
          bytes BLOB NOT NULL,
          PRIMARY KEY (model, part)
        );
      `);
    },
  },
  // Bibliographic data (issue 28 item 4). Kept as its own migration: the merge may renumber it.
  {
    version: 11,
    description: 'bibliographic data per document: title, authors, year, DOI, arXiv id, source',
    async up(sql) {
      // One record per document, gone with it. `source` says who wrote it (pdf guess, an
      // imported reference file, Zotero, the user) so an import never overwrites a user's edit.
      await sql.exec(`
        CREATE TABLE document_biblio (
          document_id INTEGER PRIMARY KEY REFERENCES documents(id) ON DELETE CASCADE,
          title TEXT,
          authors TEXT NOT NULL DEFAULT '[]',
          year INTEGER,
          doi TEXT,
          arxiv TEXT,
          container TEXT,
          type TEXT,
          url TEXT,
          source TEXT NOT NULL CHECK (source IN ('pdf','bibtex','ris','csl-json','zotero','user')),
          updated_at INTEGER NOT NULL
        );
        CREATE INDEX document_biblio_doi ON document_biblio(doi);
      `);
    },
  },
  {
    version: 12,
    description: "where each page of a PDF starts in the document's text",
    async up(sql) {
      // JSON [[page, offset], ...] (workers/shared/pages.ts); NULL for documents without pages,
      // and for PDFs imported before: their next re-import fills it.
      await sql.exec('ALTER TABLE documents ADD COLUMN page_starts TEXT');
    },
  },
  {
    version: 13,
    description: "where each outline section of a PDF starts in the document's text",
    async up(sql) {
      // JSON [[offset, [title, ...]], ...] (workers/shared/sections.ts); NULL for documents without
      // an outline, and for PDFs imported before: their next re-import fills it.
      await sql.exec('ALTER TABLE documents ADD COLUMN sections TEXT');
    },
  },
  {
    version: 14,
    description: 'chunks of contents and index pages, ranked below other matches in search',
    async up(sql) {
      // 1 for a chunk that reads as a contents or index page (workers/shared/contents-lines.ts);
      // chunks stored before are read once here (no other rule needs their text again).
      await sql.exec('ALTER TABLE chunks ADD COLUMN contents INTEGER NOT NULL DEFAULT 0');
      const flagged: number[] = [];
      await sql.each('SELECT id, text FROM chunks', [], (row) => {
        if (isContentsChunk(String(row.text))) flagged.push(Number(row.id));
      });
      if (flagged.length)
        await sql.run(
          'UPDATE chunks SET contents = 1 WHERE id IN (SELECT value FROM json_each(?))',
          [JSON.stringify(flagged)],
        );
    },
  },
  {
    version: 15,
    description: "each chunk's outline section, indexed with its document's title",
    async up(sql) {
      // The last two levels of the section a chunk starts in (workers/shared/sections.ts), NULL
      // without an outline. The FTS index reads a chunk's title field as the document's title plus
      // that section, so "load command" finds the chunks under the heading "load". Chunks stored
      // before have no section: their title field reads as it did, and the index stays in step.
      await sql.exec(`
        ALTER TABLE chunks ADD COLUMN section TEXT;
        DROP VIEW chunks_fts_source;
        CREATE VIEW chunks_fts_source AS
          SELECT c.id AS id, c.document_id AS document_id,
                 d.title || coalesce(' ' || c.section, '') AS title, c.text AS body
          FROM chunks c JOIN documents d ON d.id = c.document_id;
      `);
    },
  },
];

/**
 * Recomputes term_stats from the FTS index (migration, and after a library import replaced every
 * row). One pass over the index's instances: heavy, but only on these rare occasions.
 */
export async function rebuildTermStats(sql: Sql): Promise<void> {
  await sql.exec(`
    CREATE VIRTUAL TABLE IF NOT EXISTS temp.sift_stats_vi USING fts5vocab(main, chunks_fts, instance);
    DELETE FROM term_stats;
    INSERT INTO term_stats (term, docs, chunks)
      SELECT v.term, count(DISTINCT c.document_id), count(DISTINCT v.doc)
      FROM temp.sift_stats_vi v JOIN chunks c ON c.id = v.doc
      GROUP BY v.term;
    DROP TABLE temp.sift_stats_vi;
  `);
}

export const SCHEMA_VERSION = MIGRATIONS.length;

export async function readUserVersion(sql: Sql): Promise<number> {
  const row = await sql.get<{ user_version: number }>('PRAGMA user_version');
  return Number(row?.user_version ?? 0);
}

/**
 * Brings the database to the latest version in one transaction (all pending steps or none).
 * @returns the version before and after
 * @throws AppError SCHEMA_TOO_NEW when the file was written by a newer Sift; DB_* on SQL errors
 */
export async function migrate(
  sql: Sql,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<{ from: number; to: number }> {
  const latest = migrations.length;
  return sql.transaction(async () => {
    const from = await readUserVersion(sql);
    if (from > latest) {
      throw createError('SCHEMA_TOO_NEW', {
        reason: `The library has schema version ${from}; this Sift knows up to ${latest}.`,
        found: from,
        supported: latest,
      });
    }
    for (const migration of migrations.slice(from)) {
      await migration.up(sql);
      await sql.exec(`PRAGMA user_version = ${migration.version}`);
    }
    return { from, to: Math.max(from, latest) };
  });
}
