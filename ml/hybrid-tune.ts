// `npx tsx ml/hybrid-tune.ts --dataset <BEIR folder> [--split train] [--grid default]`
// Fusion development on a TRAIN split: computes each query's lexical and semantic chunk lists
// once (depth 100, HNSW and exact), caches them under .cache/hybrid/, then scores many fusion
// settings in memory (nDCG@10, Recall@100, MRR@10) and prints one JSON line per setting.
// Never point it at a test split to choose settings: that is what `npm run eval` reports.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../workers/embed/node-kernel';
import type { FusionMethod } from '../workers/search/rrf';
import { agreementAt } from '../workers/search/rrf';
import { loadCorpus, loadQrels, loadQueries } from '../eval/beir';
import { createHybridCore, fuseToDocs, type HybridLists } from '../eval/hybrid-mode';
import { evaluate, ndcgAt, rankRun, type Run } from '../eval/metrics';
import { parseArgs } from '../lab/args';

const DEPTH = 100;

type Cached = Record<string, { hnsw: HybridLists; exact: HybridLists }>;

async function lists(args: Record<string, string>, split: string): Promise<Cached> {
  const model = args.model ?? 'use-lite';
  const dir = join(REPO_ROOT, '.cache/hybrid');
  const file = join(dir, `lists-${model.replace(/[^\w.-]/g, '_')}-${split}.json`);
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as Cached;
  const dataset = args.dataset!;
  const [corpus, queries, qrels] = await Promise.all([
    loadCorpus(dataset),
    loadQueries(dataset),
    loadQrels(dataset, split),
  ]);
  const core = await createHybridCore(args);
  await core.index(corpus, (d, t) => process.stderr.write(`\r[tune] indexed ${d}/${t}`));
  const out: Cached = {};
  const ids = Object.keys(qrels).filter((id) => queries.has(id));
  let n = 0;
  for (const qid of ids) {
    const q = queries.get(qid)!;
    out[qid] = {
      hnsw: await core.lists(q, { lexicalK: DEPTH, semanticK: DEPTH }),
      exact: await core.lists(q, { lexicalK: DEPTH, semanticK: DEPTH, exact: true }),
    };
    if (++n % 50 === 0) process.stderr.write(`\r[tune] listed ${n}/${ids.length}`);
  }
  await core.close();
  mkdirSync(dir, { recursive: true });
  writeFileSync(file, JSON.stringify(out));
  return out;
}

const round = (x: number) => Math.round(x * 10000) / 10000;

type Qrels = Awaited<ReturnType<typeof loadQrels>>;
type Method = FusionMethod | 'lexical' | 'semantic';

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const split = args.split ?? 'train';
  if (!args.dataset) throw new Error('--dataset <BEIR folder> is required');
  if (split === 'test' && args.iKnowThisIsTest !== 'yes')
    throw new Error('hybrid-tune chooses settings: run it on a train split, not test');
  const cached = await lists(args, split);
  const qrels = await loadQrels(args.dataset, split);
  const qids = Object.keys(cached);
  const grid = JSON.parse(args.grid ?? '[]') as Array<Record<string, unknown>>;

  // Signals: how often the lists agree, per query, on this library.
  const agree = qids.map((q) => agreementAt(cached[q]!.hnsw.semantic, cached[q]!.hnsw.lexical, 10));
  const mean = agree.reduce((a, b) => a + b, 0) / agree.length;
  console.log(JSON.stringify({ split, queries: qids.length, meanAgreementAt10: round(mean) }));
  agreementBuckets(cached, qrels, qids, agree);
  if (args.simulate) {
    simulateStrongerDense(cached, qrels, qids, grid);
    return;
  }
  const score = scorer(cached, qrels, qids);
  for (const k of [20, 100]) {
    score('lexical', 'lexical', k);
    score('semantic', 'semantic', k);
    score('semantic-exact', 'semantic', k, true);
    score('rrf', { kind: 'rrf' }, k);
    score('rrf-exact', { kind: 'rrf' }, k, true);
    for (const w of [0, 0.05, 0.1, 0.2, 0.3, 0.5, 0.7])
      score(
        `weighted-rrf s=${w}`,
        { kind: 'weighted-rrf', weights: { semantic: w, lexical: 1 } },
        k,
      );
    for (const w of [0, 0.05, 0.1, 0.2, 0.3, 0.5, 1])
      score(`minmax s=${w}`, { kind: 'minmax', weights: { semantic: w, lexical: 1 } }, k);
    score('adaptive default', { kind: 'adaptive' }, k);
    for (const g of grid) score(`adaptive ${JSON.stringify(g)}`, { kind: 'adaptive', ...g }, k);
  }
  // Lexical first (the dense list only orders what lexical missed) with the lexical list read
  // deep enough to fill the top 10 documents by itself: semantic depth 20, lexical 100.
  const lexicalFirst: Method = { kind: 'weighted-rrf', weights: { semantic: 0.001, lexical: 1 } };
  score('lexical-first s=0.001', lexicalFirst, 20, false, 100);
}

