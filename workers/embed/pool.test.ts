// The embed-worker pool: input order and progress over several workers, the same bytes from 1 and
// 3 real USE-lite workers, a worker crashing mid-batch (the batch retried on a respawned worker,
// nothing lost or embedded twice), a batch that always fails (bounded tries), abort, resizing,
// and Comlink remotes whose worker is terminated (pending calls reject instead of hanging).
import * as Comlink from 'comlink';
import { describe, expect, it } from 'vitest';
import { installErrorTransfer } from '../shared/comlink-errors';
import {
  embedWorkerCount,
  remotePoolWorker,
  type EmbedProgress,
  type EmbedWorkerApi,
} from '../shared/embed-api';
import { AppError, createError } from '../shared/errors';
import { createEmbedder } from './embedder';
import { createNodeKernel, readUseLiteFile } from './node-kernel';
import { createEmbedPool, type PoolWorker } from './pool';
import { createEmbedWorkerApi } from './worker-api';

/** A vector that depends on the text only (what any worker must return for it). */
function fakeVector(text: string): Int16Array {
  const v = new Int16Array(4);
  for (let i = 0; i < text.length; i++) v[i % 4] = (v[i % 4]! * 31 + text.charCodeAt(i)) % 32767;
  return v;
}

interface FakeLog {
  /** Texts of every batch that returned vectors (a text twice here was embedded twice). */
  delivered: string[];
  terminated: number[];
}

/**
 * Fake workers numbered in spawn order; `crash(id, call)` says whether worker `id` fails its
 * `call`-th batch (after reporting some progress, as a worker dying mid-batch would).
 */
function fakeSpawner(crash: (id: number, call: number) => boolean = () => false) {
  const log: FakeLog = { delivered: [], terminated: [] };
  let next = 0;
  const spawn = async (): Promise<PoolWorker & { id: number }> => {
    const id = next++;
    let calls = 0;
    let alive = true;
    return {
      id,
      async embed(texts, { signal, onProgress }) {
        const call = calls++;
        for (let i = 0; i < texts.length; i++) {
          await new Promise((r) => setTimeout(r, 1));
          if (signal.aborted) throw createError('ABORTED');
          if (!alive) throw new Error('worker gone');
          if (i === 1 && crash(id, call))
            throw new Error(`RuntimeError: unreachable (worker ${id})`);
          onProgress?.(i + 1);
        }
        log.delivered.push(...texts);
        return texts.map(fakeVector);
      },
      terminate() {
        alive = false;
        log.terminated.push(id);
      },
    };
  };
  return { spawn, log };
}

const TEXTS = Array.from({ length: 50 }, (_, i) => `chunk number ${i} ${'z'.repeat(i % 7)}`);

