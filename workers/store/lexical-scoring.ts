// Scoring one lexical ranking: BM25 of the candidate chunks, term by term in plan order, from
// posting lists read out of FTS5 (long ones cached between queries), with safe top-k pruning of
// long queries: reading stops once no unseen chunk can reach the top, or at the postings budget,
// and the unread terms are then added to the few chunks still in play by re-tokenizing them.
import { bm25Term, forEachInt, type Bm25Context, type Bm25Params } from './lexical-bm25';
import { packPostings, type PostingCache, type PostingList } from './lexical-postings';
import { kthLargest, padded, suffixBounds, type TermPlan } from './lexical-prune';
import type { Sql } from './sql';

/**
 * Work bounds of one ranking (bench/README.md "Long queries"). Reading posting lists costs in
 * proportion to the chunks they list; past POSTINGS_BUDGET entries, the remaining (common) terms
 * only re-rank the POOL_MAX best chunks found so far, and the ranking says so (QueryNotice).
 */
export const POSTINGS_BUDGET = 60_000;
export const POOL_MAX = 200;
/** Re-tokenizing one chunk costs about as much as reading this many posting entries. */
const POOL_COST = 40;
const STEM_CACHE_MAX = 50_000;
/**
 * Runs of characters the unicode61 tokenizer may keep (L*, N*, Co, and the combining marks it
 * folds away): a superset, so stemming each run with the tokenizer itself splits it exactly as
 * the index did.
 */
const TOKEN_RUN_RE = /[\p{L}\p{N}\p{Co}\p{M}]+/gu;

/** Scratch arrays of one ranking, indexed by chunk id. */
interface Accumulator {
  scores: Float64Array;
  /** Chunks with a score, in first-scored order. */
  scored: number[];
  isScored: Uint8Array;
  tfTitle: Int32Array;
  tfBody: Int32Array;
  /** Chunks the current stem occurs in. */
  touched: number[];
  /** The best score so far (a cheap upper bound of the k-th best). */
  best: number;
}

function newAccumulator(size: number): Accumulator {
  return {
    scores: new Float64Array(size),
    scored: [],
    isScored: new Uint8Array(size),
    tfTitle: new Int32Array(size),
    tfBody: new Int32Array(size),
    touched: [],
    best: 0,
  };
}

/** What scoring produced: the chunks whose scores are complete, and the terms read late. */
export interface Scoring {
  acc: Accumulator;
  /** Chunks with complete scores (every query term added). */
  complete: number[];
  /** Terms whose posting lists were not read (added to `complete` chunks afterwards). */
  late: TermPlan[];
  /** False when reading stopped for cost before the bound made it safe. */
  exact: boolean;
  postingsRead: number;
}

/**
 * When the k-th best partial score beats all that the unread terms could add (`rest`), no chunk
 * outside the returned list can reach the top `limit`: the chunks that still can. Null when
 * the bound does not hold yet.
 */
function safeStop(acc: Accumulator, rest: number, limit: number, max: number): number[] | null {
  // The best score bounds the k-th best from above: skip the selection while it cannot pass.
  if (acc.scored.length < limit || !(acc.best > padded(rest))) return null;
  const theta = kthLargest(acc.scores, acc.scored, limit);
  if (!(theta > padded(rest))) return null;
  const floor = theta - padded(rest);
  let n = 0;
  for (const id of acc.scored) if (acc.scores[id]! >= floor && ++n > max) return null;
  return acc.scored.filter((id) => acc.scores[id]! >= floor);
}

/** The `max` ids of highest score (ties by id), or all of them when there are no more. */
function topByScore(scores: Float64Array, ids: number[], max: number): number[] {
  if (ids.length <= max) return ids;
  return [...ids].sort((a, b) => scores[b]! - scores[a]! || a - b).slice(0, max);
}

/** The pruning bounds and caches of `LexicalSearchDeps` (fields of the same names). */
export interface ScoringDeps {
  prune?: boolean;
  postingsBudget?: number;
  poolMax?: number;
  stemCacheMax?: number;
}

/**
 * The scorer of a connection's rankings. `postingCache` keeps long posting lists between queries
 * (null: none); `stemsNow` stems words with the index's tokenizer.
 */
