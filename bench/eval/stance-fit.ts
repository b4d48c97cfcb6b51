// Fits the LLM-free stance model on SciFact claims_TRAIN only and writes
// workers/projects/fitted/stance-<model>.json:
//   npx tsx bench/eval/stance-fit.ts --dataset ../shared/datasets/scifact [--model all-MiniLM-L6-v2] [--threads 2]
// Training pairs: every rationale sentence of a SUPPORT/CONTRADICT abstract with its label; for
// claims without evidence the three BM25-closest sentences of each cited abstract (NEUTRAL), as
// the eval builds them; and the two BM25-closest non-rationale sentences of each evidence
// abstract (NEUTRAL, so the model also learns to reject on-topic non-evidence). The
// configuration (features, L2, hidden units) is chosen by 5-fold cross-validation over train
// claims; the dev claims are never read.
import { mkdirSync, writeFileSync } from 'node:fs';
import { parseArgs } from '../args';
import { loadCorpus, type BeirDoc } from './beir';
import {
  loadClaims,
  loadSentenceStarts,
  oracleInstances,
  originalSentences,
  type ClaimRecord,
  type SentenceStarts,
} from './claims-data';
import { createStanceEmbedder } from './stance-embed';
import { macroF1, prf } from './stance-metrics';
import { fitNetwork, quantise, standardise, standardiser, type TrainOptions } from './stance-train';
import { topSentences } from '../../workers/projects/sentence-rank';
import { FEATURES_VERSION, stanceFeatures, textView } from '../../workers/projects/stance-features';
import {
  combineStances,
  forward,
  STANCE_LABELS,
  type FittedStanceModel,
  type Stance,
  type StanceProbabilities,
} from '../../workers/projects/stance-model';

interface Example {
  claimId: string;
  claim: string;
  sentence: string;
  label: Stance;
  /** Which oracle instance it belongs to (-1 for the extra non-rationale negatives). */
  instance: number;
  rationale: boolean;
}

const HARD_NEGATIVES = 2;

function trainingExamples(
  claims: ClaimRecord[],
  corpus: Map<string, BeirDoc>,
  starts: SentenceStarts,
): { examples: Example[]; instances: ReturnType<typeof oracleInstances> } {
  const instances = oracleInstances(claims, corpus, starts);
  const examples: Example[] = [];
  instances.forEach((inst, k) => {
    const sents = originalSentences(corpus.get(inst.docId)!.text, starts[inst.docId]!).map(
      (s) => s.text,
    );
    for (const i of inst.sentenceIdx) {
      if (!sents[i]) continue;
      examples.push({
        claimId: inst.claimId,
        claim: inst.claim,
        sentence: sents[i],
        label: inst.label,
        instance: k,
        rationale: inst.label !== 'NEUTRAL',
      });
    }
    if (inst.label === 'NEUTRAL') return;
    const others = sents.map((s, i) => ({ s, i })).filter((x) => !inst.sentenceIdx.includes(x.i));
    const best = topSentences(
      inst.claim,
      others.map((x) => x.s),
      HARD_NEGATIVES,
    );
    for (const b of best) {
      examples.push({
        claimId: inst.claimId,
        claim: inst.claim,
        sentence: others[b]!.s,
        label: 'NEUTRAL',
        instance: -1,
        rationale: false,
      });
    }
  });
  return { examples, instances };
}

export interface FitConfig extends TrainOptions {
  dense: boolean;
}

function fitConfig(
  rows: Float64Array[],
  labels: number[],
  cfg: FitConfig,
  meta: { model: string; version: string; dim: number },
): FittedStanceModel {
  const cols = (r: Float64Array) => (cfg.dense ? r : r.subarray(0, r.length - 2 * meta.dim));
  const X = rows.map(cols);
  const s = standardiser(X);
  const layers = quantise(fitNetwork(standardise(X, s), labels, 3, cfg));
  return {
    format: 'sift-stance/1',
    features: FEATURES_VERSION,
    model: meta.model,
    modelVersion: meta.version,
    dim: meta.dim,
    dense: cfg.dense,
    mean: s.mean,
    std: s.std,
    layers,
    evidenceThreshold: 0.5,
    provenance: {},
  };
}

