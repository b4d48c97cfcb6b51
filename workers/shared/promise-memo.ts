// Keyed memo of promises: one read per key while it is kept, shared by calls in flight too.
/** `(key, read)`: the kept or a new read of `key`; `clear()` forgets every key. */
export type PromiseMemo<K, V> = ((key: K, read: () => Promise<V>) => Promise<V>) & {
  clear(): void;
};

/**
 * `(key, read)` gives the kept promise for `key`, or starts `read()` and keeps it. Past `size`
 * keys the least recently used is dropped; a read that fails is forgotten (unless a newer read of
 * the key replaced it), so the next call reads again.
 */
export function createPromiseMemo<K, V>(size = Infinity): PromiseMemo<K, V> {
  const kept = new Map<K, Promise<V>>();
  const memo = (key: K, read: () => Promise<V>) => {
    let hit = kept.get(key);
    if (hit) kept.delete(key);
    else {
      const started = read();
      started.catch(() => {
        if (kept.get(key) === started) kept.delete(key);
      });
      hit = started;
    }
    kept.set(key, hit);
    if (kept.size > size) kept.delete(kept.keys().next().value!);
    return hit;
  };
  return Object.assign(memo, { clear: () => kept.clear() });
}
