// A small in-memory TTL cache with an injected clock (HyDE's `hyde:{query_hash}`, one hour).
// Bounded by entry count (oldest evicted first). Pure; imports only ./types.
import type { Clock } from './types';

export interface TtlCache<V> {
  get(key: string): V | undefined;
  set(key: string, value: V, ttlMs: number): void;
  readonly size: number;
}

export function createTtlCache<V>(clock: Clock, maxEntries = 500): TtlCache<V> {
  const map = new Map<string, { value: V; expires: number }>();
  return {
    get(key) {
      const e = map.get(key);
      if (!e) return undefined;
      if (clock.now() >= e.expires) {
        map.delete(key);
        return undefined;
      }
      return e.value;
    },
    set(key, value, ttlMs) {
      map.delete(key);
      map.set(key, { value, expires: clock.now() + ttlMs });
      while (map.size > maxEntries) {
        const oldest = map.keys().next().value;
        if (oldest === undefined) break;
        map.delete(oldest);
      }
    },
    get size() {
      return map.size;
    },
  };
}
