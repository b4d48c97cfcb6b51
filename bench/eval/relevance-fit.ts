// `npx tsx bench/eval/relevance-fit.ts --dataset ../shared/datasets/scifact [--split train]
//   [--models use-lite,all-MiniLM-L6-v2] [--out workers/shared/relevance-bands.json]`
// Fits the relevance bands (workers/shared/relevance.ts) on a TRAIN split, never test: for every
// query, the app's lexical top 20 chunks (BM25 / the query's best attainable BM25) and each
// model's semantic top 20 (cosine) are labelled by whether their document is judged relevant;
// a one-feature logistic regression per signal calibrates P(relevant | score), and the bands
// start where it reaches `--high` (0.5) and `--medium` (0.2). Writes the thresholds with each
// band's measured precision and count, and prints how the bands fall on the hybrid top 10.
import { writeFileSync } from 'node:fs';
import { loadSplit } from './beir';
import { createHybridCore, hybridSettings } from './hybrid-mode';
import { fitLogistic, round4 } from './logistic';
import { fuseHybrid } from '../../workers/search/rrf';
import { parseArgs } from '../args';
import {
  bandOf,
  relevanceOf,
  type BandThresholds,
  type RelevanceBand,
  type RelevanceFit,
} from '../../workers/shared/relevance';

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

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const split = args.split ?? 'train';
  if (split === 'test') throw new Error('fit on train only: --split train');
  const pHigh = Number(args.high ?? 0.5);
  const pMedium = Number(args.medium ?? 0.2);
  const models = (args.models ?? 'use-lite,all-MiniLM-L6-v2').split(',');
  const dataset = args.dataset!;
  const { corpus, queries, qrels, ids } = await loadSplit(dataset, split);
  const relevant = (qid: string, path: string) => (qrels[qid]?.[path] ?? 0) > 0;
  const lexRows: Row[] = [];
  const semantic: Record<string, BandThresholds> = {};
  const hybridCheck: Record<string, Record<RelevanceBand | 'none', [number, number]>> = {};
  const perModel = new Map<string, { qid: string; lists: unknown }[]>();
  for (const model of models) {
    const options = { ...args, model };
    const core = await createHybridCore(options);
    process.stderr.write(`[relevance-fit] ${model}: indexing ${corpus.length} documents\n`);
    await core.index(corpus);
    const { lexical } = core.parts();
    const { method } = hybridSettings(options);
    const semRows: Row[] = [];
    const saved: { qid: string; lists: unknown }[] = [];
    for (const qid of ids) {
      const q = queries.get(qid)!;
      const lex = await lexical.rank(q, { limit: 20 });
      if (model === models[0])
        for (const c of lex.chunks)
          lexRows.push({
            x: lex.maxScore > 0 ? c.score / lex.maxScore : 0,
            y: relevant(qid, c.path),
          });
      const lists = await core.lists(q, { lexicalK: 20, semanticK: 20 });
      for (const c of lists.semantic) semRows.push({ x: c.score, y: relevant(qid, c.path) });
      saved.push({ qid, lists: { lists, maxScore: lex.maxScore, method } });
    }
    semantic[model] = fitBands(semRows, pHigh, pMedium);
    perModel.set(model, saved);
    await core.close();
  }
  const lexicalBands = fitBands(lexRows, pHigh, pMedium);
  const fit: RelevanceFit = {
    command: `npx tsx bench/eval/relevance-fit.ts --dataset ${dataset} --split ${split} --models ${models.join(',')}`,
    date: new Date().toISOString().slice(0, 10),
    fittedOn: `${dataset} ${split} (${ids.length} queries; lexical and semantic top 20 chunks each)`,
    probability: { high: pHigh, medium: pMedium },
    lexical: lexicalBands,
    semantic,
  };
  // How the bands fall on each model's hybrid top 10 (the app's fusion), by relevance.
  for (const [model, saved] of perModel) {
    const tally: Record<RelevanceBand | 'none', [number, number]> = {
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
    hybridCheck[model] = tally;
  }
  const out = args.out ?? 'workers/shared/relevance-bands.json';
  writeFileSync(out, JSON.stringify(fit, null, 2) + '\n');
  console.log(JSON.stringify({ out, fit, hybridTop10: hybridCheck }, null, 2));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
