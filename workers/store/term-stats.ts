// Term statistics for the answer pipeline's weights (IDF): how many chunks hold each word, as the
// FTS5 index counts them (its own stems, through fts5vocab), and how many chunks there are.
// Owns: the temp.sift_chunks_vr vocabulary view.
import type { Sql } from './sql';

export interface TermStats {
  /** Chunks in the library, and per word how many chunks contain it (0: unknown word). */
  docFreq(words: string[]): Promise<{ total: number; df: number[] }>;
}

/**
 * @param stems the index's stemmer (`LexicalSearch.stems`): one stem list per word
 */
export async function createTermStats(
  sql: Sql,
  stems: (words: string[]) => Promise<string[][]>,
): Promise<TermStats> {
  await sql.exec(
    'CREATE VIRTUAL TABLE IF NOT EXISTS temp.sift_chunks_vr USING fts5vocab(main, chunks_fts, row)',
  );
  return {
    async docFreq(words) {
      const stemmed = words.length ? await stems(words) : [];
      const terms = [...new Set(stemmed.flatMap((s) => s.slice(0, 1)))];
      return sql.serialized(async () => {
        const total = await sql.get<{ n: number }>('SELECT count(*) AS n FROM chunks');
        const rows = terms.length
          ? await sql.all<{ term: string; doc: number }>(
              'SELECT term, doc FROM temp.sift_chunks_vr WHERE term IN (SELECT value FROM json_each(?))',
              [JSON.stringify(terms)],
            )
          : [];
        const df = new Map(rows.map((r) => [r.term, Number(r.doc)]));
        return {
          total: Number(total?.n ?? 0),
          df: stemmed.map((s) => (s[0] === undefined ? 0 : (df.get(s[0]) ?? 0))),
        };
      });
    },
  };
}
