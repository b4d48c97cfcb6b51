// The library service as the database worker exposes it, over a real in-memory wa-sqlite library:
// importing and searching, semantic sync over an embed pool (start, pause, resume, switching the
// model), the query planner following the LLM backend, and another tab's writes clearing the cache.
// The embed workers are fakes (a bag-of-words embedder that can be held mid-batch); the LLM is the
// real LLM service with its scripted backend.
import { afterEach, describe, expect, it } from 'vitest';
import { createError } from '../shared/errors';
import { createHold } from './hold.testkit';
import type { EmbedModelInfo, EmbedSpawner, EmbedWorkerApi } from '../shared/embed-api';
import { createEmbedPool } from '../embed/pool';
import type { LibraryWorkerApi } from '../shared/library-api';
import type { SemanticStatus } from '../shared/semantic-api';
import type { DocumentInput } from '../shared/types';
import { openNodeDatabase } from '../store/open-database-node';
import type { OpenedDatabase } from '../store/open-database';
import { jsDotKernel } from '../vector';
import { createLlmService } from '../llm/service';
import { bowVector, DIM } from '../query-plan/doubles.testkit';
import { createLibraryService, type EmbedWorker, type LibraryServiceDeps } from './service';

const DOCS: Array<[string, string]> = [
  ['birds/pelicans.txt', 'The coastal pelican colony nests on the cliffs and feeds on fish.'],
  ['cooking/jam.md', 'Simmer the gooseberries with sugar until the jam sets in warm jars.'],
  ['space/mars.txt', 'The rover drilled into the red planet rock and sent mineral readings.'],
  ['finance/rates.txt', 'The central bank raised interest rates to slow housing inflation.'],
];

function doc(path: string, text: string): DocumentInput {
  return { path, title: path, mime: 'text/plain', size: text.length, modified: 1_000, text };
}

/** A fake embed worker: bag-of-words vectors; `hold()` makes the next embedTexts wait. */
function fakeEmbedWorker(modelId = 'bow-a') {
  let model: EmbedModelInfo = info(modelId);
  const pending = new Map<string, (err: Error) => void>();
  const { current, hold, release } = createHold();
  const calls: Array<{ texts: string[]; role: string | undefined; model: string }> = [];
  const api: Pick<EmbedWorkerApi, 'init' | 'activateModel' | 'embedTexts' | 'cancel'> = {
    init: async () => model,
    activateModel: async (id) => (model = info(id)),
    async embedTexts(texts, jobId, _onProgress, role) {
      calls.push({ texts, role, model: model.id });
      const wait = current();
      if (wait) {
        await new Promise<void>((resolve, reject) => {
          pending.set(jobId ?? '', reject);
          void wait.then(resolve);
        });
      }
      return texts.map(bowVector);
    },
    cancel: async (jobId) => pending.get(jobId)?.(createError('ABORTED')),
  };
  return {
    worker: api as unknown as EmbedWorker,
    calls,
    hold,
    release,
  };
}

function info(id: string): EmbedModelInfo {
  return { id, version: `${id}-1`, dim: DIM, maxTokens: 128, canonical: true };
}

const port = () => ({}) as MessagePort;

/** Starts fake workers: each spawn gets a port; `wrapEmbedder` decides which fake answers it. */
function spawner(): EmbedSpawner & { terminated: number[] } {
  let next = 0;
  const terminated: number[] = [];
  return {
    terminated,
    spawn: async () => ({ id: next++, port: port() }),
    terminate: async (id) => void terminated.push(id),
  };
}

function service(
  db: Promise<OpenedDatabase>,
  embed = fakeEmbedWorker(),
  llm = createLlmService({ env: { wasm: WebAssembly }, fetch }),
  extra: Partial<LibraryServiceDeps> = {},
): LibraryWorkerApi {
  return createLibraryService({
    openDatabase: () => db,
    dotKernel: async () => jsDotKernel,
    synonyms: async () => new Map(),
    wrapEmbedder: () => embed.worker,
    createEmbedPool,
    wrapLlm: () => llm,
    ...extra,
  });
}

