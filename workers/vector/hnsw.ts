// HNSW (Malkov & Yashunin, arXiv:1603.09320) over int16 vectors, similarity = exact int dot.
// Owns: the graph (typed arrays: level-0 links, a pool for upper levels), insert, tombstone
// delete, compact-with-repair, filtered search and the HNSW byte format.
// Deterministic: levels come from a hash of the chunk id and every ordering breaks ties by
// (dot desc, id asc), so the same inserts in the same order give the same bytes on every engine.
// The SIMD kernel is injected as a DotKernel.
import { createError } from '../shared/errors';
import { hashId, levelForHash, SectionReader, SectionWriter, sectionParts } from './codec';
import { jsDotKernel } from './dot-kernel';
import {
  corrupt,
  HEADER_BYTES,
  KIND_HNSW,
  readHeader,
  sealChecksum,
  writeHeader,
  type Header,
} from './format';
import { RowIndex } from './row-index';
import { better, SlotHeap } from './rows';
import { checkSearchArgs, enumerableIds, exactScan, filterPredicate, hitsFrom } from './scan';
import type {
  DotKernel,
  HnswBuildConfig,
  VectorHit,
  VectorIndex,
  VectorIndexStats,
  VectorSearchOptions,
} from './types';

/** Levels above this are never drawn (P = M^-16: unreachable in practice, keeps arrays bounded). */
const MAX_LEVEL_CAP = 16;

export const HNSW_DEFAULTS = {
  M: 16,
  efConstruction: 200,
  efSearch: 50,
  levelSeed: 0,
  filterExactMaxAllowed: 4096,
  filterExactMaxFraction: 0.05,
  initialCapacity: 1024,
} as const;

export interface DeserializeOptions {
  /**
   * The caller gives up `bytes` (e.g. fresh from the store): the index keeps its aligned
   * sections as views instead of copying them, so it holds one copy of itself (growing later
   * copies into new arrays as usual). Never for bytes the caller reads or deserializes again.
   */
  adopt?: boolean;
}

export interface HnswDeps {
  kernel?: DotKernel | undefined;
}

type ResolvedConfig = { [K in keyof HnswBuildConfig]-?: Exclude<HnswBuildConfig[K], undefined> };

function resolve(config: HnswBuildConfig): ResolvedConfig {
  const c: ResolvedConfig = { ...HNSW_DEFAULTS, ...stripUndefined(config) } as ResolvedConfig;
  const intAtLeast = (name: string, v: number, min: number): void => {
    if (!Number.isInteger(v) || v < min) {
      throw createError('INVALID_ARGUMENT', {
        reason: `HNSW ${name} must be an integer >= ${min} (got ${v}).`,
      });
    }
  };
  intAtLeast('dim', c.dim, 1);
  intAtLeast('M', c.M, 2);
  if (c.M > 256) intAtLeast('M (at most 256)', -1, 0);
  intAtLeast('efConstruction', c.efConstruction, 1);
  intAtLeast('efSearch', c.efSearch, 1);
  intAtLeast('filterExactMaxAllowed', c.filterExactMaxAllowed, 0);
  if (!(c.filterExactMaxFraction >= 0 && c.filterExactMaxFraction <= 1)) {
    throw createError('INVALID_ARGUMENT', {
      reason: 'HNSW filterExactMaxFraction must lie in [0, 1].',
    });
  }
  c.levelSeed = c.levelSeed >>> 0;
  return c;
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  const out: Partial<T> = {};
  for (const [k, v] of Object.entries(o))
    if (v !== undefined) (out as Record<string, unknown>)[k] = v;
  return out;
}

