// The embedder in-thread and behind a MessageChannel (the worker boundary): vectors, progress,
// cancellation as AppError ABORTED, transferred buffers, load failures, and the self-test.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as Comlink from 'comlink';
import { describe, expect, it } from 'vitest';
import { installErrorTransfer } from '../shared/comlink-errors';
import { embedWithSignal, type EmbedProgress, type EmbedWorkerApi } from '../shared/embed-api';
import { AppError } from '../shared/errors';
import { createEmbedder, type EmbedderDeps } from './embedder';
import { createNodeKernel, readUseLiteFile, REPO_ROOT } from './node-kernel';
import type { GoldenFile } from './self-test';
import { createEmbedWorkerApi } from './worker-api';

const golden = JSON.parse(
  readFileSync(join(REPO_ROOT, 'wasm/golden/use-lite-int16-sha256.json'), 'utf8'),
) as GoldenFile;

function deps(overrides: Partial<EmbedderDeps> = {}): EmbedderDeps {
  let t = 0;
  return {
    loadKernel: createNodeKernel,
    fetchModelFile: readUseLiteFile,
    loadGolden: async () => golden,
    // A fake clock that advances 60 ms per reading forces progress and yields on every text.
    now: () => (t += 60),
    ...overrides,
  };
}

const TEXTS = ['first text', 'second text about cells', '', 'ünïcödé 😀', 'last one'];

describe('embedder (in-thread)', () => {
  it('embeds in order with progress and is independent of the batch', async () => {
    const e = createEmbedder(deps());
    const info = await e.init();
    expect(info).toMatchObject({ id: 'use-lite', dim: 512, maxTokens: 128, canonical: true });
    const progress: EmbedProgress[] = [];
    const vectors = await e.embedTexts(TEXTS, { onProgress: (p) => progress.push(p) });
    expect(vectors).toHaveLength(TEXTS.length);
    expect(vectors.every((v) => v instanceof Int16Array && v.length === 512)).toBe(true);
    expect(progress.at(-1)).toEqual({ done: 5, total: 5 });
    expect(progress.map((p) => p.done)).toEqual(
      [...progress.map((p) => p.done)].sort((a, b) => a - b),
    );
    const single = await e.embedTexts([TEXTS[1]!]);
    expect(Array.from(single[0]!)).toEqual(Array.from(vectors[1]!));
    expect(await e.countTokens(['hello world', 'word '.repeat(500)])).toEqual([3, 128]);
  });

  it("embeds a call's queries as one batch with the bytes of each alone", async () => {
    const e = createEmbedder(deps());
    const progress: EmbedProgress[] = [];
    const many = Array.from({ length: 20 }, (_, i) => TEXTS[i % TEXTS.length]! + ' ' + i);
    const batched = await e.embedTexts(many, {
      role: 'query',
      onProgress: (p) => progress.push(p),
    });
    const alone = await Promise.all(many.map((t) => e.embedTexts([t], { role: 'query' })));
    expect(batched).toEqual(alone.map((v) => v[0]));
    // Batches of 16: progress after the first batch and at the end.
    expect(progress).toEqual([
      { done: 16, total: 20 },
      { done: 20, total: 20 },
    ]);
  });

  it('embeds passages in batched passes when asked, with the bytes of each alone', async () => {
    const e = createEmbedder(deps());
    const progress: EmbedProgress[] = [];
    const many = Array.from({ length: 18 }, (_, i) => TEXTS[i % TEXTS.length]! + ' ' + i);
    const batched = await e.embedTexts(many, {
      batched: true,
      onProgress: (p) => progress.push(p),
    });
    const alone = await Promise.all(many.map((t) => e.embedTexts([t])));
    expect(batched).toEqual(alone.map((v) => v[0]));
    expect(progress.map((p) => p.done)).toEqual([16, 18]);
  });

  it('stops with ABORTED when the signal aborts mid-job', async () => {
    const e = createEmbedder(deps());
    const controller = new AbortController();
    const err = await e
      .embedTexts(TEXTS, {
        signal: controller.signal,
        onProgress: (p) => {
          if (p.done === 2) controller.abort();
        },
      })
      .catch((x: unknown) => x);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('ABORTED');
    expect((err as AppError).details).toMatchObject({ done: 2, total: 5 });
  });

  it('reports MODEL_LOAD_FAILED for missing model files and can retry', async () => {
    let fail = true;
    const e = createEmbedder(
      deps({
        fetchModelFile: async (name) => {
          if (fail) throw new Error(`404 ${name}`);
          return readUseLiteFile(name);
        },
      }),
    );
    await expect(e.init()).rejects.toMatchObject({ code: 'MODEL_LOAD_FAILED' });
    fail = false;
    await expect(e.init()).resolves.toMatchObject({ id: 'use-lite' });
  });

  it('passes its self-test against the golden file', async () => {
    const result = await createEmbedder(deps()).selfTest();
    expect(result.ok).toBe(true);
    expect(result.total).toBe(golden.entries.length);
  });
});

describe('embed worker API over a MessageChannel', () => {
  it('transfers vectors, and an abort arrives as AppError ABORTED', async () => {
    installErrorTransfer();
    const { port1, port2 } = new MessageChannel();
    // Real timers here so the cancel message can interleave with the job.
    let t = 0;
    const api = createEmbedWorkerApi(
      createEmbedder(
        deps({
          now: () => (t += 60),
          yieldToEvents: () => new Promise((r) => setTimeout(r, 5)),
        }),
      ),
    );
    Comlink.expose(api, port1);
    const remote = Comlink.wrap<EmbedWorkerApi>(port2);
    const vectors = await remote.embedTexts(['alpha', 'beta']);
    expect(vectors.map((v) => v.length)).toEqual([512, 512]);
    expect(vectors[0]).toBeInstanceOf(Int16Array);

    const controller = new AbortController();
    const seen: number[] = [];
    const many = Array.from({ length: 40 }, (_, i) => `text number ${i}`);
    const err = await embedWithSignal(remote, many, {
      signal: controller.signal,
      onProgress: (p) => {
        seen.push(p.done);
        if (p.done >= 3) controller.abort();
      },
    }).catch((x: unknown) => x);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('ABORTED');
    expect(seen.at(-1)!).toBeLessThan(40);
    port1.close();
    port2.close();
  });
});
