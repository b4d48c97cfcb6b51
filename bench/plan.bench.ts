// `npm run bench -- plan [--dataset <BEIR folder>] [--docs 700] [--queries 50] [--model use-lite] [--token-ms T] [--threads N] [--out file]`
// Latency of the query planner over the app's own search path: createHybridSearch on the eval's
// store (wa-sqlite FTS5) and HNSW, live query embedding (no vector cache), the scripted generator
// (`--token-ms` adds simulated generation time per token; 0 = planning + retrieval only), wired
// exactly as the library service wires it (workers/db/search-paths.ts). Compared with one
// plain hybrid query, per query, round-robin:
//   - the planner with the default techniques (goal: p50 within 1.77x of one hybrid query),
//   - RAG-Fusion (4 generated queries + the original), wired as before issue 15 (each retrieval
//     builds full hits and embeds its own query) and as now (rank only, one embedding batch, hits
//     built once) with the 5 query vectors from one batched forward pass (the app: one pool call,
//     one embed worker, `embedTexts` role query) or one after another (the previous wiring):
//     RAGF-006 asks total < 1.77x a single query,
//   - the app's results pages: a plain search's page of 10 documents against the optimised
//     search's page (PlanOptions.documents = 10; defaults and RAG-Fusion),
//   - and, apart, 5 query embeddings one at a time against one batch (same bytes).
// `--threads N` (default 1, the app's count on a 2-core device: hardwareConcurrency - 1): the
// backlog's embed threads; `--query-worker 1` (default; 0 = none, the layout before): the query
// worker beside them. Query embeddings run where the app runs them and are routed by the app's
// own function (workers/db/query-lane.ts `embedQueriesOnLane`): a lone query on the query
// worker, a plan's batch shared over the idle threads, each share one batched pass (a thread
// still busy with the original query gets no share). So a single query's keyword ranking
// overlaps its embedding, as in the app, and a plan's keyword rankings overlap its batch.
// `--threads 0`: every embedding on the main thread (no overlap anywhere; the reference runs
// before the overlap used this).
// Reports; never gates.
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createScriptedGenerator } from '../workers/llm/scripted';
import { planSearchDeps } from '../workers/db/search-paths';
import { createQueryPlanner } from '../workers/query-plan/planner';
import type { LlmDep, RankedHit } from '../workers/query-plan/types';
import type { PlanOptions } from '../workers/shared/research-api';
import { createEmbedPool } from '../workers/embed/pool';
import { embedQueriesOnLane, type QueryLanePools } from '../workers/db/query-lane';
import { parseArgs } from '../lab/args';
import { spawnEmbedThread } from '../lab/embed-cache';
import { loadCorpus, loadQueries } from '../eval/beir';
import { createHybridCore, hybridSettings } from '../eval/hybrid-mode';

const HERE = dirname(fileURLToPath(import.meta.url));

function stats(samples: number[]) {
  const s = [...samples].sort((a, b) => a - b);
  const at = (p: number) =>
    s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] ?? 0;
  const r = (x: number) => Math.round(x * 100) / 100;
  return {
    p50Ms: r(at(50)),
    p95Ms: r(at(95)),
    meanMs: r(s.reduce((a, b) => a + b, 0) / (s.length || 1)),
  };
}

async function library(args: Record<string, string>, lane: QueryLanePools | null) {
  const dataset = args.dataset ?? join(HERE, '..', '..', 'shared', 'datasets', 'scifact');
  const [corpus, queries] = await Promise.all([loadCorpus(dataset), loadQueries(dataset)]);
  const docs = corpus.slice(0, Number(args.docs ?? 700));
  const options = { model: args.model ?? 'use-lite' };
  const core = await createHybridCore(options);
  const report = await core.index(docs);
  const { store, lexical, embedFresh, embedFreshBatch } = core.parts();
  const { hybrid, lookup } = core.appSearch({
    fusion: hybridSettings(options).method,
    // Live query embedding: every configuration pays for its own query vectors. Several queries
    // in one call run as one batched forward pass, as the app's embedder runs them.
    semantic: {
      embedQuery: async (t) => (lane ? (await embedQueriesOnLane(lane, [t]))[0]! : embedFresh(t)),
      embedQueries: async (ts) => (lane ? embedQueriesOnLane(lane, ts) : embedFreshBatch(ts)),
    },
  });
  return { dataset, core, report, hybrid, lookup, store, lexical, queries };
}