/** Polls the semantic status until `done` holds (the backlog runs in the background). */
async function until(
  lib: LibraryWorkerApi,
  done: (s: SemanticStatus) => boolean,
): Promise<SemanticStatus> {
  for (let i = 0; i < 2000; i++) {
    const s = await lib.semanticStatus();
    if (done(s)) return s;
    await new Promise((r) => setTimeout(r, 2));
  }
  throw new Error(`semantic status never matched: ${JSON.stringify(await lib.semanticStatus())}`);
}

const embeddedAll = (s: SemanticStatus) => s.phase === 'ready' && s.embedded === s.total;

let libs: LibraryWorkerApi[] = [];
afterEach(async () => {
  for (const lib of libs) await lib.pauseEmbedding();
  libs = [];
});

async function library(...args: Parameters<typeof service>): Promise<LibraryWorkerApi> {
  const lib = service(...args);
  libs.push(lib);
  await lib.init();
  for (const [path, text] of DOCS) await lib.importText(doc(path, text));
  return lib;
}

describe('library service', () => {
  it('imports text and finds it lexically before any model is connected', async () => {
    const lib = await library(openNodeDatabase());
    expect((await lib.stats()).documents).toBe(DOCS.length);
    const { hits } = await lib.search({ query: 'pelican colony', mode: 'lexical' });
    expect(hits[0]?.path).toBe('birds/pelicans.txt');
    expect(await lib.semanticStatus()).toMatchObject({ phase: 'starting', model: null });
    const hybrid = await lib.search({ query: 'pelican colony' });
    expect(hybrid.hits[0]?.path).toBe('birds/pelicans.txt');
    expect(hybrid.hits[0]?.ranks.semantic).toBeUndefined();
  });

  it('embeds the backlog once embed workers connect, and searches semantically', async () => {
    const embed = fakeEmbedWorker();
    const lib = await library(openNodeDatabase(), embed);
    const seen: SemanticStatus[] = [];
    await lib.watchSemantic((s) => void seen.push(s));
    await lib.connectEmbedders(spawner(), 1);
    const status = await until(lib, embeddedAll);
    expect(status.model?.id).toBe('bow-a');
    expect(status.total).toBeGreaterThanOrEqual(DOCS.length);
    expect(seen.at(-1)?.phase).toBe('ready');
    expect(embed.calls.every((c) => c.role === 'passage')).toBe(true);

    const { hits } = await lib.search({ query: 'gooseberries sugar jam', mode: 'semantic' });
    expect(hits[0]?.path).toBe('cooking/jam.md');
    expect(embed.calls.at(-1)?.role).toBe('query');
    // New imports are embedded after the write commits.
    await lib.importText(doc('birds/gulls.txt', 'Gulls steal chips from tourists on the pier.'));
    expect((await until(lib, (s) => embeddedAll(s) && s.total > status.total)).embedded).toBe(
      status.embedded + 1,
    );
  });

  it('pauses mid-backlog, keeps what it has, and resumes where it stopped', async () => {
    const embed = fakeEmbedWorker();
    embed.hold();
    const lib = await library(openNodeDatabase(), embed);
    await lib.connectEmbedders(spawner(), 1);
    await until(lib, () => embed.calls.length > 0);
    await lib.pauseEmbedding();
    const paused = await until(lib, (s) => s.phase === 'paused');
    expect(paused.embedded).toBeLessThan(paused.total);

    embed.release();
    await lib.resumeEmbedding();
    const done = await until(lib, embeddedAll);
    expect(done.embedded).toBe(paused.total);
  });

  it('switching the model re-embeds the library under the new model only', async () => {
    const embed = fakeEmbedWorker('bow-a');
    const lib = await library(openNodeDatabase(), embed);
    await lib.connectEmbedders(spawner(), 1);
    const before = await until(lib, embeddedAll);
    embed.calls.length = 0;

    await lib.activateModel('bow-b');
    const after = await until(lib, (s) => s.model?.id === 'bow-b' && embeddedAll(s));
    expect(after.embedded).toBe(before.embedded);
    expect(after.model).toEqual({ id: 'bow-b', version: 'bow-b-1', dim: DIM });
    // The new model's vectors are its own: reused by text hash only within a model.
    expect(embed.calls.length).toBeGreaterThan(0);
    expect(embed.calls.every((c) => c.model === 'bow-b')).toBe(true);
  });

  it('plans queries with the backend the LLM worker has active', async () => {
    const llm = createLlmService({ env: { wasm: WebAssembly }, fetch });
    const lib = await library(openNodeDatabase(), fakeEmbedWorker(), llm);
    const fallback = await lib.planQuery(
      { query: 'pelican colony' },
      { techniques: { hyde: false } },
    );
    expect(fallback.plan.backend).toBe('none');
    expect(fallback.hits[0]?.path).toBe('birds/pelicans.txt');

    await lib.connectLlm(port());
    await llm.useScripted();
    const scripted = await lib.planQuery(
      { query: 'pelican colony' },
      { techniques: { hyde: false } },
    );
    expect(scripted.plan.backend).toBe('scripted');

    await llm.useNone();
    expect((await lib.planQuery({ query: 'pelican colony' })).plan.backend).toBe('none');
  });

  it("spreads a plan's query embeddings over the query worker and the backlog's (2 cores: one backlog worker)", async () => {
    const llm = createLlmService({ env: { wasm: WebAssembly }, fetch });
    const embed = fakeEmbedWorker();
    const asked: Array<{ texts: number; batchSize?: number; role?: string }> = [];
    const lib = await library(openNodeDatabase(), embed, llm, {
      createEmbedPool: (options) => {
        const pool = createEmbedPool(options);
        return {
          ...pool,
          embed: (texts, o) => {
            asked.push({
              texts: texts.length,
              ...(o?.batchSize ? { batchSize: o.batchSize } : {}),
              ...(o?.role ? { role: o.role } : {}),
            });
            return pool.embed(texts, o);
          },
        };
      },
    });
    await lib.connectEmbedders(spawner(), 1);
    await until(lib, embeddedAll);
    await lib.connectLlm(port());
    await llm.useScripted();
    asked.length = 0;
    embed.calls.length = 0;
    const { plan } = await lib.planQuery(
      { query: 'pelican colony nests on cliffs', mode: 'hybrid' },
      {
        techniques: {
          routing: false,
          fusion: true,
          rewrite: false,
          hyde: false,
          keyphrases: false,
        },
      },
    );
    const variants = plan.steps.find((s) => s.id === 'embed')?.texts.length ?? 0;
    expect(variants).toBeGreaterThan(1);
    // The original query alone (started early) on the query worker, then the variants in
    // ceil(n / 2) per worker, the query worker's share first: the original's vector came back
    // while the model wrote them, so both workers are idle (query-lane.test.ts: a worker still
    // busy gets no share, and the variants then run beside the original).
    const half = Math.ceil(variants / 2);
    expect(asked).toEqual([
      { texts: 1, batchSize: 1, role: 'query' },
      { texts: half, batchSize: half, role: 'query' },
      { texts: variants - half, batchSize: half, role: 'query' },
    ]);
    const sizes = embed.calls.filter((c) => c.role === 'query').map((c) => c.texts.length);
    expect(sizes).toEqual([1, half, variants - half]);
  });

  it('drops cached answers when another tab wrote to the library', async () => {
    // Two services over one connection stand in for two tabs over one OPFS file.
    const db = openNodeDatabase();
    const mine = await library(db);
    const other = service(db);
    libs.push(other);
    const request = { query: 'pelican colony', mode: 'lexical' as const };
    expect((await mine.search(request)).hits[0]?.path).toBe('birds/pelicans.txt');

    const pelicans = (await other.listDocuments()).find((d) => d.path === 'birds/pelicans.txt');
    await other.deleteDocument(pelicans!.id);
    // This tab's cache still answers from before the other tab's write...
    expect((await mine.search(request)).hits[0]?.path).toBe('birds/pelicans.txt');
    await mine.libraryChangedElsewhere();
    // ...until it is told the library changed elsewhere.
    expect((await mine.search(request)).hits).toEqual([]);
  });

  it('hands exported bytes to the transfer hook', async () => {
    const transferred: Uint8Array[] = [];
    const lib = service(openNodeDatabase(), undefined, undefined, {
      transfer: (bytes) => (transferred.push(bytes), bytes),
    });
    libs.push(lib);
    await lib.importText(doc(...DOCS[0]!));
    const bytes = await lib.exportLibrary();
    expect(transferred).toEqual([bytes]);
    expect(bytes.byteLength).toBeGreaterThan(0);
  });
});