class HnswIndex extends RowIndex implements VectorIndex {
  readonly kind = 'hnsw' as const;
  private readonly cfg: ResolvedConfig;
  private readonly kernel: DotKernel;
  private readonly M: number;
  /** Called Mmax0 in the paper: level-0 links per node (2*M as the paper recommends). */
  private readonly M0: number;
  private levels: Uint8Array;
  /** Level 0: per row [count, n1..nM0]. */
  private links0: Int32Array;
  /** Row -> offset into `upper` of its level-1 list (-1 when the row has level 0). */
  private upperOff: Int32Array;
  /** Levels >= 1: per row `level` blocks of [count, n1..nM]. */
  private upper: Int32Array;
  private upperLen = 0;
  private entry = -1;
  private maxLevel = 0;
  private visited: Uint32Array;
  private epoch = 0;
  private readonly cand = new SlotHeap(256, false);
  private readonly res = new SlotHeap(256, true);
  private scratchSlots: Int32Array;
  private scratchScores: Int32Array;
  private readonly greedySlots: Int32Array;
  private readonly greedyScores: Int32Array;
  private readonly heuristicScores: Int32Array;
  private readonly connectScores: Int32Array;

  constructor(config: ResolvedConfig, kernel: DotKernel) {
    const cap = Math.max(1, config.initialCapacity);
    super(config.dim, cap);
    this.cfg = config;
    this.kernel = kernel;
    this.M = config.M;
    this.M0 = 2 * config.M;
    this.levels = new Uint8Array(cap);
    this.links0 = new Int32Array(cap * (this.M0 + 1));
    this.upperOff = new Int32Array(cap).fill(-1);
    this.upper = new Int32Array(Math.max(64, (cap >> 2) * (this.M + 1)));
    this.visited = new Uint32Array(cap);
    this.scratchSlots = new Int32Array(this.M0 + 1);
    this.scratchScores = new Int32Array(this.M0 + 1);
    this.greedySlots = new Int32Array(this.M0 + 1);
    this.greedyScores = new Int32Array(this.M0 + 1);
    this.heuristicScores = new Int32Array(this.M0 + 1);
    this.connectScores = new Int32Array(this.M0 + 2);
  }

  // ---- storage -------------------------------------------------------------------------

  private grow(needed: number): void {
    const cap = this.rows.ensure(needed);
    if (!cap) return;
    const lv = new Uint8Array(cap);
    lv.set(this.levels);
    this.levels = lv;
    const l0 = new Int32Array(cap * (this.M0 + 1));
    l0.set(this.links0);
    this.links0 = l0;
    const uo = new Int32Array(cap).fill(-1);
    uo.set(this.upperOff);
    this.upperOff = uo;
    this.visited = new Uint32Array(cap);
    this.epoch = 0;
  }

  private allocUpper(slot: number, level: number): void {
    if (level === 0) {
      this.upperOff[slot] = -1;
      return;
    }
    const need = level * (this.M + 1);
    if (this.upperLen + need > this.upper.length) {
      let cap = this.upper.length;
      while (cap < this.upperLen + need) cap *= 2;
      const u = new Int32Array(cap);
      u.set(this.upper.subarray(0, this.upperLen));
      this.upper = u;
    }
    this.upperOff[slot] = this.upperLen;
    this.upper.fill(0, this.upperLen, this.upperLen + need);
    this.upperLen += need;
  }

  /** The link array of (slot, level); `linkBase` gives the offset of its count cell. */
  private linkArr(level: number): Int32Array {
    return level === 0 ? this.links0 : this.upper;
  }
  private linkBase(slot: number, level: number): number {
    return level === 0 ? slot * (this.M0 + 1) : this.upperOff[slot]! + (level - 1) * (this.M + 1);
  }
  private maxLinks(level: number): number {
    return level === 0 ? this.M0 : this.M;
  }

  private nextEpoch(): number {
    if (++this.epoch === 0xffffffff) {
      this.visited.fill(0);
      this.epoch = 1;
    }
    return this.epoch;
  }

