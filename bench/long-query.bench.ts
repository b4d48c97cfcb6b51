// `npm run bench -- long-query [--chunks 100000] [--queries 40] [--oracle 10] [--out file]`
// Lexical latency of long queries (issue 15 item 4): p50/p95 of rankChunks top 10 for 300-word
// passages beside the 10-word case (SciFact test claims cut to 10 words) on a generated library
// of N chunks (SciFact copies, bench/library-gen.ts), through the app's store and lexical search.
// Also: the same queries without the posting cache, and the first 300-word query of a session
// (another passage, cold cache). Same run: the exhaustive ranking (every posting list read) on the
// first --oracle queries, with the share of queries ranked exactly and the overlap@10. Load
// average is recorded. Reports only.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chunkText } from '../workers/ingest/chunk';
import { createLexicalSearch, type LexicalSearch } from '../workers/store/lexical-search';
import { openNodeDatabase } from '../workers/store/open-database-node';
import { createStore } from '../workers/store/store';
import { loadCorpus, loadQrels, loadQueries } from '../eval/beir';
import { parseArgs } from '../lab/args';
import { percentile, perturb } from './library-gen';

const HERE = dirname(fileURLToPath(import.meta.url));
const DEFAULT_DATASET = join(HERE, '..', '..', 'shared', 'datasets', 'scifact');
const r2 = (x: number) => Math.round(x * 100) / 100;

function latency(samples: number[]) {
  const s = [...samples].sort((a, b) => a - b);
  return { p50Ms: r2(percentile(s, 50)), p95Ms: r2(percentile(s, 95)), n: s.length };
}

async function timeQueries(search: LexicalSearch, texts: string[]) {
  const samples: number[] = [];
  const runs = [];
  for (const q of texts) {
    const t = performance.now();
    const r = await search.rank(q, { limit: 10 });
    samples.push(performance.now() - t);
    runs.push(r);
  }
  const postings = runs.map((r) => r.work.postingsRead).sort((a, b) => a - b);
  return {
    latency: latency(samples),
    postingsReadP50: percentile(postings, 50),
    withNotice: runs.filter((r) => r.notice).length,
    runs,
  };
}

type Store = Awaited<ReturnType<typeof createStore>>;
type Timed = Awaited<ReturnType<typeof timeQueries>>;

async function main(argv: string[]): Promise<void> {
  const args = parseArgs(argv);
  const dataset = args.dataset ?? DEFAULT_DATASET;
  const target = Number(args.chunks ?? 100_000);
  const nq = Number(args.queries ?? 40);
  const nOracle = Number(args.oracle ?? 10);
  const [corpus, queries, qrels] = await Promise.all([
    loadCorpus(dataset),
    loadQueries(dataset),
    loadQrels(dataset, 'test'),
  ]);
  const db = await openNodeDatabase();
  const store = await createStore(db, { clock: () => 0 });
  const { chunks, storeMs } = await storeCopies(store, corpus, target);

  const { short, long, firstLong } = benchQueries(corpus, queries, qrels, nq);

  const app = await createLexicalSearch(db.sql, { version: store.version });
  const full = await createLexicalSearch(db.sql, {
    version: store.version,
    prune: false,
    postingCacheEntries: 0,
  });
  const uncached = await createLexicalSearch(db.sql, {
    version: store.version,
    postingCacheEntries: 0,
  });
  // The very first 300-word query of a session: nothing of its posting lists in memory yet.
  const firstStarted = performance.now();
  await app.rank(firstLong, { limit: 10 });
  const firstLongMs = r2(performance.now() - firstStarted);
  for (const q of [...short.slice(0, 3), ...long.slice(0, 3)]) await app.rank(q, { limit: 10 });
  const tenWords = await timeQueries(app, short);
  const threeHundred = await timeQueries(app, long);
  const noCache = await timeQueries(uncached, long);
  const oracle = await timeQueries(full, long.slice(0, nOracle));
  const agreement = rankingAgreement(threeHundred, noCache, oracle);
  const report = {
    benchmark: 'long-query',
    command: `npm run bench -- long-query --chunks ${target} --queries ${nq} --oracle ${nOracle}`,
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, model: cpus()[0]?.model, loadavg1m: r2(loadavg()[0] ?? 0) },
    library: { documents: (await store.stats()).documents, chunks, storeMs: Math.round(storeMs) },
    'rankChunks top 10, 10-word queries': { ...tenWords, runs: undefined },
    'rankChunks top 10, 300-word queries (app: safe pruning + postings budget + posting cache)': {
      ...threeHundred,
      runs: undefined,
    },
    'same 300-word queries without the posting cache (every list read from SQLite)': {
      ...noCache,
      runs: undefined,
    },
    'first 300-word query of the session (cold posting cache), ms': firstLongMs,
    [`exhaustive ranking (every posting list, from SQLite), first ${nOracle} 300-word queries`]: {
      ...oracle,
      runs: undefined,
    },
    'app vs exhaustive on those queries': {
      overlapAt10: r2(agreement.overlap / Math.max(1, oracle.runs.length)),
      identicalRankingAndScores: `${agreement.exact}/${oracle.runs.length}`,
    },
    'app with vs without posting cache, all 300-word queries': {
      identicalRankingAndScores: `${agreement.sameWithoutCache}/${nq}`,
    },
  };
  const out = args.out ?? join(HERE, '..', 'reports', 'long-query.local.json');
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
  console.log(JSON.stringify(report, null, 2));
  await db.close();
}

