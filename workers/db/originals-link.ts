// Original PDFs as the library serves them: read by document id, counted for the storage view,
// and pruned after every write that can orphan one (delete, replace, library import).
// The folder (OPFS or memory) is composed by the caller; see workers/store/originals.ts.
import { createError } from '../shared/errors';
import type { OriginalsApi } from '../shared/originals-api';
import type { Originals } from '../store/originals';
import type { Sql } from '../store/sql';

const PDF = 'application/pdf';

/** Content hashes of the library's PDFs: the originals that must stay. */
export async function livePdfHashes(sql: Sql): Promise<Set<string>> {
  const rows = await sql.all<{ h: string }>(
    'SELECT DISTINCT content_hash AS h FROM documents WHERE mime = ?',
    [PDF],
  );
  return new Set(rows.map((r) => r.h));
}

export function createOriginalsLink(
  ready: () => Promise<{ sql: Sql; originals: Originals | null }>,
): OriginalsApi & { prune(): Promise<void> } {
  return {
    async getOriginal(documentId) {
      const { sql, originals } = await ready();
      const row = await sql.get<{ hash: string; mime: string }>(
        'SELECT content_hash AS hash, mime FROM documents WHERE id = ?',
        [documentId],
      );
      if (!row) throw createError('NOT_FOUND', { reason: `Document ${documentId} was deleted.` });
      if (row.mime !== PDF || !originals) return null;
      return originals.read(row.hash);
    },
    async originalsUsage() {
      const { originals } = await ready();
      return originals ? originals.usage() : { files: 0, bytes: 0 };
    },
    /** Never fails the write it follows: a file left behind is removed by the next prune. */
    async prune() {
      const { sql, originals } = await ready();
      await originals?.prune(() => livePdfHashes(sql)).catch(() => undefined);
    },
  };
}