  /** out[j] = dot(q, row slots[j]) for j < count, through the kernel's batch form when it has one. */
  private scoreMany(
    q: Int16Array,
    qOff: number,
    slots: Int32Array,
    count: number,
    out: Int32Array,
  ): void {
    const d = this.dim;
    const vecs = this.rows.vectors;
    if (this.kernel.dotBatch) this.kernel.dotBatch(q, qOff, vecs, slots, count, d, out);
    else for (let j = 0; j < count; j++) out[j] = this.kernel.dot(q, qOff, vecs, slots[j]! * d, d);
  }

  private dotSlots(a: number, b: number): number {
    const d = this.dim;
    return this.kernel.dot(this.rows.vectors, a * d, this.rows.vectors, b * d, d);
  }

  // ---- search primitives ---------------------------------------------------------------

  /** Greedy walk (ef = 1) on one level; returns the local best (slot, score). */
  private greedy(
    q: Int16Array,
    qOff: number,
    slot: number,
    score: number,
    level: number,
  ): [number, number] {
    const ids = this.rows.ids;
    const nbs = this.greedySlots;
    const sc = this.greedyScores;
    let changed = true;
    while (changed) {
      changed = false;
      const arr = this.linkArr(level);
      const base = this.linkBase(slot, level);
      const n = arr[base]!;
      nbs.set(arr.subarray(base + 1, base + 1 + n));
      this.scoreMany(q, qOff, nbs, n, sc);
      for (let j = 0; j < n; j++) {
        const nb = nbs[j]!;
        const s = sc[j]!;
        if (better(s, ids[nb]!, score, ids[slot]!)) {
          slot = nb;
          score = s;
          changed = true;
        }
      }
    }
    return [slot, score];
  }

  /**
   * Algorithm 2 of the paper (hnswlib's searchBaseLayer with an allowed-set): explores from
   * `ep`, keeps the `ef` best nodes for which `accept(slot)` holds in `this.res` (worst on top).
   * Rejected nodes are still walked through, so a filter never disconnects the graph.
   */
  private searchLayer(
    q: Int16Array,
    qOff: number,
    ep: number,
    epScore: number,
    ef: number,
    level: number,
    accept: ((slot: number) => boolean) | null,
  ): SlotHeap {
    const ids = this.rows.ids;
    const visited = this.visited;
    const epoch = this.nextEpoch();
    const cand = this.cand;
    const res = this.res;
    cand.reset(ids);
    res.reset(ids);
    visited[ep] = epoch;
    cand.push(ep, epScore);
    if (!accept || accept(ep)) res.push(ep, epScore);
    const arr = this.linkArr(level);
    const scratch = this.scratchSlots;
    const sc = this.scratchScores;
    while (cand.size > 0) {
      const c = cand.topSlot();
      const cs = cand.topScore();
      if (res.size >= ef && better(res.topScore(), ids[res.topSlot()]!, cs, ids[c]!)) break;
      cand.pop();
      const base = this.linkBase(c, level);
      const n = arr[base]!;
      let m = 0;
      for (let j = 1; j <= n; j++) {
        const nb = arr[base + j]!;
        if (visited[nb] === epoch) continue;
        visited[nb] = epoch;
        scratch[m++] = nb;
      }
      if (m === 0) continue;
      this.scoreMany(q, qOff, scratch, m, sc);
      for (let j = 0; j < m; j++) {
        const nb = scratch[j]!;
        const s = sc[j]!;
        if (res.size < ef || better(s, ids[nb]!, res.topScore(), ids[res.topSlot()]!)) {
          cand.push(nb, s);
          if (!accept || accept(nb)) {
            res.push(nb, s);
            if (res.size > ef) res.pop();
          }
        }
      }
    }
    return res;
  }