describe('createEmbedPool', () => {
  it('keeps input order over several workers and reports progress up to the total', async () => {
    const { spawn, log } = fakeSpawner();
    const pool = createEmbedPool({ spawn, size: 3, batchSize: 4 });
    const seen: EmbedProgress[] = [];
    const out = await pool.embed(TEXTS, { onProgress: (p) => seen.push(p) });
    expect(out).toEqual(TEXTS.map(fakeVector));
    expect(seen.at(-1)).toEqual({ done: 50, total: 50 });
    expect(seen.every((p, i) => i === 0 || p.done >= seen[i - 1]!.done)).toBe(true);
    expect(pool.stats()).toEqual({ size: 3, spawned: 3, replaced: 0 });
    expect([...log.delivered].sort()).toEqual([...TEXTS].sort());
    await pool.close();
    expect(log.terminated.sort()).toEqual([0, 1, 2]);
  });

  it('splits a call into the batch size it asks for (a few queries over every worker)', async () => {
    const batches: number[][] = [];
    const spawn = async (): Promise<PoolWorker> => {
      const worker = batches.push([]) - 1;
      return {
        async embed(texts) {
          batches[worker]!.push(texts.length);
          await new Promise((r) => setTimeout(r, 5));
          return texts.map(fakeVector);
        },
        terminate() {},
      };
    };
    const pool = createEmbedPool({ spawn, size: 3, batchSize: 16 });
    const five = TEXTS.slice(0, 5);
    expect(await pool.embed(five, { batchSize: 2 })).toEqual(five.map(fakeVector));
    expect(batches).toEqual([[2], [2], [1]]);
    expect(await pool.embed(five)).toEqual(five.map(fakeVector));
    // Without it, the pool's batch size: one worker takes all five.
    expect(batches.flat().sort()).toEqual([1, 2, 2, 5]);
    expect(batches.filter((b) => b.includes(5))).toHaveLength(1);
    await pool.close();
  });

  it('puts a second call on the idle worker, not behind the first call on worker 0', async () => {
    const calls: Array<[number, string[]]> = [];
    const spawn = async (): Promise<PoolWorker> => {
      const worker = spawned++;
      return {
        async embed(texts) {
          calls.push([worker, texts]);
          await new Promise((r) => setTimeout(r, 5));
          return texts.map(fakeVector);
        },
        terminate() {},
      };
    };
    let spawned = 0;
    const pool = createEmbedPool({ spawn, size: 2 });
    await pool.workers();
    // A plan: the original query first (worker 0 busy), then its variants in two shares.
    const original = pool.embed(['original'], { batchSize: 1 });
    const variants = pool.embed(['v1', 'v2', 'v3', 'v4'], { batchSize: 2 });
    expect(await original).toEqual([fakeVector('original')]);
    expect(await variants).toEqual(['v1', 'v2', 'v3', 'v4'].map(fakeVector));
    expect(calls[0]).toEqual([0, ['original']]);
    // Both shares of the variants went to the worker that was idle when they were queued.
    expect(calls.slice(1).map(([w]) => w)).toEqual([1, 1]);
    await pool.close();
  });

  it('counts the workers with no batch running (a plan splits its queries over those only)', async () => {
    const release: Array<() => void> = [];
    const spawn = async (): Promise<PoolWorker> => ({
      async embed(texts) {
        await new Promise<void>((r) => release.push(r));
        return texts.map(fakeVector);
      },
      terminate() {},
    });
    const pool = createEmbedPool({ spawn, size: 3 });
    await pool.workers();
    expect(pool.idle()).toBe(3);
    const original = pool.embed(['original'], { batchSize: 1 });
    expect(pool.idle()).toBe(2); // counted as busy from the call on, not once the worker answers
    const variants = pool.embed(['v1', 'v2', 'v3', 'v4'], { batchSize: 2 });
    expect(pool.idle()).toBe(0);
    while (release.length < 3) await new Promise((r) => setTimeout(r, 0));
    release.splice(0).forEach((r) => r());
    expect(await original).toEqual([fakeVector('original')]);
    expect(await variants).toEqual(['v1', 'v2', 'v3', 'v4'].map(fakeVector));
    expect(pool.idle()).toBe(3);
    pool.resize(1);
    expect(pool.idle()).toBe(1);
    await pool.close();
  });

  it('retries a batch whose worker crashed on a respawned worker: nothing lost or embedded twice', async () => {
    // Worker 1 dies in its second batch.
    const { spawn, log } = fakeSpawner((id, call) => id === 1 && call === 1);
    const replaced: unknown[] = [];
    const pool = createEmbedPool({
      spawn,
      size: 3,
      batchSize: 4,
      onReplace: (e) => replaced.push(e),
    });
    const out = await pool.embed(TEXTS);
    expect(out).toEqual(TEXTS.map(fakeVector));
    // Every text came back from exactly one successful batch.
    expect([...log.delivered].sort()).toEqual([...TEXTS].sort());
    expect(pool.stats()).toEqual({ size: 3, spawned: 4, replaced: 1 });
    expect(log.terminated).toEqual([1]);
    expect(String(replaced[0])).toContain('unreachable');
    await pool.close();
  });

  it('stops a worker that hangs on a batch and retries the batch on a fresh one', async () => {
    // Worker 0 never answers its second batch and reports no progress on it (alive, silent).
    // One worker at a time, so the only armed hang clock is the hung batch's: the test fires it
    // (injected timers, no real time).
    let hanging: () => void = () => undefined;
    const hung = new Promise<void>((r) => (hanging = r));
    const armed = new Map<number, () => void>();
    let handles = 0;
    const timers = {
      set: (fn: () => void) => (armed.set(++handles, fn), handles),
      clear: (h: unknown) => armed.delete(h as number),
    };
    const delivered: string[] = [];
    const terminated: number[] = [];
    let next = 0;
    let lateAnswer: (() => void) | null = null;
    const spawn = async (): Promise<PoolWorker> => {
      const id = next++;
      let calls = 0;
      return {
        async embed(texts, { onProgress }) {
          if (id === 0 && calls++ === 1) {
            hanging();
            // It would answer much later (after being given up on): that answer must be ignored.
            await new Promise<void>((r) => (lateAnswer = r));
            return texts.map(() => new Int16Array(4).fill(-1));
          }
          texts.forEach((_, i) => onProgress?.(i + 1));
          delivered.push(...texts);
          return texts.map(fakeVector);
        },
        terminate: () => void terminated.push(id),
      };
    };
    const replaced: unknown[] = [];
    const pool = createEmbedPool({
      spawn,
      size: 1,
      batchSize: 4,
      hangTimeoutMs: 30_000,
      timers,
      onReplace: (e) => replaced.push(e),
    });
    const seen: EmbedProgress[] = [];
    const running = pool.embed(TEXTS, { onProgress: (p) => seen.push(p) });
    await hung;
    expect(armed.size).toBe(1);
    const [handle, fire] = [...armed.entries()][0]!;
    armed.delete(handle);
    fire();
    const out = await running;
    (lateAnswer as (() => void) | null)?.();
    await new Promise((r) => setTimeout(r, 0));
    expect(out).toEqual(TEXTS.map(fakeVector));
    expect([...delivered].sort()).toEqual([...TEXTS].sort()); // nothing lost or embedded twice
    expect(terminated).toEqual([0]);
    expect(pool.stats()).toEqual({ size: 1, spawned: 2, replaced: 1 });
    expect((replaced[0] as AppError).code).toBe('TIMEOUT');
    expect(seen.at(-1)).toEqual({ done: TEXTS.length, total: TEXTS.length });
    expect(armed.size).toBe(0); // every clock stopped with its batch
    await pool.close();
  });

  it('restarts the hang clock on progress: a slow worker that reports is not hung', async () => {
    let now = 0;
    const armed = new Map<number, { fn: () => void; at: number }>();
    let handles = 0;
    const timers = {
      set: (fn: () => void, ms: number) => (armed.set(++handles, { fn, at: now + ms }), handles),
      clear: (h: unknown) => armed.delete(h as number),
    };
    /** Advances the fake clock, firing what falls due. */
    const advance = (ms: number) => {
      now += ms;
      for (const [h, t] of [...armed]) if (t.at <= now && armed.delete(h)) t.fn();
    };
    const pool = createEmbedPool({
      spawn: async (): Promise<PoolWorker> => ({
        async embed(texts, { onProgress }) {
          for (let i = 0; i < texts.length; i++) {
            advance(20_000); // 20 s per text: the batch takes 80 s, each text under the limit
            onProgress?.(i + 1);
          }
          return texts.map(fakeVector);
        },
        terminate: () => undefined,
      }),
      size: 1,
      batchSize: 4,
      hangTimeoutMs: 30_000,
      timers,
    });
    expect(await pool.embed(TEXTS.slice(0, 8))).toEqual(TEXTS.slice(0, 8).map(fakeVector));
    expect(pool.stats().replaced).toBe(0);
    await pool.close();
  });

  it('gives up on a batch that fails on every worker after maxAttempts, with its error', async () => {
    // Any batch holding this text crashes its worker.
    const poison = TEXTS[9]!;
    let spawned = 0;
    const pool = createEmbedPool({
      spawn: async (): Promise<PoolWorker> => {
        spawned++;
        return {
          embed: async (texts) => {
            if (texts.includes(poison))
              throw new Error('RuntimeError: memory access out of bounds');
            return texts.map(fakeVector);
          },
          terminate: () => undefined,
        };
      },
      size: 2,
      batchSize: 4,
      maxAttempts: 3,
    });
    const err = await pool.embed(TEXTS).catch((e: unknown) => e);
    expect(String(err)).toContain('memory access out of bounds');
    expect(pool.stats().replaced).toBe(3);
    expect(spawned).toBe(2 + 3);
    // The pool still works for other texts afterwards.
    expect(await pool.embed(['fine'])).toEqual([fakeVector('fine')]);
  });

  it('aborts every worker and rejects with ABORTED', async () => {
    const { spawn } = fakeSpawner();
    const pool = createEmbedPool({ spawn, size: 2, batchSize: 3 });
    const controller = new AbortController();
    const err = await pool
      .embed(TEXTS, {
        signal: controller.signal,
        onProgress: (p) => p.done >= 5 && controller.abort(),
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('ABORTED');
    expect(pool.stats().replaced).toBe(0); // an abort is not a worker fault
  });

  it('stops its calls when closed instead of respawning the workers it terminated', async () => {
    const { spawn, log } = fakeSpawner();
    const pool = createEmbedPool({ spawn, size: 2, batchSize: 2 });
    const running = pool.embed(TEXTS).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 5));
    await pool.close();
    expect(((await running) as AppError).code).toBe('ABORTED');
    expect(pool.stats().spawned).toBe(2);
    expect(log.terminated.sort()).toEqual([0, 1]);
  });

  it('resizes: extra workers stop, the rest carry on', async () => {
    const { spawn, log } = fakeSpawner();
    const pool = createEmbedPool({ spawn, size: 3, batchSize: 2 });
    expect((await pool.workers()).length).toBe(3);
    pool.resize(1);
    await new Promise((r) => setTimeout(r, 0)); // termination follows the spawn's promise
    expect(log.terminated.sort()).toEqual([1, 2]);
    expect(await pool.embed(TEXTS)).toEqual(TEXTS.map(fakeVector));
    expect(pool.stats()).toMatchObject({ size: 1, spawned: 3 });
    pool.resize(2);
    expect((await pool.workers()).length).toBe(2);
    expect(pool.stats().spawned).toBe(4);
  });

  it('gives the same bytes from 1 and 3 real USE-lite workers', async () => {
    const spawnReal = async (): Promise<PoolWorker> => {
      const embedder = createEmbedder({
        loadKernel: createNodeKernel,
        fetchModelFile: readUseLiteFile,
        loadGolden: async () => ({ modelId: '', modelVersion: '', dim: 0, entries: [] }),
      });
      await embedder.init();
      return {
        embed: (texts, { signal, role, onProgress }) =>
          embedder.embedTexts(texts, {
            signal,
            ...(role ? { role } : {}),
            ...(onProgress ? { onProgress: (p) => onProgress(p.done) } : {}),
          }),
        terminate: () => undefined,
      };
    };
    const texts = [...TEXTS.slice(0, 30), '', 'ünïcödé 😀 ✓', 'x'.repeat(3000)];
    const one = await createEmbedPool({ spawn: spawnReal, size: 1, batchSize: 5 }).embed(texts);
    const three = await createEmbedPool({ spawn: spawnReal, size: 3, batchSize: 5 }).embed(texts);
    const bytes = (vs: Int16Array[]) => vs.map((v) => Buffer.from(v.buffer).toString('hex'));
    expect(three.length).toBe(texts.length);
    expect(bytes(three)).toEqual(bytes(one));
  });

  it('sizes the browser pool as hardwareConcurrency - 1, at least 1', () => {
    expect([1, 2, 4, 16, 64].map((n) => embedWorkerCount(n))).toEqual([1, 1, 3, 8, 8]);
  });
});

