// `npm run eval -- --dataset <BEIR folder> --task crag --model <id> [--split test|train] [--json FILE]`
// `npm run eval -- --dataset <BEIR folder> --task crag-fit --split train --model <id>`
// The answer pipeline's quality (issue 16) on a BEIR folder: passages of the hybrid top-10 are
// relevant iff in the qrels; claims/ files (SciFact) add rationale and checker figures. The fit
// writes workers/fitted/evaluator-<model>.json and refuses any split but train.
// Subsets for quick runs and CI: --max-queries N (first N queries of the split) --max-docs M
// (their relevant documents plus the first M of the corpus). --records FILE: see below.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { deserialize, serialize } from 'node:v8';
import { createExpansion } from '../workers/answer/corrective';
import { variantFor } from '../workers/answer/evaluator';
import {
  loadFittedModel,
  logisticScore,
  passageScore,
  type FittedModel,
  type LogisticModel,
} from '../workers/answer/fitted';
import { loadCorpus, loadQrels, loadQueries, type BeirDoc } from './beir';
import { buildPairs, evalChecker, type PairKind } from './crag-checker';
import { loadEvidence, type Evidence } from './crag-claims';
import {
  answerFigures,
  collectQueries,
  correctiveGain,
  correctiveTrials,
  rerankTrials,
  goldSpans,
  refineFigures,
  scoreWith,
  type QueryRecord,
} from './crag-collect';
import { createCragHarness, type CragHarness } from './crag-harness';
import { auroc, classify, percentile, round4 } from './logistic';
import type { Qrels } from './metrics';

export const CRAG_TASKS = ['crag', 'crag-fit', 'checker-fit', 'rationale-fit'];

export interface Loaded {
  corpus: BeirDoc[];
  queries: Map<string, string>;
  qrels: Qrels;
  evidence: Evidence[];
}

async function load(args: Record<string, string>, split: string): Promise<Loaded> {
  const dataset = args.dataset!;
  const [corpus, queries, qrelsAll] = await Promise.all([
    loadCorpus(dataset),
    loadQueries(dataset),
    loadQrels(dataset, split),
  ]);
  let qrels = qrelsAll;
  let docs = corpus;
  if (args['max-queries'] || args['max-docs']) {
    const ids = Object.keys(qrelsAll)
      .filter((id) => queries.has(id))
      .slice(0, Number(args['max-queries'] ?? Infinity));
    qrels = Object.fromEntries(ids.map((id) => [id, qrelsAll[id]!]));
    const want = new Set(ids.flatMap((id) => Object.keys(qrelsAll[id]!)));
    const maxDocs = Number(args['max-docs'] ?? Infinity);
    docs = corpus.filter((d, i) => i < maxDocs || want.has(d.id));
  }
  const claimIds = new Set(Object.keys(qrels));
  const evidence = loadEvidence(dataset, split).filter((e) => claimIds.has(e.claimId));
  return { corpus: docs, queries, qrels, evidence };
}

function passageFigures(
  records: QueryRecord[],
  score: (values: Record<string, number>) => number,
  threshold: number,
) {
  const rows = records.flatMap((r) => r.first.features);
  const labels = records.flatMap((r) => r.labels);
  const scores = rows.map(score);
  const c = classify(scores, labels, threshold);
  return {
    auroc: auroc(scores, labels),
    ba: c.balancedAccuracy,
    f1: c.f1,
    positives: labels.filter(Boolean).length,
    passages: labels.length,
  };
}

function queryFigures(fitted: FittedModel, records: QueryRecord[]) {
  const decisions = records.map((r) => scoreWith(fitted, r.first).decision);
  const correct = records.filter((_, i) => decisions[i] === 'CORRECT');
  const ablated = records.filter((r) => r.ablation);
  const notCorrect = ablated.filter(
    (r) => scoreWith(fitted, r.ablation!).decision !== 'CORRECT',
  ).length;
  const count = (d: string) => decisions.filter((x) => x === d).length;
  return {
    decisions,
    precision:
      correct.filter((r) => r.labels.slice(0, 3).some(Boolean)).length /
      Math.max(1, correct.length),
    coverage: correct.length / Math.max(1, records.length),
    ablation: notCorrect / Math.max(1, ablated.length),
    distribution: {
      CORRECT: count('CORRECT'),
      AMBIGUOUS: count('AMBIGUOUS'),
      INCORRECT: count('INCORRECT'),
    },
  };
}

async function checkerFigures(
  harness: CragHarness,
  fitted: FittedModel,
  records: QueryRecord[],
  l: Loaded,
) {
  const checker = await evalChecker(harness, fitted);
  const pairs = buildPairs(harness, fitted, records, l.evidence, l.corpus.length);
  const t0 = performance.now();
  const supports = await checker.check(pairs);
  const ms = performance.now() - t0;
  const share = (kind: PairKind, label: string) => {
    const of = pairs.map((p, i) => [p, supports[i]!] as const).filter(([p]) => p.kind === kind);
    return of.length ? of.filter(([, s]) => s.label === label).length / of.length : null;
  };
  const n = (kind: PairKind) => pairs.filter((p) => p.kind === kind).length;
  return {
    right: share('right', 'supported'),
    hard: share('hard', 'unsupported'),
    random: share('random', 'unsupported'),
    contradict: share('contradict', 'supported'),
    counts: {
      right: n('right'),
      hard: n('hard'),
      random: n('random'),
      contradict: n('contradict'),
    },
    msPerPair: pairs.length ? ms / pairs.length : 0,
  };
}