  /**
   * Algorithm 4 (the neighbour-selection heuristic, hnswlib's getNeighborsByHeuristic2):
   * walks candidates best first and keeps one only if it is closer to the base than to every
   * neighbour kept so far. Candidates must already be sorted (dot desc, id asc).
   */
  private selectHeuristic(
    slots: Int32Array,
    scores: Float64Array,
    n: number,
    max: number,
    out: Int32Array,
  ): number {
    if (n <= max) {
      out.set(slots.subarray(0, n));
      return n;
    }
    let kept = 0;
    const batched = this.kernel.dotBatch !== undefined;
    const sc = this.heuristicScores;
    const vecs = this.rows.vectors;
    const d = this.dim;
    for (let i = 0; i < n && kept < max; i++) {
      const e = slots[i]!;
      const se = scores[i]!;
      let good = true;
      if (batched) {
        // One boundary crossing for all kept neighbours (a WASM kernel copies rows per call).
        this.scoreMany(vecs, e * d, out, kept, sc);
        for (let r = 0; r < kept; r++) {
          if (sc[r]! > se) {
            good = false;
            break;
          }
        }
      } else {
        for (let r = 0; r < kept; r++) {
          if (this.dotSlots(e, out[r]!) > se) {
            good = false;
            break;
          }
        }
      }
      if (good) out[kept++] = e;
    }
    return kept;
  }

  /** Sorts parallel arrays best first by (dot desc, id asc); n is at most Mmax0 + 1. */
  private sortBestFirst(slots: Int32Array, scores: Float64Array, n: number): void {
    const ids = this.rows.ids;
    for (let i = 1; i < n; i++) {
      const s = slots[i]!;
      const v = scores[i]!;
      let j = i - 1;
      while (j >= 0 && better(v, ids[s]!, scores[j]!, ids[slots[j]!]!)) {
        slots[j + 1] = slots[j]!;
        scores[j + 1] = scores[j]!;
        j--;
      }
      slots[j + 1] = s;
      scores[j + 1] = v;
    }
  }

  /** Adds `from -> to` on `level`, shrinking `from`'s list with the heuristic when full. */
  private connect(from: number, to: number, level: number): void {
    const arr = this.linkArr(level);
    const base = this.linkBase(from, level);
    const n = arr[base]!;
    const max = this.maxLinks(level);
    if (n < max) {
      arr[base + 1 + n] = to;
      arr[base] = n + 1;
      return;
    }
    const slots = new Int32Array(n + 1);
    const scores = new Float64Array(n + 1);
    slots.set(arr.subarray(base + 1, base + 1 + n));
    slots[n] = to;
    const sc = this.connectScores;
    this.scoreMany(this.rows.vectors, from * this.dim, slots, n + 1, sc);
    for (let j = 0; j <= n; j++) scores[j] = sc[j]!;
    this.sortBestFirst(slots, scores, n + 1);
    const out = new Int32Array(max);
    const kept = this.selectHeuristic(slots, scores, n + 1, max, out);
    arr.set(out.subarray(0, kept), base + 1);
    arr[base] = kept;
  }

  private isLive = (slot: number): boolean => this.rows.deleted[slot] === 0;

  /** Algorithm 1 (INSERT) for a row already appended. */
  private link(slot: number): void {
    const level = this.levels[slot]!;
    if (this.entry < 0) {
      this.entry = slot;
      this.maxLevel = level;
      return;
    }
    const vecs = this.rows.vectors;
    const qOff = slot * this.dim;
    let cur = this.entry;
    let curScore = this.dotSlots(slot, cur);
    for (let l = this.maxLevel; l > level; l--)
      [cur, curScore] = this.greedy(vecs, qOff, cur, curScore, l);
    // New links go to live rows only: tombstones still carry traffic but must not gain edges.
    const accept = this.rows.live === this.rows.count ? null : this.isLive;
    for (let l = Math.min(level, this.maxLevel); l >= 0; l--) {
      const res = this.searchLayer(
        this.rows.vectors,
        qOff,
        cur,
        curScore,
        this.cfg.efConstruction,
        l,
        accept,
      );
      const n = res.size;
      if (n === 0) continue;
      const slots = new Int32Array(n);
      const scores = new Float64Array(n);
      res.drainBestFirst(slots, scores);
      const max = this.M;
      const out = new Int32Array(max);
      const kept = this.selectHeuristic(slots, scores, n, max, out);
      const arr = this.linkArr(l);
      const base = this.linkBase(slot, l);
      arr.set(out.subarray(0, kept), base + 1);
      arr[base] = kept;
      for (let j = 0; j < kept; j++) this.connect(out[j]!, slot, l);
      cur = slots[0]!;
      curScore = scores[0]!;
    }
    if (level > this.maxLevel) {
      this.entry = slot;
      this.maxLevel = level;
    }
  }

