// Chunk look-ups the semantic side of search needs from SQL: which chunks the search filters
// allow (pre-retrieval filtering, CFS-012), and each chunk's path and sequence for the
// deterministic tie-breaks.
import { gradesAtLeast, OWN_DOCUMENT_GRADE, type SearchFilters } from '../shared/types';
import { compileGlob } from './glob';
import { batchedInQueue } from './queue-batch';
import type { Sql, SqlValue } from './sql';

export interface ChunkLookup {
  /** Ids of chunks that pass every filter; null when no filter is set (everything passes). */
  allowedChunkIds(filters: SearchFilters): Promise<Set<number> | null>;
  /** Path and sequence of each chunk that still exists. */
  chunkKeys(chunkIds: number[]): Promise<Map<number, { path: string; seq: number }>>;
  /** Chunk texts (for pseudo-relevance feedback). */
  chunkTexts(chunkIds: number[]): Promise<Map<number, string>>;
  /** Chunks with their document's path and title and their exact offsets (answer passages). */
  chunkRows(chunkIds: number[]): Promise<Map<number, ChunkRow>>;
  /** The document a chunk belongs to; null when the chunk no longer exists. */
  documentOfChunk(chunkId: number): Promise<number | null>;
}

export interface ChunkRow {
  chunkId: number;
  documentId: number;
  path: string;
  title: string;
  seq: number;
  /** Offsets of the chunk in the document text (exact). */
  start: number;
  end: number;
  text: string;
}

function hasFilter(f: SearchFilters): boolean {
  return Boolean(
    f.pathGlob ||
    (f.mime && f.mime.length > 0) ||
    f.modifiedAfter !== undefined ||
    f.modifiedBefore !== undefined ||
    f.contains ||
    f.project !== undefined ||
    f.minGrade !== undefined,
  );
}

type ChunkKey = { path: string; seq: number };

/** Ids of the chunks `filters` allow (inside a job of the connection's queue). */
async function allowedNow(sql: Sql, filters: SearchFilters): Promise<Set<number>> {
  const where: string[] = [];
  const binds: SqlValue[] = [];
  if (filters.mime && filters.mime.length > 0) {
    where.push(`d.mime IN (${filters.mime.map(() => '?').join(', ')})`);
    binds.push(...filters.mime);
  }
  if (filters.modifiedAfter !== undefined) {
    where.push('d.modified >= ?');
    binds.push(filters.modifiedAfter);
  }
  if (filters.modifiedBefore !== undefined) {
    where.push('d.modified < ?');
    binds.push(filters.modifiedBefore);
  }
  if (filters.project !== undefined) {
    where.push('d.id IN (SELECT document_id FROM project_documents WHERE project_id = ?)');
    binds.push(filters.project);
  }
  if (filters.minGrade !== undefined) {
    const grades = gradesAtLeast(filters.minGrade);
    where.push(`COALESCE(d.quality_grade, ?) IN (${grades.map(() => '?').join(', ')})`);
    binds.push(OWN_DOCUMENT_GRADE, ...grades);
  }
  const pathRe = filters.pathGlob ? compileGlob(filters.pathGlob) : null;
  const needle = filters.contains ? filters.contains.toLowerCase() : null;
  const rows = await sql.all<{ id: number; path: string; text: string | null }>(
    `SELECT c.id AS id, d.path AS path${needle ? ', c.text AS text' : ''}
       FROM chunks c JOIN documents d ON d.id = c.document_id
       ${where.length ? `WHERE ${where.join(' AND ')}` : ''}`,
    binds,
  );
  const allowed = new Set<number>();
  for (const r of rows) {
    if (pathRe && !pathRe.test(String(r.path))) continue;
    // Full Unicode lower-casing (LIKE folds ASCII only), same rule as the lexical side.
    if (
      needle &&
      !String(r.text ?? '')
        .toLowerCase()
        .includes(needle)
    )
      continue;
    allowed.add(Number(r.id));
  }
  return allowed;
}

export function createChunkLookup(sql: Sql): ChunkLookup {
  // Look-ups that wait in the connection's queue together share one query (a plan's semantic
  // sides, whose vectors arrive together); each gets the keys of its own chunks.
  const keysInQueue = batchedInQueue<number[], Map<number, ChunkKey>>(
    (fn) => sql.serialized(fn),
    async (lists) => {
      const rows = await sql.all<{ id: number; path: string; seq: number }>(
        `SELECT c.id AS id, d.path AS path, c.seq AS seq FROM chunks c
         JOIN documents d ON d.id = c.document_id
         WHERE c.id IN (SELECT value FROM json_each(?))`,
        [JSON.stringify([...new Set(lists.flat())])],
      );
      const all = new Map(
        rows.map((r) => [Number(r.id), { path: String(r.path), seq: Number(r.seq) }]),
      );
      return lists.map((ids) => {
        const out = new Map<number, ChunkKey>();
        for (const id of ids) {
          const key = all.get(id);
          if (key) out.set(id, key);
        }
        return { status: 'fulfilled' as const, value: out };
      });
    },
  );
  // A plan's retrievals ask for the same filters at once: one scan serves them (the same set,
  // which callers only read).
  const allowedInQueue = batchedInQueue<SearchFilters, Set<number>>(
    (fn) => sql.serialized(fn),
    async (list) => {
      const byKey = new Map<string, PromiseSettledResult<Set<number>>>();
      for (const filters of list) {
        const key = JSON.stringify(filters);
        if (byKey.has(key)) continue;
        byKey.set(
          key,
          await allowedNow(sql, filters).then(
            (value) => ({ status: 'fulfilled' as const, value }),
            (reason: unknown) => ({ status: 'rejected' as const, reason }),
          ),
        );
      }
      return list.map((filters) => byKey.get(JSON.stringify(filters))!);
    },
  );
  return {
    async allowedChunkIds(filters) {
      return hasFilter(filters) ? allowedInQueue(filters) : null;
    },

    async chunkKeys(chunkIds) {
      if (chunkIds.length === 0) return new Map<number, ChunkKey>();
      return keysInQueue(chunkIds);
    },

    async chunkTexts(chunkIds) {
      const rows = await sql.serialized(() =>
        sql.all<{ id: number; text: string }>(
          'SELECT id, text FROM chunks WHERE id IN (SELECT value FROM json_each(?))',
          [JSON.stringify(chunkIds)],
        ),
      );
      return new Map(rows.map((r) => [Number(r.id), String(r.text)]));
    },

    async chunkRows(chunkIds) {
      const rows = await sql.serialized(() =>
        sql.all<ChunkRow>(
          `SELECT c.id AS chunkId, c.document_id AS documentId, d.path AS path, d.title AS title,
                  c.seq AS seq, c.start AS start, c."end" AS "end", c.text AS text
           FROM chunks c JOIN documents d ON d.id = c.document_id
           WHERE c.id IN (SELECT value FROM json_each(?))`,
          [JSON.stringify(chunkIds)],
        ),
      );
      return new Map(rows.map((r) => [Number(r.chunkId), r]));
    },
    async documentOfChunk(chunkId) {
      const row = await sql.serialized(() =>
        sql.get<{ d: number }>('SELECT document_id AS d FROM chunks WHERE id = ?', [chunkId]),
      );
      return row ? Number(row.d) : null;
    },
  };
}
