// Posting lists of the lexical index as packed typed arrays, and a cache of the long ones kept
// while the library is unchanged: reading a common stem's list out of SQLite costs about 2 µs per
// chunk, scoring it from memory a few ns. Pure data structures: must not import anything.

/** The chunks holding one stem, with its title and body counts in each (parallel arrays). */
export interface PostingList {
  ids: Int32Array;
  tfTitle: Int32Array;
  tfBody: Int32Array;
}

/**
 * Packs the counts of `touched` chunks out of scratch arrays indexed by chunk id, and clears
 * those scratch entries (so the arrays can serve the next stem).
 */
export function packPostings(
  touched: readonly number[],
  tfTitle: Int32Array,
  tfBody: Int32Array,
): PostingList {
  const n = touched.length;
  const list = { ids: new Int32Array(n), tfTitle: new Int32Array(n), tfBody: new Int32Array(n) };
  for (let i = 0; i < n; i++) {
    const id = touched[i]!;
    list.ids[i] = id;
    list.tfTitle[i] = tfTitle[id]!;
    list.tfBody[i] = tfBody[id]!;
    tfTitle[id] = 0;
    tfBody[id] = 0;
  }
  return list;
}

/**
 * Least-recently-used posting lists of one index version, bounded by their total entries. Only
 * lists of at least `minLength` chunks are kept (short lists are cheap to read again). `reset`
 * with a new version drops everything: a changed library has changed lists.
 */
export class PostingCache {
  private readonly lists = new Map<string, PostingList>();
  private entries = 0;
  private version: unknown = undefined;

  constructor(
    private readonly maxEntries: number,
    private readonly minLength: number,
  ) {}

  /** Drops every list unless `version` is the one the lists were read at. */
  reset(version: unknown): void {
    if (version === this.version) return;
    this.version = version;
    this.lists.clear();
    this.entries = 0;
  }

  has(stem: string): boolean {
    return this.lists.has(stem);
  }

  get(stem: string): PostingList | undefined {
    const list = this.lists.get(stem);
    if (list) {
      this.lists.delete(stem); // re-insert: Map order is the recency order
      this.lists.set(stem, list);
    }
    return list;
  }

  set(stem: string, list: PostingList): void {
    const n = list.ids.length;
    if (n < this.minLength || n > this.maxEntries || this.lists.has(stem)) return;
    for (const [old, oldList] of this.lists) {
      if (this.entries + n <= this.maxEntries) break;
      this.lists.delete(old);
      this.entries -= oldList.ids.length;
    }
    this.lists.set(stem, list);
    this.entries += n;
  }

  /** Entries held (for tests and reports). */
  get size(): number {
    return this.entries;
  }
}