  // ---- public API -----------------------------------------------------------------------

  add(id: number, vector: Int16Array): void {
    this.rows.validate(id, vector);
    this.rows.tombstone(id); // replacing: the old row becomes a tombstone until compact()
    this.grow(this.rows.count + 1);
    const slot = this.rows.append(id, vector);
    const level = levelForHash(hashId(id, this.cfg.levelSeed), this.M, MAX_LEVEL_CAP);
    this.levels[slot] = level;
    const base = slot * (this.M0 + 1);
    this.links0[base] = 0;
    this.allocUpper(slot, level);
    this.link(slot);
  }

  search(query: Int16Array, k: number, options: VectorSearchOptions = {}): VectorHit[] {
    this.rows.validateQuery(query);
    checkSearchArgs(k, options);
    const rows = this.rows;
    if (rows.live === 0) return [];
    const pred = filterPredicate(options.filter);
    if (options.exact)
      return exactScan(rows, this.kernel, query, k, pred, enumerableIds(options.filter));
    const f = options.filter;
    if (f && typeof f !== 'function') {
      const allowed = f.size;
      if (
        allowed <= this.cfg.filterExactMaxAllowed ||
        allowed <= this.cfg.filterExactMaxFraction * rows.live
      ) {
        return exactScan(rows, this.kernel, query, k, pred, enumerableIds(f));
      }
    }
    const ef = Math.max(options.ef ?? this.cfg.efSearch, k);
    const ids = rows.ids;
    const deleted = rows.deleted;
    let accept: ((slot: number) => boolean) | null = null;
    if (pred) accept = (slot) => deleted[slot] === 0 && pred(ids[slot]!);
    else if (rows.live !== rows.count) accept = this.isLive;
    let cur = this.entry;
    let curScore = this.kernel.dot(query, 0, rows.vectors, cur * this.dim, this.dim);
    for (let l = this.maxLevel; l > 0; l--)
      [cur, curScore] = this.greedy(query, 0, cur, curScore, l);
    const res = this.searchLayer(query, 0, cur, curScore, ef, 0, accept);
    const n = res.size;
    const slots = new Int32Array(n);
    const scores = new Float64Array(n);
    res.drainBestFirst(slots, scores);
    return hitsFrom(rows, slots, scores, Math.min(k, n));
  }

  /**
   * Repairs every live node that links to a tombstone (candidates: its live links plus the live
   * nodes reachable through tombstones, re-selected with the heuristic, as hnswlib's
   * repairConnectionsForUpdate does), then drops the tombstoned rows and renumbers rows in order.
   */
  compact(): void {
    const rows = this.rows;
    if (rows.live === rows.count) return;
    const seen = new Map<number, true>();
    for (let s = 0; s < rows.count; s++) {
      if (rows.deleted[s]) continue;
      for (let l = 0; l <= this.levels[s]!; l++) this.repairLinks(s, l, seen);
    }
    this.renumberRows();
  }

