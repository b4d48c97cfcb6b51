// `npm run eval -- --dataset <BEIR folder> --mode lexical [--run <file>] [--split test]`
// Indexes a BEIR dataset with the chosen mode (eval/modes.ts), runs every query of the
// split, prints nDCG@10, Recall@100 and MRR@10 as JSON on stdout; progress goes to stderr.
import { writeFileSync } from 'node:fs';
import { loadCorpus, loadQrels, loadQueries } from './beir';
import { evaluate, type Run } from './metrics';
import { MODES } from './modes';
import { TASKS } from './tasks';
import { formatTrecRun } from './trec-run';
import { parseArgs } from '../lab/args';
import { CRAG_TASKS, runCragTask } from './crag';
// The CLI alone imports ml/: the fits it offers as tasks (crag-fit, checker-fit, rationale-fit,
// the claims task's out-of-fold passage models) are handed to the eval code that runs them.
import { CRAG_FITS, OUT_OF_FOLD } from '../ml/eval-fits';
import { runStancePairsTask } from './stance-pairs';

const RUN_DEPTH = 100;

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2), { strict: true });
  if (args.task === 'stance-pairs') return runStancePairsTask(args);
  if (args.task && (args.dataset || args.docs) && TASKS[args.task])
    return TASKS[args.task]!(args, { outOfFold: OUT_OF_FOLD });
  if (args.task && CRAG_TASKS.includes(args.task) && args.dataset)
    return runCragTask(args, CRAG_FITS);
  const dataset = args.dataset;
  const mode = args.mode ?? 'lexical';
  const split = args.split ?? 'test';
  const factory = MODES[mode];
  if (!dataset || !factory || args.task) {
    console.error(
      `usage: npm run eval -- --dataset <BEIR folder> --mode <${Object.keys(MODES).join('|')}> [--run <file>] [--split test]\n   or: npm run eval -- --dataset <folder> --task <${Object.keys(TASKS).join('|')}> [--json <file>]`,
    );
    process.exit(2);
  }
  const t0 = performance.now();
  const [corpus, queries, qrels] = await Promise.all([
    loadCorpus(dataset),
    loadQueries(dataset),
    loadQrels(dataset, split),
  ]);
  console.error(
    `[eval] ${corpus.length} documents, ${Object.keys(qrels).length} ${split} queries with qrels`,
  );
  const retriever = await factory(args);
  try {
    const report = await retriever.index(corpus, (done, total) => {
      process.stderr.write(`\r[eval] indexed ${done}/${total} documents`);
    });
    const tIndex = performance.now();
    process.stderr.write(
      `\n[eval] ${report.chunks} chunks in ${((tIndex - t0) / 1000).toFixed(1)} s\n`,
    );
    const run: Run = {};
    const ids = Object.keys(qrels).filter((id) => queries.has(id));
    let done = 0;
    for (const qid of ids) {
      run[qid] = await retriever.search(queries.get(qid)!, RUN_DEPTH);
      if (++done % 25 === 0 || done === ids.length)
        process.stderr.write(`\r[eval] queried ${done}/${ids.length}`);
    }
    const searchMs = performance.now() - tIndex;
    process.stderr.write(`\n[eval] queries in ${(searchMs / 1000).toFixed(1)} s\n`);
    if (args.run) {
      writeFileSync(args.run, formatTrecRun(run, ids, `sift-${mode}`));
      console.error(`[eval] wrote TREC run to ${args.run}`);
    }
    const scores = evaluate(qrels, run);
    const round = (x: number) => Math.round(x * 10000) / 10000;
    console.log(
      JSON.stringify(
        {
          dataset,
          split,
          mode,
          'nDCG@10': round(scores['nDCG@10']),
          'Recall@100': round(scores['Recall@100']),
          'MRR@10': round(scores['MRR@10']),
          queries: scores.queries,
          documents: report.documents,
          chunks: report.chunks,
        },
        null,
        2,
      ),
    );
  } finally {
    await retriever.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
