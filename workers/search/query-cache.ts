// The query cache of CFS-012 section 10: LRU of 1,000 entries, 5-minute TTL, and invalidation
// by the library version (any write to the library bumps it, and every entry of an older
// version is dropped). Clock injected so tests need no real time.
// Pure: must not import the store, the index or any worker.
import type { SearchRequest } from '../shared/types';

export interface QueryCacheOptions {
  /** CFS-012: 1,000. */
  maxEntries?: number;
  /** CFS-012: 5 minutes. */
  ttlMs?: number;
  now?: () => number;
}

export interface QueryCacheStats {
  size: number;
  hits: number;
  misses: number;
  evictions: number;
  version: number;
}

export interface QueryCache<V> {
  /**
   * The cached value for `key` written at `libraryVersion`, or undefined. A newer version
   * than the cache has seen empties the cache first; an older one (a stale caller) just misses.
   */
  get(key: string, libraryVersion: number): V | undefined;
  /** Stores `value`; ignored when `libraryVersion` is older than the newest seen. */
  set(key: string, libraryVersion: number, value: V): void;
  /** Drops every entry (e.g. after a model change, which is not a library write). */
  clear(): void;
  stats(): QueryCacheStats;
}

interface Entry<V> {
  value: V;
  expires: number;
}

export function createQueryCache<V>(options: QueryCacheOptions = {}): QueryCache<V> {
  const maxEntries = options.maxEntries ?? 1000;
  const ttlMs = options.ttlMs ?? 5 * 60 * 1000;
  const now = options.now ?? Date.now;
  // A Map iterates in insertion order: re-inserting on a hit makes its first key the LRU one.
  const entries = new Map<string, Entry<V>>();
  let version = -Infinity;
  let hits = 0;
  let misses = 0;
  let evictions = 0;

  /** false when the caller is behind the newest version (stale). */
  function adopt(v: number): boolean {
    if (v > version) {
      entries.clear();
      version = v;
    }
    return v === version;
  }

  return {
    get(key, libraryVersion) {
      const entry = adopt(libraryVersion) ? entries.get(key) : undefined;
      if (!entry) {
        misses++;
        return undefined;
      }
      if (now() >= entry.expires) {
        entries.delete(key);
        misses++;
        return undefined;
      }
      entries.delete(key);
      entries.set(key, entry);
      hits++;
      return entry.value;
    },
    set(key, libraryVersion, value) {
      if (maxEntries <= 0 || !adopt(libraryVersion)) return;
      entries.delete(key);
      entries.set(key, { value, expires: now() + ttlMs });
      while (entries.size > maxEntries) {
        const oldest = entries.keys().next().value as string;
        entries.delete(oldest);
        evictions++;
      }
    },
    clear() {
      entries.clear();
    },
    stats() {
      return {
        size: entries.size,
        hits,
        misses,
        evictions,
        version: Number.isFinite(version) ? version : 0,
      };
    },
  };
}

/** JSON with object keys sorted, so equal requests give equal keys whatever their key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const keys = Object.keys(value)
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * The cache key of a search: the query with whitespace collapsed (case kept: the embedding
 * model may be case-sensitive), the mode, the filters (mime list sorted) and the limit, plus
 * anything else that changes results (fusion method, model id) in `extra`.
 */
export function queryCacheKey(request: SearchRequest, extra: Record<string, unknown> = {}): string {
  const filters = request.filters ? { ...request.filters } : undefined;
  if (filters?.mime) filters.mime = [...filters.mime].sort();
  return canonical({
    q: request.query.trim().replace(/\s+/g, ' '),
    mode: request.mode ?? 'hybrid',
    filters,
    limit: request.limit ?? 10,
    extra,
  });
}