  /** Re-selects node `s`'s links at level `l` if any of them points to a tombstone. */
  private repairLinks(s: number, l: number, seen: Map<number, true>): void {
    const deleted = this.rows.deleted;
    const arr = this.linkArr(l);
    const base = this.linkBase(s, l);
    const n = arr[base]!;
    let touched = false;
    for (let j = 1; j <= n; j++) if (deleted[arr[base + j]!]) touched = true;
    if (!touched) return;
    const live = this.liveBehindTombstones(s, l, seen);
    const slots = Int32Array.from(live);
    const scores = new Float64Array(live.length);
    for (let j = 0; j < live.length; j++) scores[j] = this.dotSlots(s, slots[j]!);
    sortBestFirstGeneric(slots, scores, this.rows.ids);
    const max = this.maxLinks(l);
    const out = new Int32Array(max);
    const kept = this.selectHeuristic(slots, scores, slots.length, max, out);
    arr.set(out.subarray(0, kept), base + 1);
    arr[base] = kept;
  }

  /** The live nodes reachable from `s`'s level-`l` links, walking through tombstones (bounded). */
  private liveBehindTombstones(s: number, l: number, seen: Map<number, true>): number[] {
    const deleted = this.rows.deleted;
    const arr = this.linkArr(l);
    const base = this.linkBase(s, l);
    const n = arr[base]!;
    seen.clear();
    const live: number[] = [];
    const stack: number[] = [];
    for (let j = 1; j <= n; j++) stack.push(arr[base + j]!);
    let hops = 0;
    while (stack.length && hops < 256) {
      const x = stack.shift()!;
      if (x === s || seen.has(x)) continue;
      seen.set(x, true);
      if (!deleted[x]) {
        live.push(x);
        continue;
      }
      hops++;
      if (this.levels[x]! < l) continue;
      const xb = this.linkBase(x, l);
      const xn = arr[xb]!;
      for (let j = 1; j <= xn; j++) stack.push(arr[xb + j]!);
    }
    return live;
  }

  /** Drops tombstoned rows: live rows keep their order; links and the upper pool are rewritten. */
  private renumberRows(): void {
    const rows = this.rows;
    const oldCount = rows.count;
    const old = {
      levels: this.levels,
      links0: this.links0,
      upper: this.upper,
      upperOff: this.upperOff,
    };
    const oldEntry = this.entry;
    const map = rows.compactRows();
    const cap = rows.capacity;
    this.levels = new Uint8Array(cap);
    this.links0 = new Int32Array(cap * (this.M0 + 1));
    this.upperOff = new Int32Array(cap).fill(-1);
    this.upper = new Int32Array(Math.max(64, old.upper.length));
    this.upperLen = 0;
    this.visited = new Uint32Array(cap);
    this.epoch = 0;
    let entry = -1;
    let maxLevel = 0;
    for (let s = 0; s < oldCount; s++) {
      const t = map[s]!;
      if (t < 0) continue;
      const level = old.levels[s]!;
      this.copyNode(old, s, t, level, map);
      if (entry < 0 || level > maxLevel) {
        entry = t;
        maxLevel = level;
      }
    }
    // Keep the old entry point when it survived: it is the top of the graph already.
    if (oldEntry >= 0 && map[oldEntry]! >= 0 && old.levels[oldEntry]! >= maxLevel)
      entry = map[oldEntry]!;
    this.entry = entry;
    this.maxLevel = entry < 0 ? 0 : maxLevel;
  }

  /** Copies old row `s`'s level and links (renumbered through `map`) to new row `t`. */
  private copyNode(
    old: { levels: Uint8Array; links0: Int32Array; upper: Int32Array; upperOff: Int32Array },
    s: number,
    t: number,
    level: number,
    map: Int32Array,
  ): void {
    const w0 = this.M0 + 1;
    const wu = this.M + 1;
    this.levels[t] = level;
    copyLinks(old.links0, s * w0, this.links0, t * w0, map);
    this.allocUpper(t, level);
    for (let l = 1; l <= level; l++) {
      copyLinks(
        old.upper,
        old.upperOff[s]! + (l - 1) * wu,
        this.upper,
        this.upperOff[t]! + (l - 1) * wu,
        map,
      );
    }
  }