describe('remotePoolWorker (a Comlink remote)', () => {
  it('embeds over the port, and a terminated worker rejects its pending call', async () => {
    installErrorTransfer();
    const { port1, port2 } = new MessageChannel();
    let t = 0;
    const embedder = createEmbedder({
      loadKernel: createNodeKernel,
      fetchModelFile: readUseLiteFile,
      loadGolden: async () => ({ modelId: '', modelVersion: '', dim: 0, entries: [] }),
      now: () => (t += 60),
      yieldToEvents: () => new Promise((r) => setTimeout(r, 2)),
    });
    Comlink.expose(createEmbedWorkerApi(embedder), port1);
    const api = Comlink.wrap<EmbedWorkerApi>(port2);
    let killed = false;
    const worker = remotePoolWorker(api, () => {
      killed = true;
      port1.close(); // the real worker would stop answering
    });
    const [v] = await worker.embed(['alpha'], { signal: new AbortController().signal });
    expect(v?.length).toBe(512);
    // `batched` crosses the port: one forward pass (one progress report), the same bytes as one
    // text at a time.
    const few = ['alpha', 'beta gamma', '', 'delta'];
    const signal = new AbortController().signal;
    const passes: number[] = [];
    const batched = await worker.embed(few, {
      signal,
      batched: true,
      onProgress: (n) => passes.push(n),
    });
    const single: number[] = [];
    expect(batched).toEqual(await worker.embed(few, { signal, onProgress: (n) => single.push(n) }));
    // Progress travels on the callback's own port: let the last reports arrive.
    await new Promise((r) => setTimeout(r, 50));
    expect(passes).toEqual([4]);
    expect(single).toEqual([1, 2, 3, 4]);
    const pending = worker.embed(
      Array.from({ length: 200 }, (_, i) => `text ${i}`),
      { signal: new AbortController().signal },
    );
    await worker.terminate();
    expect(killed).toBe(true);
    await expect(pending).rejects.toMatchObject({ code: 'INTERNAL' });
    port2.close();
  });
});
