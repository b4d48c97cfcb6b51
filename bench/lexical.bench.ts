// `npm run bench` / `npm run bench -- lexical [--dataset <BEIR folder>] [--queries N] [--out file]`
// Lexical path: indexing throughput (chunks/s) and query latency p50/p95 of Sift's store +
// lexical search (wa-sqlite FTS5 in Node, the app's modules) side by side with MiniSearch on
// the same chunks and queries, plus nDCG@10 of both for context. Reports; never gates.
import { execSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import MiniSearch from 'minisearch';
import { chunkText } from '../workers/ingest/chunk';
import { createLexicalSearch } from '../workers/store/lexical-search';
import { openNodeDatabase } from '../workers/store/open-database-node';
import { createStore } from '../workers/store/store';
import type { ChunkInput } from '../workers/shared/types';
import { loadCorpus, loadQrels, loadQueries, type BeirDoc } from '../eval/beir';
import { evaluate, type Run } from '../eval/metrics';
import { parseArgs } from '../lab/args';

const HERE = dirname(fileURLToPath(import.meta.url));
const DEFAULT_DATASET = join(HERE, '..', '..', 'shared', 'datasets', 'scifact');

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

function latency(samples: number[]) {
  const s = [...samples].sort((a, b) => a - b);
  const r = (x: number) => Math.round(x * 1000) / 1000;
  return {
    p50Ms: r(percentile(s, 50)),
    p95Ms: r(percentile(s, 95)),
    meanMs: r(s.reduce((a, b) => a + b, 0) / (s.length || 1)),
  };
}

interface PreparedDoc {
  doc: BeirDoc;
  text: string;
  chunks: ChunkInput[];
}

/** Best chunk per document, in rank order. */
function toDocs(
  hits: Array<{ path: string; score: number }>,
): Array<{ docId: string; score: number }> {
  const best = new Map<string, number>();
  for (const h of hits) if (!best.has(h.path)) best.set(h.path, h.score);
  return [...best].map(([docId, score]) => ({ docId, score }));
}

type Qrels = Awaited<ReturnType<typeof loadQrels>>;
type Engine = {
  engine: string;
  indexMs: number;
  chunksPerSecond: number;
  query: ReturnType<typeof latency>;
  nDCG10: number;
};

export async function main(argv: string[] = process.argv.slice(2)): Promise<void> {
  const args = parseArgs(argv);
  const dataset = args.dataset ?? DEFAULT_DATASET;
  const [corpus, queries, qrels] = await Promise.all([
    loadCorpus(dataset),
    loadQueries(dataset),
    loadQrels(dataset, 'test'),
  ]);
  const qids = Object.keys(qrels)
    .filter((q) => queries.has(q))
    .slice(0, args.queries ? Number(args.queries) : undefined);
  const prepared: PreparedDoc[] = corpus.map((doc) => {
    const text = doc.text.trim() ? doc.text : doc.title;
    return { doc, text, chunks: chunkText(text) };
  });
  const totalChunks = prepared.reduce((n, p) => n + p.chunks.length, 0);
  console.error(
    `[bench:lexical] ${corpus.length} docs, ${totalChunks} chunks, ${qids.length} queries`,
  );
  const { sift, minisearch } = await timeEngines(prepared, totalChunks, queries, qids, qrels);
  const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;
  const report = {
    benchmark: 'lexical',
    date: new Date().toISOString(),
    commit: gitCommit(),
    machine: {
      node: process.version,
      cpu: cpus()[0]?.model ?? 'unknown',
      cores: cpus().length,
      loadAverage1m: Math.round((loadavg()[0] ?? 0) * 100) / 100,
    },
    dataset,
    documents: corpus.length,
    chunks: totalChunks,
    queries: qids.length,
    notes:
      'Sift indexing stores documents, chunks and the FTS5 index in SQLite (one transaction per document); MiniSearch only builds an in-memory index. Query latency: Sift search() with snippets, MiniSearch search() sliced to 10.',
    sift,
    minisearch,
    ratios: {
      'indexing chunks/s (sift / minisearch)': ratio(
        sift.chunksPerSecond,
        minisearch.chunksPerSecond,
      ),
      'query p50 (sift / minisearch)': ratio(sift.query.p50Ms, minisearch.query.p50Ms),
      'query p95 (sift / minisearch)': ratio(sift.query.p95Ms, minisearch.query.p95Ms),
    },
  };
  const out = args.out ?? join(HERE, '..', 'reports', 'lexical.local.json');
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
  console.log(JSON.stringify(report, null, 2));
  console.error(`[bench:lexical] report written to ${out}`);
}

function gitCommit(): string {
  try {
    return execSync('git rev-parse --short HEAD', { cwd: HERE }).toString().trim();
  } catch {
    return 'unknown'; // not a git checkout
  }
}

/** Both engines indexed and queried on the same chunks and queries: times and nDCG@10. */
async function timeEngines(
  prepared: PreparedDoc[],
  totalChunks: number,
  queries: Map<string, string>,
  qids: string[],
  qrels: Qrels,
): Promise<{ sift: Engine; minisearch: Engine }> {
  // --- Sift: store (documents + chunks + FTS5 in one transaction per document) -----------------
  const db = await openNodeDatabase();
  const store = await createStore(db, { clock: () => 0 });
  let t = performance.now();
  for (const p of prepared) {
    await store.putDocument(
      {
        path: p.doc.id,
        title: p.doc.title,
        mime: 'text/plain',
        size: p.text.length,
        modified: 0,
        text: p.text,
      },
      p.chunks,
      `${p.doc.id}:${p.text.length}`,
    );
  }
  const siftIndexMs = performance.now() - t;
  console.error(`[bench:lexical] sift indexed in ${(siftIndexMs / 1000).toFixed(2)} s`);
  const search = await createLexicalSearch(db.sql, { version: store.version });

  // --- MiniSearch: same chunks (title + chunk text), default BM25+ scoring --------------------
  const mini = new MiniSearch<{ id: number; path: string; title: string; text: string }>({
    fields: ['title', 'text'],
    storeFields: ['path'],
  });
  const miniDocs = prepared.flatMap((p) =>
    p.chunks.map((c) => ({ path: p.doc.id, title: p.doc.title, text: c.text })),
  );
  t = performance.now();
  mini.addAll(miniDocs.map((d, id) => ({ id, ...d })));
  const miniIndexMs = performance.now() - t;
  console.error(`[bench:lexical] minisearch indexed in ${(miniIndexMs / 1000).toFixed(2)} s`);
  const q = await timeQueries(search, mini, queries, qids);
  await db.close();
  const engine = (name: string, indexMs: number, times: number[], run: Run): Engine => ({
    engine: name,
    indexMs: Math.round(indexMs),
    chunksPerSecond: Math.round(totalChunks / (indexMs / 1000)),
    query: latency(times),
    nDCG10: Math.round(evaluate(qrels, run)['nDCG@10'] * 10000) / 10000,
  });
  return {
    sift: engine('sift (wa-sqlite FTS5 + BM25 k1=0.9 b=0.4)', siftIndexMs, q.siftTimes, q.siftRun),
    minisearch: engine('minisearch (in-memory, BM25+)', miniIndexMs, q.miniTimes, q.miniRun),
  };
}

/** Warms both up, then times each query (top 10, as the UI asks); deeper runs for nDCG (untimed). */
async function timeQueries(
  search: Awaited<ReturnType<typeof createLexicalSearch>>,
  mini: MiniSearch<{ id: number; path: string; title: string; text: string }>,
  queries: Map<string, string>,
  qids: string[],
) {
  for (const qid of qids.slice(0, 5)) {
    await search.search({ query: queries.get(qid)!, limit: 10 });
    mini.search(queries.get(qid)!);
  }
  const siftTimes: number[] = [];
  const miniTimes: number[] = [];
  const siftRun: Run = {};
  const miniRun: Run = {};
  for (const qid of qids) {
    const q = queries.get(qid)!;
    let t = performance.now();
    await search.search({ query: q, limit: 10 });
    siftTimes.push(performance.now() - t);
    t = performance.now();
    const found = mini.search(q).slice(0, 10);
    miniTimes.push(performance.now() - t);
    // Quality context (not timed): document-level runs from deeper lists.
    siftRun[qid] = toDocs(await search.rankChunks(q, { limit: 1000 })).slice(0, 100);
    miniRun[qid] = toDocs(
      mini
        .search(q)
        .slice(0, 1000)
        .map((r) => ({ path: String(r.path), score: r.score })),
    ).slice(0, 100);
    void found;
  }
  return { siftTimes, miniTimes, siftRun, miniRun };
}

export default { name: 'lexical', run: main };

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