type Library = Awaited<ReturnType<typeof library>>;
type Run = (q: string) => Promise<unknown>;

export default {
  name: 'plan',
  async run(argv: string[]) {
    const args = parseArgs(argv);
    const nQueries = Number(args.queries ?? 50);
    const tokenMs = Number(args['token-ms'] ?? 0);
    const model = args.model ?? 'use-lite';
    const threads = Math.max(0, Number(args.threads ?? 1));
    const queryWorker = threads > 0 && Number(args['query-worker'] ?? 1) > 0;
    const lane = await queryLane(model, threads, queryWorker);
    const lib = await library(args, lane);
    const timeline: Record<string, number[]> = {};
    const runs = planRuns(lib, lane, scriptedLlm(tokenMs), timeline);
    const micro = embedMicro(lib);
    const names = Object.keys(runs);
    const texts = [...lib.queries.values()].slice(0, nQueries);
    for (const q of texts.slice(0, 3)) for (const n of names) await runs[n]!(q); // warm-up
    for (const k of Object.keys(timeline)) delete timeline[k];
    const { samples, cpuSamples } = await roundRobin(runs, texts);
    const microNames = Object.keys(micro);
    const microSamples: Record<string, number[]> = Object.fromEntries(
      microNames.map((n) => [n, []]),
    );
    for (let i = 0; i < texts.length; i++) {
      for (let j = 0; j < microNames.length; j++) {
        const n = microNames[(i + j) % microNames.length]!;
        const t0 = performance.now();
        micro[n]!(texts[i]!);
        microSamples[n]!.push(performance.now() - t0);
      }
    }
    const microResults = Object.fromEntries(microNames.map((n) => [n, stats(microSamples[n]!)]));
    const results = Object.fromEntries(
      names.map((n) => [n, { ...stats(samples[n]!), cpuP50Ms: stats(cpuSamples[n]!).p50Ms }]),
    );
    const report = {
      bench: 'plan',
      date: new Date().toISOString(),
      dataset: lib.dataset,
      documents: lib.report.documents,
      chunks: lib.report.chunks,
      model: args.model ?? 'use-lite',
      queries: texts.length,
      tokenMs,
      queryEmbeddingThreads: threads,
      queryWorker,
      results,
      ...planRatios(results, names),
      'RAG-Fusion timeline (median ms from the plan start)': Object.fromEntries(
        Object.entries(timeline).map(([k, v]) => [k, stats(v).p50Ms]),
      ),
      queryEmbedding: {
        results: microResults,
        'batched p50 / one-at-a-time p50':
          Math.round(
            (microResults[microNames[1]!]!.p50Ms / microResults[microNames[0]!]!.p50Ms) * 100,
          ) / 100,
      },
      loadAverage1m: Math.round(loadavg()[0]! * 100) / 100,
    };
    await lib.core.close().catch(() => undefined);
    await lane?.backlog.close();
    await lane?.query?.close();
    const text = JSON.stringify(report, null, 2);
    if (args.out) writeFileSync(args.out, `${text}\n`);
    console.log(text);
  },
};

/** The app's embed threads: the backlog pool and the query worker (null with --threads 0). */
async function queryLane(
  model: string,
  threads: number,
  queryWorker: boolean,
): Promise<QueryLanePools | null> {
  const spawn = () => spawnEmbedThread(model, { queries: true });
  const lane: QueryLanePools | null =
    threads > 0
      ? {
          backlog: createEmbedPool({ spawn, size: threads }),
          query: queryWorker ? createEmbedPool({ spawn, size: 1 }) : null,
        }
      : null;
  await lane?.backlog.workers();
  await lane?.query?.workers();
  return lane;
}

