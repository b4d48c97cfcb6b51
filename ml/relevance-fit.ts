// `npx tsx ml/relevance-fit.ts --dataset ../shared/datasets/scifact [--split train]
//   [--models use-lite,all-MiniLM-L6-v2] [--out workers/fitted/relevance-bands.json]`
// Fits the relevance bands (workers/shared/relevance.ts) on a TRAIN split, never test: for every
// query, the app's lexical top 20 chunks (BM25 / the query's best attainable BM25) and each
// model's semantic top 20 (cosine) are labelled by whether their document is judged relevant;
// a one-feature logistic regression per signal calibrates P(relevant | score), and the bands
// start where it reaches `--high` (0.5) and `--medium` (0.2). Writes the thresholds with each
// band's measured precision and count, and prints how the bands fall on the hybrid top 10.
import { writeFileSync } from 'node:fs';
import { loadSplit } from '../eval/beir';
import { createHybridCore, hybridSettings } from '../eval/hybrid-mode';
import { fitLogistic, round4 } from '../eval/logistic';
import { fuseHybrid } from '../workers/search/rrf';
import { parseArgs } from '../lab/args';
import {
  bandOf,
  relevanceOf,
  type BandThresholds,
  type RelevanceBand,
  type RelevanceFit,
} from '../workers/shared/relevance';

type Row = { x: number; y: boolean };

const logit = (p: number) => Math.log(p / (1 - p));

/** Thresholds where the calibrated P(relevant | x) reaches `high` and `medium`, with precision. */
function fitBands(rows: Row[], pHigh: number, pMedium: number): BandThresholds {
  const m = fitLogistic(
    ['x'],
    rows.map((r) => ({ x: r.x })),
    rows.map((r) => r.y),
    1e-3,
  );
  const w = m.weights[0]!;
  if (!(w > 0)) throw new Error('score does not rise with relevance: nothing to fit');
  const at = (p: number) => m.mean[0]! + (m.scale[0]! * (logit(p) - m.bias)) / w;
  const t = { high: round4(at(pHigh)), medium: round4(at(pMedium)) };
  const count: Record<RelevanceBand, number> = { high: 0, medium: 0, low: 0 };
  const rel: Record<RelevanceBand, number> = { high: 0, medium: 0, low: 0 };
  for (const r of rows) {
    const b = bandOf(r.x, t);
    count[b]++;
    if (r.y) rel[b]++;
  }
  const precision = {
    high: round4(rel.high / Math.max(1, count.high)),
    medium: round4(rel.medium / Math.max(1, count.medium)),
    low: round4(rel.low / Math.max(1, count.low)),
  };
  return { ...t, precision, count };
}

type Saved = { qid: string; lists: unknown }[];
type Tally = Record<RelevanceBand | 'none', [number, number]>;
type Relevant = (qid: string, path: string) => boolean;

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const split = args.split ?? 'train';
  if (split === 'test') throw new Error('fit on train only: --split train');
  const pHigh = Number(args.high ?? 0.5);
  const pMedium = Number(args.medium ?? 0.2);
  const models = (args.models ?? 'use-lite,all-MiniLM-L6-v2').split(',');
  const dataset = args.dataset!;
  const data = await loadSplit(dataset, split);
  const { qrels, ids } = data;
  const relevant = (qid: string, path: string) => (qrels[qid]?.[path] ?? 0) > 0;
  const lexRows: Row[] = [];
  const semantic: Record<string, BandThresholds> = {};
  const hybridCheck: Record<string, Tally> = {};
  const perModel = new Map<string, Saved>();
  for (const model of models) {
    const rows = await modelRows({ ...args, model }, data, relevant, model === models[0]);
    lexRows.push(...rows.lexRows);
    semantic[model] = fitBands(rows.semRows, pHigh, pMedium);
    perModel.set(model, rows.saved);
  }
  const lexicalBands = fitBands(lexRows, pHigh, pMedium);
  const fit: RelevanceFit = {
    command: `npx tsx ml/relevance-fit.ts --dataset ${dataset} --split ${split} --models ${models.join(',')}`,
    date: new Date().toISOString().slice(0, 10),
    fittedOn: `${dataset} ${split} (${ids.length} queries; lexical and semantic top 20 chunks each)`,
    probability: { high: pHigh, medium: pMedium },
    lexical: lexicalBands,
    semantic,
  };
  // How the bands fall on each model's hybrid top 10 (the app's fusion), by relevance.
  for (const [model, saved] of perModel)
    hybridCheck[model] = hybridTally(model, saved, fit, relevant);
  const out = args.out ?? 'workers/fitted/relevance-bands.json';
  writeFileSync(out, JSON.stringify(fit, null, 2) + '\n');
  console.log(JSON.stringify({ out, fit, hybridTop10: hybridCheck }, null, 2));
}

/**
 * One model's rows: the semantic top 20 of every query (cosine, relevant?), with `withLexical`
 * the lexical top 20 too (BM25 / best attainable), and the lists kept for the hybrid check.
 */
async function modelRows(
  options: Record<string, string>,
  data: Awaited<ReturnType<typeof loadSplit>>,
  relevant: Relevant,
  withLexical: boolean,
): Promise<{ lexRows: Row[]; semRows: Row[]; saved: Saved }> {
  const { corpus, queries, ids } = data;
  const core = await createHybridCore(options);
  process.stderr.write(`[relevance-fit] ${options.model}: indexing ${corpus.length} documents\n`);
  await core.index(corpus);
  const { lexical } = core.parts();
  const { method } = hybridSettings(options);
  const lexRows: Row[] = [];
  const semRows: Row[] = [];
  const saved: Saved = [];
  for (const qid of ids) {
    const q = queries.get(qid)!;
    const lex = await lexical.rank(q, { limit: 20 });
    if (withLexical)
      for (const c of lex.chunks)
        lexRows.push({
          x: lex.maxScore > 0 ? c.score / lex.maxScore : 0,
          y: relevant(qid, c.path),
        });
    const lists = await core.lists(q, { lexicalK: 20, semanticK: 20 });
    for (const c of lists.semantic) semRows.push({ x: c.score, y: relevant(qid, c.path) });
    saved.push({ qid, lists: { lists, maxScore: lex.maxScore, method } });
  }
  await core.close();
  return { lexRows, semRows, saved };
}

/** Each band's [count, relevant] over one model's hybrid top 10 (the app's fusion). */
function hybridTally(model: string, saved: Saved, fit: RelevanceFit, relevant: Relevant): Tally {
  const tally: Tally = {
    high: [0, 0],
    medium: [0, 0],
    low: [0, 0],
    none: [0, 0],
  };
  for (const { qid, lists: raw } of saved) {
    const { lists, maxScore, method } = raw as {
      lists: Awaited<ReturnType<Awaited<ReturnType<typeof createHybridCore>>['lists']>>;
      maxScore: number;
      method: ReturnType<typeof hybridSettings>['method'];
    };
    const lexBy = new Map(lists.lexical.map((c) => [c.chunkId, c.score]));
    const semBy = new Map(lists.semantic.map((c) => [c.chunkId, c.score]));
    for (const f of fuseHybrid(lists.semantic, lists.lexical, method).items.slice(0, 10)) {
      const lex = lexBy.get(f.chunkId);
      const r = relevanceOf(
        {
          lexical: lex !== undefined ? { score: lex, maxScore } : undefined,
          cosine: semBy.get(f.chunkId),
          modelId: model,
        },
        fit,
      );
      const t = tally[r?.band ?? 'none'];
      t[0]++;
      if (relevant(qid, f.path)) t[1]++;
    }
  }
  return tally;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