/** Checker latency on the extractive answers themselves (what the pipeline adds per query). */
async function checkTimes(harness: CragHarness, fitted: FittedModel, records: QueryRecord[]) {
  const { refineRecord } = await import('./crag-collect');
  const { extractiveAnswer } = await import('../workers/answer/extractive');
  const checker = await evalChecker(harness, fitted);
  const times: number[] = [];
  for (const rec of records) {
    const r = refineRecord(fitted, rec);
    const d = extractiveAnswer(r.kept, fitted, r.all);
    const t0 = performance.now();
    await checker.check(d.sentences.map((s) => ({ sentence: s.text, evidence: [s.strip.text] })));
    times.push(performance.now() - t0);
  }
  return times;
}

/**
 * The fits `--task crag-fit|checker-fit|rationale-fit` run on the collected train records
 * (ml/eval-fits.ts). The eval CLI passes them in, so nothing else of eval/ imports ml/.
 */
export interface CragFits {
  /** The model the crag fit collects its records with, before any file is fitted. */
  unfitted(modelId: string): FittedModel;
  /** Fits `c.task` on the train records and writes its file. */
  run(c: CragFitRun): Promise<void>;
}

export async function runCragTask(args: Record<string, string>, fits?: CragFits): Promise<void> {
  const task = args.task!;
  const fitting = task === 'crag-fit' || task === 'checker-fit' || task === 'rationale-fit';
  const split = args.split ?? (fitting ? 'train' : 'test');
  if (fitting && split !== 'train')
    throw new Error(`${task} fits on the train split only (never tune on test).`);
  if (fitting && !fits) throw new Error(`${task}: run it through \`npm run eval\` (eval/run.ts).`);
  const log = (m: string) => process.stderr.write(`${m}\n`);
  const l = await load(args, split);
  const model = args.model ?? 'use-lite';
  log(
    `[crag] ${l.corpus.length} documents, ${Object.keys(l.qrels).length} ${split} queries, ${l.evidence.length} evidence rows`,
  );
  const harness = await createCragHarness(l.corpus, { ...args, model }, (d, t) =>
    process.stderr.write(`\r[crag] indexed ${d}/${t}`),
  );
  log('');
  try {
    const fitted0 =
      task === 'crag-fit' && fits
        ? fits.unfitted(harness.modelId)
        : await loadFittedModel(harness.modelId);
    const collect = recordCollector(harness, l, fitted0, log);
    // --lexical-only (crag): every retrieval without vectors, as a library with no semantic
    // index retrieves (the fit's vector-free variant scores it).
    if ('lexical-only' in args && task === 'crag') harness.setLexicalOnly(true);
    const records = await collect(args.records);
    if (fitting && fits) {
      await fits.run({ task, args, split, harness, fitted0, records, collect, l, log });
      return;
    }
    const fitted = fitted0;
    const report = await cragReport(harness, fitted, records, l);
    const out = {
      dataset: args.dataset,
      split,
      ...('lexical-only' in args ? { retrieval: 'lexical-only (no vectors)' } : {}),
      model: harness.modelId,
      fitted: `${fitted.modelId} ${fitted.date}`,
      ...report,
    };
    console.log(JSON.stringify(out, null, 2));
    if (args.json) writeFileSync(args.json, `${JSON.stringify(out, null, 2)}\n`);
  } finally {
    await harness.close();
  }
}

export type Collect = (file: string | undefined) => Promise<QueryRecord[]>;

/**
 * --records FILE: the collected records (features of the first and ablated retrievals, which
 * do not depend on the fitted model) are read from FILE when it exists, else written to it,
 * so a re-fit on the same split and model skips the retrievals.
 */
function recordCollector(
  harness: CragHarness,
  l: Loaded,
  fitted0: FittedModel,
  log: (m: string) => void,
): Collect {
  return async (file) => {
    if (file && existsSync(file)) {
      const read = deserialize(readFileSync(file)) as QueryRecord[];
      log(`[crag] ${read.length} records read from ${file}`);
      return read;
    }
    const got = await collectQueries(harness, l.queries, l.qrels, fitted0, (d, t) => {
      if (d % 25 === 0 || d === t) process.stderr.write(`\r[crag] queried ${d}/${t}`);
    });
    log('');
    if (file) writeFileSync(file, serialize(got));
    return got;
  };
}

/** What a fit of the crag family is given: the collected train records and how to collect more. */
export interface CragFitRun {
  task: string;
  args: Record<string, string>;
  split: string;
  harness: CragHarness;
  fitted0: FittedModel;
  records: QueryRecord[];
  collect: Collect;
  l: Loaded;
  log: (m: string) => void;
}