function fold(claimId: string): number {
  return Number(claimId) % 5;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2), { strict: true });
  const dataset = args.dataset;
  if (!dataset)
    throw new Error('usage: stance-fit.ts --dataset <scifact folder> [--model M] [--threads N]');
  const model = args.model ?? 'all-MiniLM-L6-v2';
  const threads = Number(args.threads ?? 2);
  const t0 = performance.now();
  const corpus = new Map((await loadCorpus(dataset)).map((d) => [d.id, d]));
  const claims = loadClaims(dataset, 'train');
  const starts = loadSentenceStarts();
  const { examples, instances } = trainingExamples(claims, corpus, starts);
  const count = (l: Stance) => examples.filter((e) => e.label === l).length;
  console.error(
    `[fit] ${claims.length} train claims, ${instances.length} instances, ${examples.length} sentence pairs (S ${count('SUPPORT')}, C ${count('CONTRADICT')}, N ${count('NEUTRAL')})`,
  );
  const embedder = await createStanceEmbedder(model, threads);
  const claimTexts = [...new Set(examples.map((e) => e.claim))];
  const sentTexts = [...new Set(examples.map((e) => e.sentence))];
  const cv = await embedder.claims(claimTexts);
  const sv = await embedder.sentences(sentTexts);
  const claimView = new Map(claimTexts.map((t, i) => [t, textView(t, cv[i]!)]));
  const sentView = new Map(sentTexts.map((t, i) => [t, textView(t, sv[i]!)]));
  const rows = examples.map((e) =>
    stanceFeatures(claimView.get(e.claim)!, sentView.get(e.sentence)!, true),
  );
  const labels = examples.map((e) => STANCE_LABELS.indexOf(e.label));
  const meta = { model: embedder.id, version: embedder.version, dim: embedder.dim };
  if (args.dump) {
    // For exploring features offline (e.g. in Python); not part of the fit.
    const lines = examples.map((e, i) =>
      JSON.stringify({
        c: e.claimId,
        i: e.instance,
        r: e.rationale,
        y: labels[i],
        x: Array.from(rows[i]!, (v) => Math.round(v * 1e5) / 1e5),
      }),
    );
    writeFileSync(args.dump, `${lines.join('\n')}\n`);
    console.error(`[fit] wrote ${examples.length} rows to ${args.dump}`);
    return;
  }

  // Default grid: cue features only (the dense u*v, |u-v| block did not finish cross-validating on
  // the shared 2-core machine; try it with --grid '[{"dense":true,"l2":0.03}]').
  const base = { epochs: Number(args.epochs ?? 300), learningRate: 0.01, seed: 17 };
  const grid: FitConfig[] = [0.001, 0.01, 0.1].map((l2) => ({
    ...base,
    dense: false,
    l2,
    hidden: 0,
  }));
  const only = args.grid ? (JSON.parse(args.grid) as Partial<FitConfig>[]) : null;
  const configs = only
    ? only.map((o) => ({ ...base, dense: true, l2: 0.03, hidden: 0, ...o }))
    : grid;

  let best: { cfg: FitConfig; f1: number; lp: StanceProbabilities[] } | null = null;
  for (const cfg of configs) {
    const lp = new Array<StanceProbabilities>(examples.length);
    for (let f = 0; f < 5; f++) {
      const tr = examples.map((_, i) => i).filter((i) => fold(examples[i]!.claimId) !== f);
      const fitted = fitConfig(
        tr.map((i) => rows[i]!),
        tr.map((i) => labels[i]!),
        cfg,
        meta,
      );
      examples.forEach((e, i) => {
        if (fold(e.claimId) === f)
          lp[i] = forward(
            fitted,
            fitted.dense ? rows[i]! : rows[i]!.subarray(0, fitted.mean.length),
          );
      });
    }
    const f1 = oracleF1(instances, examples, lp);
    console.error(
      `[fit] cv ${JSON.stringify({ dense: cfg.dense, l2: cfg.l2, hidden: cfg.hidden })} oracle macro-F1 ${f1.toFixed(4)}`,
    );
    if (!best || f1 > best.f1) best = { cfg, f1, lp };
  }
  const threshold = chooseThreshold(examples, best!.lp);
  console.error(
    `[fit] best ${JSON.stringify(best!.cfg)} cv F1 ${best!.f1.toFixed(4)}, evidence threshold ${threshold.tau} (cv sentence F1 ${threshold.f1.toFixed(4)})`,
  );
  const fitted = fitConfig(rows, labels, best!.cfg, meta);
  fitted.evidenceThreshold = threshold.tau;
  fitted.provenance = {
    fittedOn: 'SciFact claims_train.csv only',
    script: 'bench/eval/stance-fit.ts',
    command: `npx tsx bench/eval/stance-fit.ts --dataset ${dataset} --model ${model}`,
    examples: examples.length,
    support: count('SUPPORT'),
    contradict: count('CONTRADICT'),
    neutral: count('NEUTRAL'),
    config: JSON.stringify(best!.cfg),
    cvOracleMacroF1: Math.round(best!.f1 * 10000) / 10000,
    cvSentenceF1: Math.round(threshold.f1 * 10000) / 10000,
  };
  mkdirSync('workers/projects/fitted', { recursive: true });
  const out = `workers/projects/fitted/stance-${model}.json`;
  writeFileSync(out, `${JSON.stringify(fitted)}\n`);
  console.error(`[fit] wrote ${out} in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
}

/** Macro-F1 of the oracle instances from per-sentence cross-validated predictions. */
function oracleF1(
  instances: ReturnType<typeof oracleInstances>,
  examples: Example[],
  lp: StanceProbabilities[],
): number {
  const per = instances.map(() => [] as StanceProbabilities[]);
  examples.forEach((e, i) => {
    if (e.instance >= 0) per[e.instance]!.push(lp[i]!);
  });
  const gold = instances.map((x) => x.label);
  const pred = per.map(combineStances);
  return macroF1(gold, pred, STANCE_LABELS);
}

/** The P(NEUTRAL) cut that best separates rationale sentences from the rest (cv, train). */
function chooseThreshold(
  examples: Example[],
  lp: StanceProbabilities[],
): { tau: number; f1: number } {
  let best = { tau: 0.5, f1: -1 };
  for (let tau = 0.05; tau < 0.96; tau += 0.05) {
    const t = Math.round(tau * 100) / 100;
    let tp = 0;
    let p = 0;
    let g = 0;
    examples.forEach((e, i) => {
      const sel = Math.exp(lp[i]![2]) < t;
      if (sel) p++;
      if (e.rationale) g++;
      if (sel && e.rationale) tp++;
    });
    const f1 = prf(tp, p, g).f1;
    if (f1 > best.f1) best = { tau: t, f1 };
  }
  return best;
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
