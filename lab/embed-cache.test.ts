// The eval CLI's embedding threads on the app's pool: the same vectors with 1 and 2 threads as the
// in-process encoder, a thread that dies rejects the batches it owes instead of hanging, and the
// pool's fault handling on real worker threads: a thread that hangs (spins, silent) or crashes
// mid-run is replaced and its batch retried, every text delivered exactly once.
import { describe, expect, it } from 'vitest';
import { createEmbedPool, type PoolWorker } from '../workers/embed/pool';
import { isAppError } from '../workers/shared/errors';
import {
  embedAllCached,
  spawnEmbedThread,
  textKey,
  type EmbedCache,
  type EmbedThreadOptions,
} from './embed-cache';
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

  /**
   * A pool of 2 real USE-lite threads whose first thread gets `fault`; records the texts of every
   * batch a thread answered and which threads were terminated.
   */
  function faultyPool(fault: NonNullable<EmbedThreadOptions['fault']>) {
    const delivered: string[] = [];
    const terminated: number[] = [];
    const errors: unknown[] = [];
    let spawned = 0;
    const pool = createEmbedPool({
      spawn: async (): Promise<PoolWorker> => {
        const id = spawned++;
        const thread = await spawnEmbedThread('use-lite', id === 0 ? { fault } : {});
        return {
          async embed(texts, opts) {
            const vectors = await thread.embed(texts, opts);
            delivered.push(...texts);
            return vectors;
          },
          async terminate() {
            terminated.push(id);
            await thread.terminate();
          },
        };
      },
      size: 2,
      batchSize: 4,
      // A healthy batch of 4 short texts takes well under a second; the hung one never answers.
      hangTimeoutMs: 4000,
      onReplace: (e) => errors.push(e),
    });
    return { pool, delivered, terminated, errors };
  }

  for (const kind of ['hang', 'crash'] as const) {
    const does = kind === 'hang' ? 'hangs' : 'crashes';
    it(`replaces a thread that ${does} mid-run and retries its batch: nothing lost or embedded twice`, async () => {
      const encoder = await loadNodeEncoder('use-lite');
      const texts = TEXTS.slice(0, 24);
      const expected = texts.map((t) => Buffer.from(encoder.embed(t).buffer));
      // The faulty thread's first batch: lane 0 always starts on thread 0, but a later batch may
      // never reach it (the other lane can drain the queue while thread 0 is still loading).
      const { pool, delivered, terminated, errors } = faultyPool({ kind, atBatch: 0 });
      try {
        const got = await pool.embed(texts);
        expect(got.map((v) => Buffer.from(v.buffer))).toEqual(expected);
        expect([...delivered].sort()).toEqual([...texts].sort());
        expect(pool.stats()).toEqual({ size: 2, spawned: 3, replaced: 1 });
        expect(terminated).toEqual([0]);
        if (kind === 'hang') expect(isAppError(errors[0]) && errors[0].code).toBe('TIMEOUT');
        else expect(String(errors[0])).toMatch(/unreachable|exited/);
      } finally {
        await pool.close();
      }
    });
  }
});
