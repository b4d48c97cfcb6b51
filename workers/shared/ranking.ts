// The one deterministic order of ranked lists (CFS-012 section 6): score desc, then document
// path asc, then chunk sequence asc, then chunk id asc (so the order is total even for
// malformed input). Lexical, semantic, fused and planned lists all sort with it.
// Pure: imports nothing.

/** What a ranked item needs for the order; `chunkId` is optional (absent compares equal). */
export interface Rankable {
  score: number;
  path: string;
  seq: number;
  chunkId?: number;
}

/**
 * Score desc, path asc, seq asc, chunk id asc. Paths compare by UTF-16 code units, not locale,
 * so every device sorts alike.
 */
export function compareRanked(a: Rankable, b: Rankable): number {
  if (a.score !== b.score) return b.score - a.score;
  if (a.path !== b.path) return a.path < b.path ? -1 : 1;
  if (a.seq !== b.seq) return a.seq - b.seq;
  return (a.chunkId ?? 0) - (b.chunkId ?? 0);
}
