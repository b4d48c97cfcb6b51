// The filters of a lexical ranking: their validation (INVALID_ARGUMENT before any SQL runs) and
// the chunks they allow, decided by FTS5 MATCH joined with the documents (path glob and
// non-ASCII `contains` checked in JS, with full Unicode lower-casing).
import { createError } from '../shared/errors';
import { gradesAtLeast, OWN_DOCUMENT_GRADE, type SearchFilters } from '../shared/types';
import { compileGlob } from './glob';
import type { ParsedQuery } from './lexical-query';
import type { Sql, SqlValue } from './sql';

/** @throws AppError INVALID_ARGUMENT when a filter has the wrong type or value */
export function validateFilters(filters: SearchFilters | undefined): void {
  if (!filters) return;
  const bad = (what: string) =>
    createError('INVALID_ARGUMENT', { reason: `Search filter ${what} is not valid.` });
  if (filters.pathGlob !== undefined && typeof filters.pathGlob !== 'string') throw bad('pathGlob');
  if (
    filters.mime !== undefined &&
    (!Array.isArray(filters.mime) || filters.mime.some((m) => typeof m !== 'string'))
  )
    throw bad('mime');
  for (const key of ['modifiedAfter', 'modifiedBefore'] as const) {
    const v = filters[key];
    if (v !== undefined && (typeof v !== 'number' || !Number.isFinite(v))) throw bad(key);
  }
  if (filters.contains !== undefined && typeof filters.contains !== 'string') throw bad('contains');
  if (filters.project !== undefined && !Number.isInteger(filters.project)) throw bad('project');
  if (filters.minGrade !== undefined && !'ABCDE'.includes(filters.minGrade)) throw bad('minGrade');
}

/** LIKE pattern for a literal substring: %, _ and the escape character itself are escaped. */
export function likeContains(needle: string): string {
  return `%${needle.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * Chunks allowed to score, or null when every chunk holding a query stem may. Without filters
 * or phrases they are exactly the chunks holding one of the query stems, which the postings
 * list anyway; otherwise FTS5 MATCH (with the documents join for filters) decides.
 */
export async function candidateChunks(
  sql: Sql,
  parsed: ParsedQuery & { match: string },
  filters: SearchFilters | undefined,
  singleStems: boolean,
  size: number,
): Promise<Uint8Array | null | 'none'> {
  const where: string[] = ['chunks_fts MATCH ?'];
  const binds: SqlValue[] = [parsed.match];
  if (filters?.mime && filters.mime.length > 0) {
    where.push(`d.mime IN (${filters.mime.map(() => '?').join(', ')})`);
    binds.push(...filters.mime);
  }
  if (filters?.modifiedAfter !== undefined) {
    where.push('d.modified >= ?');
    binds.push(filters.modifiedAfter);
  }
  if (filters?.modifiedBefore !== undefined) {
    where.push('d.modified < ?');
    binds.push(filters.modifiedBefore);
  }
  if (filters?.project !== undefined) {
    where.push('d.id IN (SELECT document_id FROM project_documents WHERE project_id = ?)');
    binds.push(filters.project);
  }
  if (filters?.minGrade !== undefined) {
    const grades = gradesAtLeast(filters.minGrade);
    where.push(`COALESCE(d.quality_grade, ?) IN (${grades.map(() => '?').join(', ')})`);
    binds.push(OWN_DOCUMENT_GRADE, ...grades);
  }
  // LIKE folds ASCII case only: ASCII needles are filtered in SQL (literal, wildcards
  // escaped); others in JS with full Unicode lower-casing.
  const needle = filters?.contains ?? '';
  const unicodeNeedle = [...needle].some((c) => c.charCodeAt(0) > 0x7f)
    ? needle.toLowerCase()
    : null;
  if (needle && !unicodeNeedle) {
    where.push("c.text LIKE ? ESCAPE '\\'");
    binds.push(likeContains(needle));
  }
  const pathRe = filters?.pathGlob ? compileGlob(filters.pathGlob) : null;
  const needsJoin = where.length > 1 || pathRe !== null || unicodeNeedle !== null;
  if (!needsJoin && parsed.phrases.length === 0 && singleStems) return null;
  const allowed = new Uint8Array(size);
  let any = false;
  await sql.each(
    needsJoin
      ? `SELECT c.id AS id, d.path AS path ${unicodeNeedle ? ', c.text AS text' : ''}
         FROM chunks_fts f
         JOIN chunks c ON c.id = f.rowid
         JOIN documents d ON d.id = c.document_id
         WHERE ${where.join(' AND ')}`
      : 'SELECT rowid AS id FROM chunks_fts WHERE chunks_fts MATCH ?',
    binds,
    (row) => {
      if (pathRe && !pathRe.test(String(row.path))) return;
      if (unicodeNeedle && !String(row.text).toLowerCase().includes(unicodeNeedle)) return;
      const id = Number(row.id);
      if (id < allowed.length) [allowed[id], any] = [1, true];
    },
  );
  return any ? allowed : 'none';
}