/**
 * 10-word claims; 300-word passages of consecutive abstracts ("find passages like this one"),
 * and one more passage for the session's first (cold) query.
 */
function benchQueries(
  corpus: Awaited<ReturnType<typeof loadCorpus>>,
  queries: Map<string, string>,
  qrels: Awaited<ReturnType<typeof loadQrels>>,
  nq: number,
): { short: string[]; long: string[]; firstLong: string } {
  const short = Object.keys(qrels)
    .filter((q) => queries.has(q))
    .slice(0, nq)
    .map((q) => queries.get(q)!.split(/\s+/).slice(0, 10).join(' '));
  const words = corpus
    .slice(1000, 1000 + nq * 3)
    .map((d) => d.text)
    .join(' ')
    .split(/\s+/);
  const long = Array.from({ length: nq }, (_, i) => words.slice(i * 300, i * 300 + 300).join(' '));
  return { short, long, firstLong: words.slice(nq * 300, nq * 300 + 300).join(' ') };
}

/** SciFact copies (library-gen.ts word drops) stored until `target` chunks. */
async function storeCopies(
  store: Store,
  corpus: Awaited<ReturnType<typeof loadCorpus>>,
  target: number,
): Promise<{ chunks: number; storeMs: number }> {
  let chunks = 0;
  const t = performance.now();
  for (let copy = 0; chunks < target; copy++) {
    for (const d of corpus) {
      if (chunks >= target) break;
      const text = perturb(d.text.trim() ? d.text : d.title, copy, d.id);
      const parts = chunkText(text);
      const path = copy === 0 ? d.id : `copy${copy}/${d.id}`;
      await store.putDocument(
        { path, title: d.title, mime: 'text/plain', size: text.length, modified: copy, text },
        parts,
        path,
      );
      chunks += parts.length;
    }
    process.stderr.write(`\r[bench:long-query] ${chunks} chunks`);
  }
  const storeMs = performance.now() - t;
  process.stderr.write(`\n[bench:long-query] stored in ${(storeMs / 1000).toFixed(1)} s\n`);
  return { chunks, storeMs };
}

/** The app's 300-word rankings against the exhaustive ones and against no posting cache. */
function rankingAgreement(app: Timed, noCache: Timed, oracle: Timed) {
  let overlap = 0;
  let exact = 0;
  const sameWithoutCache = app.runs.filter(
    (r, i) => JSON.stringify(r.chunks) === JSON.stringify(noCache.runs[i]!.chunks),
  ).length;
  oracle.runs.forEach((o, i) => {
    const got = app.runs[i]!.chunks;
    const ids = new Set(o.chunks.map((c) => c.chunkId));
    overlap += got.filter((c) => ids.has(c.chunkId)).length / Math.max(1, o.chunks.length);
    if (JSON.stringify(got) === JSON.stringify(o.chunks)) exact++;
  });
  return { overlap, exact, sameWithoutCache };
}

export default { name: 'long-query', run: main };
