// The eval CLI's embedding threads on the app's pool: the same vectors with 1 and 2 threads as the
// in-process encoder, and a thread that dies rejects the batches it owes instead of hanging.
import { describe, expect, it } from 'vitest';
import { embedAllCached, spawnEmbedThread, textKey, type EmbedCache } from './embed-cache';
import { loadNodeEncoder } from './embed-models';

function memoryCache(): EmbedCache & { puts: number } {
  const map = new Map<string, Int16Array>();
  return {
    puts: 0,
    get: (t) => map.get(textKey(t)),
    put(t, v) {
      this.puts++;
      map.set(textKey(t), v);
    },
    size: () => map.size,
  };
}

const TEXTS = Array.from({ length: 40 }, (_, i) => `thread text ${i} ${'w'.repeat(i % 5)}`);

describe('embedAllCached (worker threads on the embed pool)', () => {
  it('gives the in-process vectors with 1 and 2 threads, each text embedded once', async () => {
    const encoder = await loadNodeEncoder('use-lite');
    const expected = [...TEXTS, TEXTS[3]!].map((t) => Buffer.from(encoder.embed(t).buffer));
    for (const threads of [1, 2]) {
      const cache = memoryCache();
      const seen: number[] = [];
      const got = await embedAllCached([...TEXTS, TEXTS[3]!], cache, threads, 'use-lite', (d) =>
        seen.push(d),
      );
      expect(got.map((v) => Buffer.from(v.buffer))).toEqual(expected);
      expect(cache.puts).toBe(TEXTS.length); // the repeated text is embedded once
      expect(seen.at(-1)).toBe(TEXTS.length + 1);
    }
  });

  it('rejects the batches a terminated thread still owes', async () => {
    const thread = await spawnEmbedThread('use-lite');
    const owed = thread.embed(
      Array.from({ length: 400 }, (_, i) => `long batch ${i} `.repeat(40)),
      { signal: new AbortController().signal },
    );
    await thread.terminate();
    await expect(owed).rejects.toThrow(/exited/);
  });
});
