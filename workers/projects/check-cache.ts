// What repeated claim checks share (a project's claims keep hitting the same documents): each
// document's sentence split and each judged sentence's vector, in two bounded LRU maps. The
// vector cache belongs to one embedding model (the owner drops it with the judge on a model
// switch); a split is reused only while the document's text is the same string.
// Pure.
import { splitSentences, type SentenceSpan } from './sentences';

/** A Map kept in recency order: reads move an entry to the end, the oldest is dropped first. */
export class Lru<K, V> {
  private readonly map = new Map<K, V>();
  constructor(private readonly max: number) {}

  get(key: K): V | undefined {
    const v = this.map.get(key);
    if (v !== undefined) {
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }

  set(key: K, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    while (this.map.size > this.max) this.map.delete(this.map.keys().next().value as K);
  }

  get size(): number {
    return this.map.size;
  }
}

/** Sentence splits by document id, valid while the text is unchanged. */
export function createSentenceCache(
  max = 512,
): (documentId: number, text: string) => SentenceSpan[] {
  const cache = new Lru<number, { text: string; spans: SentenceSpan[] }>(max);
  return (id, text) => {
    const hit = cache.get(id);
    if (hit && hit.text === text) return hit.spans;
    const spans = splitSentences(text);
    cache.set(id, { text, spans });
    return spans;
  };
}

/**
 * Wraps a batch embedder so texts seen before are served from memory and only the rest are
 * embedded (in one call, in order). 4,096 USE-lite vectors are about 4 MB.
 */
export function cachedEmbed(
  embed: (texts: string[]) => Promise<Int16Array[]>,
  max = 4096,
): (texts: string[]) => Promise<Int16Array[]> {
  const cache = new Lru<string, Int16Array>(max);
  return async (texts) => {
    const found = new Map<string, Int16Array>();
    for (const t of texts) {
      const v = cache.get(t);
      if (v) found.set(t, v);
    }
    const missing = [...new Set(texts.filter((t) => !found.has(t)))];
    if (missing.length > 0) {
      const got = await embed(missing);
      missing.forEach((t, i) => {
        found.set(t, got[i]!);
        cache.set(t, got[i]!);
      });
    }
    return texts.map((t) => found.get(t)!);
  };
}