  serialize(): Uint8Array {
    const { w, header } = this.sections();
    const out = new Uint8Array(w.length);
    writeHeader(out, header);
    w.writeInto(out);
    sealChecksum(out);
    return out;
  }

  serializeParts(partBytes = 1 << 20): Iterable<Uint8Array> {
    const { w, header } = this.sections();
    const head = new Uint8Array(HEADER_BYTES);
    writeHeader(head, header, w.length);
    return sectionParts(w, head, Math.max(1, Math.floor(partBytes)));
  }

  /** The persisted sections (views on the live arrays) and the header describing them. */
  private sections(): { w: SectionWriter; header: Header } {
    const rows = this.rows;
    const n = rows.count;
    const w = new SectionWriter(HEADER_BYTES);
    w.add(rows.ids.subarray(0, n));
    w.add(rows.deleted.subarray(0, n));
    w.add(this.levels.subarray(0, n));
    w.add(rows.vectors.subarray(0, n * this.dim));
    w.add(this.links0.subarray(0, n * (this.M0 + 1)));
    w.add(this.upperOff.subarray(0, n));
    w.add(this.upper.subarray(0, this.upperLen));
    const header: Header = {
      kind: KIND_HNSW,
      dim: this.dim,
      rows: n,
      M: this.M,
      efConstruction: this.cfg.efConstruction,
      efSearch: this.cfg.efSearch,
      levelSeed: this.cfg.levelSeed,
      entry: this.entry,
      maxLevel: this.maxLevel,
      upperLength: this.upperLen,
      filterExactMaxAllowed: this.cfg.filterExactMaxAllowed,
      filterExactMaxFraction: this.cfg.filterExactMaxFraction,
    };
    return { w, header };
  }

  stats(): VectorIndexStats {
    return {
      kind: 'hnsw',
      dim: this.dim,
      size: this.rows.live,
      deleted: this.rows.count - this.rows.live,
      bytes:
        this.rows.bytes() +
        this.levels.byteLength +
        this.links0.byteLength +
        this.upperOff.byteLength +
        this.upper.byteLength +
        this.visited.byteLength,
      maxLevel: this.maxLevel,
    };
  }

  /** Restores the arrays read from bytes after validating every link. */
  restore(
    bytes: Uint8Array,
    n: number,
    maxLevel: number,
    entry: number,
    upperLen: number,
    adopt: boolean,
  ): void {
    const r = new SectionReader(bytes, HEADER_BYTES, adopt);
    const ids = r.float64(n);
    const deleted = r.uint8(n);
    const levels = r.uint8(n);
    const vectors = r.int16(n * this.dim);
    const links0 = r.int32(n * (this.M0 + 1));
    const upperOff = r.int32(n);
    const upper = r.int32(upperLen);
    if (r.end() !== bytes.length) corrupt('The vector index file has trailing bytes.');
    if (n === 0) {
      if (entry !== -1 || upperLen !== 0 || maxLevel !== 0)
        corrupt('The vector index entry point is invalid.');
      return; // keep the freshly allocated (empty) arrays
    }
    const rows = this.rows;
    rows.capacity = n;
    rows.ids = ids;
    rows.deleted = deleted;
    rows.vectors = vectors;
    rows.count = n;
    if (!rows.reindex()) corrupt('The vector index holds a duplicate or invalid id.');
    // Every link must point at a row, within its list bounds: a bad link would crash search.
    const w0 = this.M0 + 1;
    const wu = this.M + 1;
    const checkList = (arr: Int32Array, base: number, max: number): void => {
      if (base < 0 || base + max + 1 > arr.length)
        corrupt('A vector index link list is out of bounds.');
      const c = arr[base]!;
      if (c < 0 || c > max) corrupt('A vector index link count is invalid.');
      for (let j = 1; j <= c; j++) {
        const t = arr[base + j]!;
        if (t < 0 || t >= n) corrupt('A vector index link points outside the index.');
      }
    };
    for (let s = 0; s < n; s++) {
      const lv = levels[s]!;
      if (lv > maxLevel) corrupt('A vector index node is above the top level.');
      checkList(links0, s * w0, this.M0);
      if (lv === 0) {
        if (upperOff[s] !== -1) corrupt('A vector index level table is inconsistent.');
        continue;
      }
      for (let l = 1; l <= lv; l++) checkList(upper, upperOff[s]! + (l - 1) * wu, this.M);
    }
    if (entry < 0 || entry >= n || levels[entry] !== maxLevel) {
      corrupt('The vector index entry point is invalid.');
    }
    this.levels = levels;
    this.links0 = links0;
    this.upperOff = upperOff;
    this.upper = upper.length ? upper : new Int32Array(64);
    this.upperLen = upperLen;
    this.entry = entry;
    this.maxLevel = maxLevel;
    this.visited = new Uint32Array(n);
  }
}