export async function cragReport(
  harness: CragHarness,
  fitted: FittedModel,
  records: QueryRecord[],
  l: Loaded,
) {
  // the variant the evaluator uses for these retrievals (vector-free when they have no vectors)
  const variant = variantFor(fitted, records[0]?.first.features ?? []);
  const pf = passageFigures(records, (f) => passageScore(variant, f), variant.thresholds.passage);
  const baseline = (fitted as FittedModel & { baseline?: LogisticModel & { threshold: number } })
    .baseline;
  const bf = baseline
    ? passageFigures(records, (f) => logisticScore(baseline, f), baseline.threshold)
    : null;
  const qf = queryFigures(fitted, records);
  const gold = goldSpans(harness, l.evidence);
  const rf = refineFigures(fitted, records, gold);
  const decisionOf = (r: QueryRecord) => scoreWith(fitted, r.first).decision;
  const af = answerFigures(fitted, records, gold, decisionOf);
  const cf = l.evidence.length ? await checkerFigures(harness, fitted, records, l) : null;
  const cg = await correctiveFigures(harness, fitted, records, decisionOf);
  const check = await checkTimes(harness, fitted, records);
  const lat = latencyFigures(records, rf.times, af.times, check);
  const r = (x: number | null) => (x === null ? null : round4(x));
  return {
    // which of the fit's models scored these retrievals ('no vectors': the vector-free variant)
    evaluator_variant: variant === fitted ? 'main' : 'no vectors',
    queries: records.length,
    documents: l.corpus.length,
    passages: pf.passages,
    relevant_passages: pf.positives,
    evaluator_auroc: r(pf.auroc),
    evaluator_balanced_accuracy: r(pf.ba),
    evaluator_f1: r(pf.f1),
    evaluator_auroc_baseline: bf ? r(bf.auroc) : null,
    evaluator_balanced_accuracy_baseline: bf ? r(bf.ba) : null,
    evaluator_f1_baseline: bf ? r(bf.f1) : null,
    decisions: qf.distribution,
    correct_precision: r(qf.precision),
    correct_coverage: r(qf.coverage),
    ablation_not_correct_rate: r(qf.ablation),
    refine_token_reduction: r(rf.tokenReduction),
    rationale_recall: gold.total ? r(rf.rationaleRecall) : null,
    rationale_aligned: gold.total ? r(gold.aligned / gold.total) : null,
    rationale_sentences: rf.rationaleSentences,
    checker_right_supported: cf ? r(cf.right) : null,
    checker_hard_negative_flagged: cf ? r(cf.hard) : null,
    checker_random_flagged: cf ? r(cf.random) : null,
    checker_contradict_supported: cf ? r(cf.contradict) : null,
    checker_pairs: cf?.counts ?? null,
    corrective_technique: fitted.corrective.technique,
    corrective_min_gain: fitted.corrective.minGain ?? 0,
    corrective_min_score: fitted.corrective.minScore ?? 0,
    corrective_ndcg_gain: r(cg.gain),
    corrective_queries: cg.queries,
    corrective_applied: cg.applied,
    answer_rationale_precision: gold.total ? r(af.precision) : null,
    answer_sentences: af.sentences,
    answer_sentences_cited: af.sentences ? r(af.cited / af.sentences) : null,
    ...lat,
  };
}

/** The corrective action's nDCG gain on the queries the evaluator calls INCORRECT. */
async function correctiveFigures(
  harness: CragHarness,
  fitted: FittedModel,
  records: QueryRecord[],
  decisionOf: (r: QueryRecord) => string,
) {
  const incorrect = records.filter((r) => decisionOf(r) === 'INCORRECT');
  const expand = createExpansion(fitted.corrective.technique, {
    lexicalTopK: harness.lexicalTopK,
    synonyms: harness.synonyms,
  });
  return correctiveGain(
    fitted.corrective.technique === 'rerank'
      ? rerankTrials(incorrect, (rec) => scoreWith(fitted, rec.first).scores)
      : await correctiveTrials(harness, fitted, incorrect, expand),
    fitted.corrective,
  );
}

/** p50/p95 of each stage's added time per query and of their sum (the report's latency keys). */
function latencyFigures(
  records: QueryRecord[],
  refine: number[],
  answer: number[],
  check: number[],
) {
  const evaluate = records.map((r) => r.evaluateMs);
  const total = records.map((_, i) => evaluate[i]! + refine[i]! + (check[i] ?? 0));
  const ms = (v: number[]) => ({
    p50_ms: round4(percentile(v, 50)),
    p95_ms: round4(percentile(v, 95)),
  });
  return {
    latency: {
      evaluate: ms(evaluate),
      refine: ms(refine),
      answer: ms(answer),
      check: ms(check),
      added_total: ms(total),
    },
    p50_ms: round4(percentile(total, 50)),
    p95_ms: round4(percentile(total, 95)),
  };
}