describe('the embedding backlog over the embed pool', () => {
  const MANY = Array.from({ length: 60 }, (_, i) =>
    doc(
      `notes/n${i}.txt`,
      `Field note ${i}: the ${['tide', 'heron', 'lichen'][i % 3]} count ${i}.`,
    ),
  );

  async function big(extra: Partial<LibraryServiceDeps>, embed = fakeEmbedWorker()) {
    const lib = service(openNodeDatabase(), embed, undefined, extra);
    libs.push(lib);
    await lib.init();
    for (const d of MANY) await lib.importText(d);
    return lib;
  }

  it('retries the batch of a worker that crashed mid-batch on a new worker: every chunk once', async () => {
    const fakes: Array<ReturnType<typeof fakeEmbedWorker>> = [];
    const lib = await big({
      wrapEmbedder: () => {
        const fake = fakeEmbedWorker();
        const n = fakes.push(fake);
        if (n === 2) {
          // The second worker dies in its first batch (a WASM trap, say).
          const real = fake.worker.embedTexts;
          let crashed = false;
          fake.worker.embedTexts = (async (...args: Parameters<EmbedWorkerApi['embedTexts']>) => {
            if (crashed) return real(...args);
            crashed = true;
            throw new Error('RuntimeError: unreachable');
          }) as typeof fake.worker.embedTexts;
        }
        return fake.worker;
      },
    });
    const spawns = spawner();
    await lib.connectEmbedders(spawns, 3);
    const done = await until(lib, embeddedAll);
    expect(done.embedded).toBe(MANY.length);
    expect(done.workers).toBe(3);
    // Worker 1 was replaced; every chunk went through exactly one successful call. Five workers
    // in all: the backlog's three, the query worker (./query-lane.ts) and the replacement.
    expect(spawns.terminated).toEqual([1]);
    expect(fakes.length).toBe(5);
    const embedded = fakes.flatMap((f) => f.calls.flatMap((c) => c.texts));
    expect(embedded.length).toBe(MANY.length);
    expect(new Set(embedded).size).toBe(MANY.length);
    // Every worker took part: the backlog feeds one batch per worker per step.
    expect(fakes.filter((f) => f.calls.length > 0).length).toBeGreaterThanOrEqual(3);
  });

  it('stops the old run cleanly when the model is switched mid-run', async () => {
    const embed = fakeEmbedWorker('bow-a');
    embed.hold();
    const lib = await big({}, embed);
    await lib.connectEmbedders(spawner(), 1);
    await until(lib, () => embed.calls.length > 0);
    const seen: SemanticStatus[] = [];
    await lib.watchSemantic((s) => void seen.push(s));
    seen.length = 0;

    await lib.activateModel('bow-b');
    embed.release();
    const after = await until(lib, (s) => s.model?.id === 'bow-b' && embeddedAll(s));
    expect(after.embedded).toBe(MANY.length);
    // The held bow-a batch was cancelled, not retried, and nothing of bow-a reported afterwards.
    expect(embed.calls.filter((c) => c.model === 'bow-a').length).toBe(1);
    expect(seen.filter((s) => s.model?.id === 'bow-a')).toEqual([]);
    expect(seen[0]).toMatchObject({ phase: 'starting', model: null });
    expect(seen.some((s) => s.phase === 'error')).toBe(false);
  });

  it('embeds queries on the query worker: a search never waits behind the backlog, and it follows a model switch', async () => {
    const fakes: Array<ReturnType<typeof fakeEmbedWorker>> = [];
    const lib = await big({
      wrapEmbedder: () => {
        const fake = fakeEmbedWorker();
        fakes.push(fake);
        if (fakes.length === 1) fake.hold(); // the backlog worker: its batch never returns
        return fake.worker;
      },
    });
    await lib.connectEmbedders(spawner(), 1);
    await until(lib, () => fakes.length === 2 && (fakes[0]?.calls.length ?? 0) > 0);
    const [backlog, query] = [fakes[0]!, fakes[1]!];
    // The query worker is up a few microtasks after its spawn (fakes answer at once); until then
    // queries would use the backlog worker, whose batch is held: this search would never return.
    await new Promise((r) => setTimeout(r, 10));
    const { hits } = await lib.search({ query: 'heron count', mode: 'hybrid' });
    expect(hits.length).toBeGreaterThan(0);
    expect(query.calls).toEqual([{ texts: ['heron count'], role: 'query', model: 'bow-a' }]);
    expect(backlog.calls.every((c) => c.role === 'passage')).toBe(true);

    backlog.release();
    await until(lib, embeddedAll);
    await lib.activateModel('bow-b');
    await until(lib, (s) => s.model?.id === 'bow-b' && embeddedAll(s));
    query.calls.length = 0;
    await lib.search({ query: 'lichen count', mode: 'semantic' });
    expect(query.calls).toEqual([{ texts: ['lichen count'], role: 'query', model: 'bow-b' }]);
  });

  it("searches on the backlog's worker when the query worker fails to start", async () => {
    const fakes: Array<ReturnType<typeof fakeEmbedWorker>> = [];
    const lib = await big({
      wrapEmbedder: () => {
        const fake = fakeEmbedWorker();
        fakes.push(fake);
        if (fakes.length === 2) {
          // The query worker cannot load its model (out of memory, say).
          fake.worker.init = (() =>
            Promise.reject(createError('MODEL_LOAD_FAILED'))) as typeof fake.worker.init;
        }
        return fake.worker;
      },
    });
    const spawns = spawner();
    await lib.connectEmbedders(spawns, 1);
    await until(lib, embeddedAll);
    await until(lib, () => spawns.terminated.length === 1); // the failed query worker, stopped
    const { hits } = await lib.search({ query: 'heron count', mode: 'semantic' });
    expect(hits.length).toBeGreaterThan(0);
    expect(fakes).toHaveLength(2); // not respawned over and over
    expect(fakes[0]!.calls.filter((c) => c.role === 'query')).toEqual([
      { texts: ['heron count'], role: 'query', model: 'bow-a' },
    ]);
  });

  it('keeps a hold from before the workers connect: searches what is embedded, then resumes', async () => {
    const embed = fakeEmbedWorker();
    const lib = await big({}, embed);
    await lib.pauseEmbedding(); // the UI does this at start when the user's pause was kept
    await lib.connectEmbedders(spawner(), 1);
    const held = await until(lib, (s) => s.phase === 'paused');
    expect(held).toMatchObject({ embedded: 0, total: MANY.length });
    const passages = () => embed.calls.filter((c) => c.role === 'passage').length;
    expect(passages()).toBe(0);
    // Hybrid search still answers (keywords for what is not embedded).
    const { hits } = await lib.search({ query: 'heron count' });
    expect(hits.length).toBeGreaterThan(0);
    // A write while held embeds nothing.
    await lib.importText(doc('late.txt', 'A late note about herons.'));
    await new Promise((r) => setTimeout(r, 20));
    expect(passages()).toBe(0);

    await lib.resumeEmbedding();
    expect((await until(lib, embeddedAll)).embedded).toBe(MANY.length + 1);
  });

  it('cancels a run, keeps its vectors, and embeds the rest on resume', async () => {
    const embed = fakeEmbedWorker();
    const lib = await big({}, embed);
    await lib.connectEmbedders(spawner(), 1);
    await until(lib, (s) => s.embedded > 0);
    embed.hold();
    await until(lib, (s) => s.phase === 'embedding' && embed.calls.length > 1);
    await lib.cancelEmbedding();
    const cancelled = await until(lib, (s) => s.phase === 'paused');
    expect(cancelled.embedded).toBeGreaterThan(0);
    expect(cancelled.embedded).toBeLessThan(MANY.length);
    embed.release();
    // A write after a cancel does not start a new run by itself.
    await lib.importText(doc('late/after-cancel.txt', 'Written after the cancel, not embedded.'));
    await new Promise((r) => setTimeout(r, 30));
    expect((await lib.semanticStatus()).phase).toBe('paused');
    await lib.resumeEmbedding();
    expect((await until(lib, embeddedAll)).embedded).toBe(MANY.length + 1);
  });

  it('reports the embedding rate, the time left and the worker count', async () => {
    let t = 0;
    const embed = fakeEmbedWorker();
    const real = embed.worker.embedTexts;
    embed.worker.embedTexts = (async (...args: Parameters<EmbedWorkerApi['embedTexts']>) => {
      t += 400; // each batch takes 0.4 s of the injected clock
      return real(...args);
    }) as typeof embed.worker.embedTexts;
    const lib = await big({ now: () => t }, embed);
    const seen: SemanticStatus[] = [];
    await lib.watchSemantic((s) => void seen.push(s));
    await lib.connectEmbedders(spawner(), 2);
    await until(lib, embeddedAll);
    const measured = seen.filter((s) => s.phase === 'embedding' && s.ratePerSecond !== null);
    expect(measured.length).toBeGreaterThan(0);
    expect(measured.every((s) => s.ratePerSecond! > 0 && s.etaSeconds! >= 0)).toBe(true);
    expect(measured.every((s) => s.workers === 2)).toBe(true);
    expect(seen.at(-1)).toMatchObject({ phase: 'ready', ratePerSecond: null, etaSeconds: null });
    await lib.setEmbedWorkers(1);
    expect((await lib.semanticStatus()).workers).toBe(1);
  });
});

describe('embed workers that cannot start', () => {
  it('says why meaning search is off, keeps keyword search, and Retry connects again', async () => {
    const embed = fakeEmbedWorker();
    let failures = 1;
    const real = embed.worker.init;
    embed.worker.init = (async () => {
      if (failures-- > 0) throw createError('MODEL_LOAD_FAILED', { reason: 'model file missing' });
      return real();
    }) as typeof embed.worker.init;
    const lib = await library(openNodeDatabase(), embed);
    const err = await lib.connectEmbedders(spawner(), 1).catch((e: unknown) => e);
    expect((err as { code?: string }).code).toBe('MODEL_LOAD_FAILED');
    const stopped = await lib.semanticStatus();
    expect(stopped.phase).toBe('error');
    expect(stopped.message).toMatch(/model/i);
    expect((await lib.search({ query: 'pelican colony' })).hits[0]?.path).toBe(
      'birds/pelicans.txt',
    );
    await lib.resumeEmbedding(); // the Retry button
    expect((await until(lib, embeddedAll)).embedded).toBe(DOCS.length);
  });
});