/** The scripted generator, with `tokenMs` of simulated generation time per token. */
function scriptedLlm(tokenMs: number): LlmDep {
  const g = createScriptedGenerator({ yieldBetweenPieces: false });
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  return {
    kind: 'scripted',
    generate: async (req, o) => {
      const res = await g.generate(req, o);
      if (tokenMs > 0) await sleep(tokenMs * res.tokens);
      return res;
    },
  };
}

/** The planners compared: now (batched), now with sequential query vectors, and before issue 15. */
function planners(lib: Library, lane: QueryLanePools | null, llm: LlmDep) {
  const clock = { now: () => performance.now() };
  const { embedFresh } = lib.core.parts();
  const embed = async (ts: string[]) => ts.map(embedFresh);
  const paths = planSearchDeps(lib);
  // Now: retrievals rank only, variants embedded in one batch, hits built once (present).
  const now = createQueryPlanner({ ...paths, embed, llm, clock });
  // The same with the batch's vectors computed one after another (before batched passes).
  const nowSequential = createQueryPlanner({
    ...paths,
    embedQueries: async (ts: string[]) => {
      const out: Int16Array[] = [];
      for (const t of ts)
        out.push(lane ? (await embedQueriesOnLane(lane, [t]))[0]! : embedFresh(t));
      return out;
    },
    embed,
    llm,
    clock,
  });
  // Before issue 15: each retrieval a full search (snippets) embedding its own query.
  const before = createQueryPlanner<RankedHit>({
    search: async ({ text, vector, lexicalQuery, limit }) =>
      (
        await lib.hybrid.retrieve(
          { query: text, limit },
          { ...(vector ? { vector } : {}), ...(lexicalQuery ? { lexicalQuery } : {}) },
        )
      ).hits.map((h) => ({ ...h, id: String(h.chunkId) })),
    embed,
    llm,
    clock,
  });
  return { paths, now, nowSequential, before };
}

/** The timed configurations, the plain hybrid query first (the ratios' base), in report order. */
function planRuns(
  lib: Library,
  lane: QueryLanePools | null,
  llm: LlmDep,
  timeline: Record<string, number[]>,
): Record<string, Run> {
  const { paths, now, nowSequential, before } = planners(lib, lane, llm);
  const fusion: PlanOptions = {
    complexity: 'complex',
    techniques: { rewrite: false, hyde: false, fusion: true, keyphrases: false },
  };
  return {
    'hybrid search (one query)': (q) => lib.hybrid.retrieve({ query: q, limit: 10 }, {}),
    'plan, default techniques': async (q) => {
      const out = await now.plan(q);
      await paths.present(q, out.hits);
    },
    'plan, RAG-Fusion, before (sequential full searches)': (q) => before.plan(q, fusion),
    'plan, RAG-Fusion, now (rank, 5 query vectors from one embedder call, hits once)': async (
      q,
    ) => {
      const t0 = performance.now();
      const out = await now.plan(q, fusion);
      const planned = performance.now();
      await paths.present(q, out.hits);
      // Where the wall time goes: when each step ended (ms from the plan's start).
      const at = (k: string, ms: number) => (timeline[k] ??= []).push(ms);
      let lastRetrieval = 0;
      for (const s of out.plan.steps) {
        if (s.status === 'skipped') continue;
        const end = s.startMs + s.durationMs;
        if (s.kind === 'retrieve') lastRetrieval = Math.max(lastRetrieval, end);
        else at(`${s.id} ends`, end);
      }
      at('last of the five retrievals ends', lastRetrieval);
      at('plan returned', planned - t0);
      at('hits built (end)', performance.now() - t0);
    },
    'plan, RAG-Fusion, 5 query embeddings one after another (rank, hits once)': async (q) => {
      const out = await nowSequential.plan(q, fusion);
      await paths.present(q, out.hits);
    },
    // The app's own pages: a plain search's results page and the optimised search's
    // (PlanOptions.documents), 10 documents each with their passages.
    'hybrid search, results page (10 documents)': (q) =>
      lib.hybrid.retrieve({ query: q, documents: 10 }, {}),
    'plan, default techniques, results page (10 documents)': async (q) => {
      const out = await now.plan(q, { documents: 10 });
      await paths.present(q, out.hits);
    },
    'plan, RAG-Fusion, results page (10 documents)': async (q) => {
      const out = await now.plan(q, { ...fusion, documents: 10 });
      await paths.present(q, out.hits);
    },
  };
}