/** Prints one JSON line (nDCG@10, Recall@100, MRR@10) per setting over the lists `view` holds. */
function scorer(view: Cached, qrels: Qrels, qids: string[]) {
  return (name: string, method: Method, k: number, exact = false, lexicalK = k) => {
    const run: Run = {};
    for (const qid of qids) {
      const l = exact ? view[qid]!.exact : view[qid]!.hnsw;
      const sliced = { semantic: l.semantic.slice(0, k), lexical: l.lexical.slice(0, lexicalK) };
      if (method === 'lexical' || method === 'semantic') {
        const best = new Map<string, number>();
        for (const c of sliced[method]) if (!best.has(c.path)) best.set(c.path, c.score);
        run[qid] = [...best].map(([docId, s]) => ({ docId, score: s }));
      } else run[qid] = fuseToDocs(sliced, method, 100);
    }
    const m = evaluate(qrels, run);
    console.log(
      JSON.stringify({
        name,
        depth: k,
        ...(lexicalK !== k ? { lexicalDepth: lexicalK } : {}),
        index: exact ? 'exact' : 'hnsw',
        'nDCG@10': round(m['nDCG@10']),
        'Recall@100': round(m['Recall@100']),
        'MRR@10': round(m['MRR@10']),
      }),
    );
  };
}

/** Does agreement predict when the dense list helps? Mean nDCG@10 per agreement bucket (depth 20). */
function agreementBuckets(cached: Cached, qrels: Qrels, qids: string[], agree: number[]): void {
  const perQuery = (method: FusionMethod, qid: string) => {
    const l = cached[qid]!.hnsw;
    const docs = fuseToDocs(
      { semantic: l.semantic.slice(0, 20), lexical: l.lexical.slice(0, 20) },
      method,
      100,
    );
    return ndcgAt(rankRun(docs), qrels[qid] ?? {}, 10);
  };
  const edges = [0, 0.1, 0.2, 0.3, 0.5, 1.01];
  for (let b = 0; b + 1 < edges.length; b++) {
    const inB = qids.filter((_, i) => agree[i]! >= edges[b]! && agree[i]! < edges[b + 1]!);
    if (inB.length === 0) continue;
    const avg = (m: FusionMethod) =>
      round(inB.reduce((a, q) => a + perQuery(m, q), 0) / inB.length);
    const row: Record<string, unknown> = {
      agreement: `[${edges[b]}, ${Math.min(1, edges[b + 1]!)})`,
      queries: inB.length,
    };
    for (const w of [0, 0.1, 0.3, 0.5, 1])
      row[`wrrf s=${w}`] = avg({ kind: 'weighted-rrf', weights: { semantic: w, lexical: 1 } });
    console.log(JSON.stringify(row));
  }
}

/**
 * Behaviour check (not used to choose anything): a simulated STRONGER dense list. Each train
 * query's relevant documents are put at the top of its semantic list with probability p (the
 * rest keeps USE-lite's order), so the dense list's quality is dialled up; does the adaptive
 * fusion then let it help, as plain RRF does?
 */
function simulateStrongerDense(
  original: Cached,
  qrels: Qrels,
  qids: string[],
  grid: Array<Record<string, unknown>>,
): void {
  for (const p of [0.5, 0.7, 0.9]) {
    const sim = simulatedLists(original, qrels, qids, p);
    const agreeSim = qids.map((q) => agreementAt(sim[q]!.hnsw.semantic, sim[q]!.hnsw.lexical, 10));
    console.log(
      JSON.stringify({
        simulatedP: p,
        meanAgreementAt10: round(agreeSim.reduce((a, b) => a + b, 0) / agreeSim.length),
      }),
    );
    const score = scorer(sim, qrels, qids);
    score(`sim p=${p} semantic`, 'semantic', 20);
    score(`sim p=${p} lexical`, 'lexical', 20);
    score(`sim p=${p} rrf`, { kind: 'rrf' }, 20);
    score(`sim p=${p} adaptive default`, { kind: 'adaptive' }, 20);
    for (const g of grid)
      score(`sim p=${p} adaptive ${JSON.stringify(g)}`, { kind: 'adaptive', ...g }, 20);
    for (const w of [0.1, 0.3, 0.5])
      score(
        `sim p=${p} weighted-rrf s=${w}`,
        { kind: 'weighted-rrf', weights: { semantic: w, lexical: 1 } },
        20,
      );
  }
}

/** The lists with each query's relevant documents led into its semantic list with probability p (seeded). */
function simulatedLists(original: Cached, qrels: Qrels, qids: string[], p: number): Cached {
  let seed = 12345;
  const rand = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed / 4294967296;
  };
  const sim: Cached = {};
  for (const qid of qids) {
    const l = original[qid]!.hnsw;
    const rel = Object.keys(qrels[qid] ?? {}).filter(() => rand() < p);
    const lead = rel.map((docId, i) => {
      const hit = [...l.lexical, ...l.semantic].find((c) => c.path === docId);
      return hit ? { ...hit } : { chunkId: -1 - i, path: docId, seq: 0, score: 0 };
    });
    const rest = l.semantic.filter((c) => !rel.includes(c.path));
    const top = rest[0]?.score ?? 0.5;
    const semantic = [...lead, ...rest].map((c, i) => ({ ...c, score: top + 0.1 - i * 0.001 }));
    sim[qid] = {
      hnsw: { semantic, lexical: l.lexical },
      exact: { semantic, lexical: l.lexical },
    };
  }
  return sim;
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