export function createChunkScorer(
  sql: Sql,
  params: Bm25Params,
  deps: ScoringDeps,
  postingCache: PostingCache | null,
  stemsNow: (words: string[]) => Promise<string[][]>,
): {
  scoreChunks(
    ctx: Bm25Context,
    plan: TermPlan[],
    allowed: Uint8Array | null,
    limit: number,
    batch: Map<string, PostingList>,
  ): Promise<Scoring>;
} {
  /**
   * The posting list of `stem`: from the cache, from this batch's reads, or read from the index
   * (and kept for the batch, and cached if long).
   */
  async function postings(
    stem: string,
    acc: Accumulator,
    batch: Map<string, PostingList>,
  ): Promise<PostingList> {
    const cached = postingCache?.get(stem) ?? batch.get(stem);
    if (cached) return cached;
    await readPostings(stem, acc);
    const list = packPostings(acc.touched, acc.tfTitle, acc.tfBody);
    postingCache?.set(stem, list);
    batch.set(stem, list);
    return list;
  }

  /**
   * Every occurrence of `stem` (fts5vocab 'instance'), as two id lists in one row: counted into
   * `tfTitle`/`tfBody` (indexed by chunk id), which is several times faster than one row per
   * chunk. `touched` lists the chunks it occurs in.
   */
  async function readPostings(stem: string, acc: Accumulator): Promise<void> {
    const post = await sql.get<{ t: string | null; b: string | null }>(
      `SELECT group_concat(CASE WHEN col = 'title' THEN doc END) AS t,
              group_concat(CASE WHEN col = 'title' THEN NULL ELSE doc END) AS b
       FROM temp.sift_chunks_vi WHERE term = ?`,
      [stem],
    );
    acc.touched.length = 0;
    const count = (tf: Int32Array, other: Int32Array) => (id: number) => {
      if (id >= tf.length) return; // added since the snapshot (another tab): not yet scored
      if (tf[id] === 0 && other[id] === 0) acc.touched.push(id);
      tf[id] = tf[id]! + 1;
    };
    forEachInt(post?.t ?? null, count(acc.tfTitle, acc.tfBody));
    forEachInt(post?.b ?? null, count(acc.tfBody, acc.tfTitle));
  }

  /** Adds one term's BM25 to every candidate of its posting list. */
  function addStemScores(
    ctx: Bm25Context,
    acc: Accumulator,
    term: TermPlan,
    list: PostingList,
    allowed: Uint8Array | null,
  ): void {
    const { ids, tfTitle, tfBody } = list;
    for (let k = 0; k < ids.length; k++) {
      const id = ids[k]!;
      const [tfT, tfB] = [tfTitle[k]!, tfBody[k]!];
      // Not in the index's size table (not a live row), or not a candidate.
      if (ctx.snap.lenBody[id]! < 0 || (allowed && !allowed[id])) continue;
      const add = bm25Term(params, ctx, term, tfT, tfB, id);
      if (add <= 0) continue;
      if (!acc.isScored[id]) {
        acc.isScored[id] = 1;
        acc.scored.push(id);
      }
      const score = acc.scores[id]! + add;
      acc.scores[id] = score;
      if (score > acc.best) acc.best = score;
    }
  }

  /**
   * BM25 of the candidates, term by term in plan order. With pruning, reading stops once the
   * k-th best partial score beats all that the unread terms could add (then no unseen chunk can
   * reach the top `limit`), or when the postings budget is spent (then the result may miss
   * chunks that only the unread, common terms would have found: `exact` is false).
   */
  async function scoreChunks(
    ctx: Bm25Context,
    plan: TermPlan[],
    allowed: Uint8Array | null,
    limit: number,
    batch: Map<string, PostingList>,
  ): Promise<Scoring> {
    const acc = newAccumulator(ctx.snap.size);
    const rest = suffixBounds(plan);
    const prune = deps.prune !== false;
    const budget = deps.postingsBudget ?? POSTINGS_BUDGET;
    const poolMax = Math.max(limit, deps.poolMax ?? POOL_MAX);
    postingCache?.reset(ctx.snap);
    // Costs count posting entries whether or not a list is in memory, so where reading stops,
    // and with it the ranking, never depends on what earlier queries left in the cache.
    const unread = new Float64Array(plan.length + 1); // posting entries of plan[i..]
    for (let j = plan.length - 1; j >= 0; j--) unread[j] = unread[j + 1]! + plan[j]!.chunks;
    let read = 0;
    let i = 0;
    for (; i < plan.length; i++) {
      const term = plan[i]!;
      if (prune && i > 0) {
        // Stop when it is safe and re-tokenizing the live chunks costs less than reading on
        // (the k-th best is selected every few terms only: it costs a pass over the scores).
        const live = i % 4 === 0 ? safeStop(acc, rest[i]!, limit, poolMax) : null;
        if (live && live.length * POOL_COST < unread[i]!) {
          const late = plan.slice(i);
          await addLateTerms(ctx, acc, late, live);
          return { acc, complete: live, late, exact: true, postingsRead: read };
        }
        if (read + term.chunks > budget) {
          const complete = topByScore(acc.scores, acc.scored, poolMax);
          const late = plan.slice(i);
          await addLateTerms(ctx, acc, late, complete);
          return { acc, complete, late, exact: false, postingsRead: read };
        }
      }
      addStemScores(ctx, acc, term, await postings(term.stem, acc, batch), allowed);
      read += term.chunks;
    }
    return { acc, complete: acc.scored, late: [], exact: true, postingsRead: read };
  }

  // Stems per word, kept across queries (they depend on the tokenizer only, not the library).
  const stemCache = new Map<string, string[]>();
  async function cachedStems(words: string[]): Promise<Map<string, string[]>> {
    let missing = [...new Set(words.filter((w) => !stemCache.has(w)))];
    if (stemCache.size + missing.length > (deps.stemCacheMax ?? STEM_CACHE_MAX)) {
      stemCache.clear(); // every word is missing now, not only the new ones
      missing = [...new Set(words)];
    }
    const stems = await stemsNow(missing);
    missing.forEach((w, i) => stemCache.set(w, stems[i] ?? []));
    return stemCache;
  }

  /** For each word that stems to late terms, their indices in `late` (one per stem it yields). */
  async function lateTermsOfWords(
    words: Set<string>,
    late: TermPlan[],
  ): Promise<Map<string, number[]>> {
    const stems = await cachedStems([...words]);
    const index = new Map(late.map((t, i) => [t.stem, i]));
    const out = new Map<string, number[]>();
    for (const w of words) {
      const ts: number[] = [];
      for (const stem of stems.get(w) ?? []) {
        const t = index.get(stem);
        if (t !== undefined) ts.push(t);
      }
      if (ts.length > 0) out.set(w, ts);
    }
    return out;
  }

  /**
   * Adds terms whose posting lists were not read to a few chunks. Their title and body are cut at
   * every character the tokenizer never keeps and each piece is stemmed by the index's own
   * tokenizer, which gives the term counts the index holds. Terms are added in plan order, so
   * each sum is the one the exhaustive ranking computes.
   */
  async function addLateTerms(
    ctx: Bm25Context,
    acc: Accumulator,
    late: TermPlan[],
    chunks: number[],
  ): Promise<void> {
    if (chunks.length === 0 || late.length === 0) return;
    const rows = await sql.all<{ id: number; title: string; body: string }>(
      'SELECT id, title, body FROM chunks_fts_source WHERE id IN (SELECT value FROM json_each(?))',
      [JSON.stringify(chunks)],
    );
    const pieces = rows.map((r) => [
      String(r.title).match(TOKEN_RUN_RE) ?? [],
      String(r.body).match(TOKEN_RUN_RE) ?? [],
    ]);
    const lateOf = await lateTermsOfWords(new Set(pieces.flat(2)), late);
    const tf = new Map<number, Int32Array>(); // chunk -> [title, body] count per late term
    rows.forEach((r, i) => {
      const counts = new Int32Array(late.length * 2);
      pieces[i]!.forEach((words, col) => {
        for (const w of words)
          for (const t of lateOf.get(w) ?? []) counts[t * 2 + col] = counts[t * 2 + col]! + 1;
      });
      tf.set(Number(r.id), counts);
    });
    late.forEach((term, t) => {
      for (const id of chunks) {
        const counts = tf.get(id);
        if (!counts || counts[t * 2]! + counts[t * 2 + 1]! === 0) continue;
        acc.scores[id] =
          acc.scores[id]! + bm25Term(params, ctx, term, counts[t * 2]!, counts[t * 2 + 1]!, id);
      }
    });
  }

  return { scoreChunks };
}