/** 5 query embeddings one at a time against one batch; throws if their bytes differ. */
function embedMicro(lib: Library): Record<string, (q: string) => unknown> {
  const { embedFresh, embedFreshBatch } = lib.core.parts();
  const all = [...lib.queries.values()];
  // Five short queries (this one and the next four), as a plan's variants reach the embedder.
  const five = (q: string) => {
    const i = all.indexOf(q);
    return [0, 1, 2, 3, 4].map((d) => all[(i + d) % all.length]!);
  };
  const micro: Record<string, (q: string) => unknown> = {
    'embed 5 queries one at a time': (q) => five(q).map(embedFresh),
    'embed 5 queries in one batched forward pass': (q) => embedFreshBatch(five(q)),
  };
  const same = five(all[0]!);
  if (
    embedFreshBatch(same).some(
      (v, i) =>
        Buffer.compare(Buffer.from(v.buffer), Buffer.from(embedFresh(same[i]!).buffer)) !== 0,
    )
  )
    throw new Error('batched query vectors differ from one-at-a-time vectors');
  return micro;
}

/** Round-robin with a rotating order: every configuration sees each query, warm or cold alike. */
async function roundRobin(runs: Record<string, Run>, texts: string[]) {
  const names = Object.keys(runs);
  const samples: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  const cpuSamples: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  for (let i = 0; i < texts.length; i++) {
    for (let j = 0; j < names.length; j++) {
      const n = names[(i + j) % names.length]!;
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      await runs[n]!(texts[i]!);
      samples[n]!.push(performance.now() - t0);
      const c = process.cpuUsage(c0); // every thread of the process: embed threads included
      cpuSamples[n]!.push((c.user + c.system) / 1000);
    }
  }
  return { samples, cpuSamples };
}

/** The report's ratios: p50 over one hybrid query, CPU p50, and the results pages'. */
function planRatios(
  results: Record<string, { p50Ms: number; cpuP50Ms: number }>,
  names: string[],
): Record<string, number> {
  const base = results[names[0]!]!.p50Ms;
  const ratio = (n: string) => Math.round((results[n]!.p50Ms / base) * 100) / 100;
  const cpuRatio = (n: string) =>
    Math.round((results[n]!.cpuP50Ms / results[names[0]!]!.cpuP50Ms) * 100) / 100;
  const pageBase = results[names[5]!]!.p50Ms;
  const pageRatio = (n: string) => Math.round((results[n]!.p50Ms / pageBase) * 100) / 100;
  return {
    'defaults p50 / one hybrid query p50 (goal < 1.77)': ratio(names[1]!),
    'RAGF-006 before: fusion p50 / one hybrid query p50 (goal < 1.77)': ratio(names[2]!),
    'RAGF-006 now: fusion p50 / one hybrid query p50 (goal < 1.77)': ratio(names[3]!),
    'fusion with 5 sequential query embeddings p50 / one hybrid query p50': ratio(names[4]!),
    // CPU time of all threads: what the ratio tends to when no core is free (load-independent).
    'RAG-Fusion CPU p50 / one hybrid query CPU p50': cpuRatio(names[3]!),
    'results pages: defaults p50 / plain search page p50': pageRatio(names[6]!),
    'results pages: fusion p50 / plain search page p50': pageRatio(names[7]!),
  };
}