function sortBestFirstGeneric(slots: Int32Array, scores: Float64Array, ids: Float64Array): void {
  const order = Array.from(slots.keys()).sort((a, b) => {
    const sa = scores[a]!;
    const sb = scores[b]!;
    if (sa !== sb) return sb - sa;
    return ids[slots[a]!]! - ids[slots[b]!]!;
  });
  const s2 = order.map((i) => slots[i]!);
  const c2 = order.map((i) => scores[i]!);
  slots.set(s2);
  scores.set(c2);
}

function copyLinks(
  src: Int32Array,
  sBase: number,
  dst: Int32Array,
  dBase: number,
  map: Int32Array,
): void {
  const n = src[sBase]!;
  let w = 0;
  for (let j = 1; j <= n; j++) {
    const t = map[src[sBase + j]!]!;
    if (t >= 0) dst[dBase + 1 + w++] = t;
  }
  dst[dBase] = w;
}

/**
 * Creates an empty HNSW index.
 * @throws AppError INVALID_ARGUMENT for an invalid config.
 */
export function createHnswIndex(config: HnswBuildConfig, deps: HnswDeps = {}): VectorIndex {
  return new HnswIndex(resolve(config), deps.kernel ?? jsDotKernel);
}

/**
 * Reads bytes written by an HNSW index's `serialize()`.
 * @throws AppError INDEX_CORRUPT when the bytes are missing, foreign, another version, truncated,
 * fail the checksum or hold an inconsistent graph: rebuild from the stored vectors then.
 */
export function deserializeHnsw(
  bytes: Uint8Array,
  deps: HnswDeps = {},
  options: DeserializeOptions = {},
): VectorIndex {
  const h = readHeader(bytes);
  if (h.kind !== KIND_HNSW) corrupt('The vector index file is not an HNSW index.');
  if (
    h.dim < 1 ||
    h.M < 2 ||
    h.M > 256 ||
    h.maxLevel > MAX_LEVEL_CAP ||
    h.efConstruction < 1 ||
    h.efSearch < 1
  ) {
    corrupt('The vector index header holds invalid parameters.');
  }
  const approx = h.rows * (h.dim * 2 + 8 + 2 + (2 * h.M + 2) * 4) + h.upperLength * 4;
  if (approx > bytes.length) corrupt('The vector index file is shorter than its header says.');
  const index = new HnswIndex(
    resolve({
      dim: h.dim,
      M: h.M,
      efConstruction: h.efConstruction,
      efSearch: h.efSearch,
      levelSeed: h.levelSeed,
      filterExactMaxAllowed: h.filterExactMaxAllowed,
      filterExactMaxFraction: h.filterExactMaxFraction,
      // restore() replaces every row-sized array with the ones read from the bytes: allocating
      // them for h.rows here as well held a third copy of the index (112 MB at 100k) while loading.
      initialCapacity: 1,
    }),
    deps.kernel ?? jsDotKernel,
  );
  index.restore(bytes, h.rows, h.maxLevel, h.entry, h.upperLength, options.adopt === true);
  return index;
}
