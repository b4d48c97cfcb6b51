// Fits the LLM-free stance model on SciFact claims_TRAIN only and writes
// workers/fitted/stance-<model>.json:
//   npx tsx ml/stance-fit.ts --dataset ../shared/datasets/scifact [--model all-MiniLM-L6-v2] [--threads 2] [--splits 5] [--grid JSON] [--cvDump FILE]
// Training pairs: every rationale sentence of a SUPPORT/CONTRADICT abstract with its label; for
// claims without evidence the three BM25-closest sentences of each cited abstract (NEUTRAL), as
// the eval builds them; and the two BM25-closest non-rationale sentences of each evidence
// abstract (NEUTRAL, so the model also learns to reject on-topic non-evidence). Synthetic pairs
// (ml/stance-synth.ts, SciFact's own recipe for CONTRADICT claims): each evidence claim
// negated or with a polar word swapped gets the opposite label on its rationale and NEUTRAL on
// the abstract's non-rationale sentences; each NEI claim's flips stay NEUTRAL on its sentences;
// down-weighted. The configuration (L2, synthetic weights; features, hidden units with --grid) is
// chosen by 5-fold cross-validation over train claims, repeated over --splits fold assignments
// (default 5), scored on real pairs only; the dev claims are never read.
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from '../lab/args';
import { loadCorpus, type BeirDoc } from '../eval/beir';
import {
  loadClaims,
  loadSentenceStarts,
  oracleInstances,
  originalSentences,
  type ClaimRecord,
  type SentenceStarts,
} from '../eval/claims-data';
import { createStanceEmbedder } from '../eval/stance-embed';
import { flippedClaims } from './stance-synth';
import { macroF1, prf } from '../eval/stance-metrics';
import { fitNetwork, quantise, standardise, standardiser, type TrainOptions } from './stance-train';
import { topSentences } from '../workers/projects/sentence-rank';
import {
  FEATURES_VERSION,
  stanceFeatures,
  textView,
} from '../workers/text-features/stance-features';
import {
  combineStances,
  forward,
  logSoftmax,
  STANCE_LABELS,
  type FittedStanceModel,
  type Stance,
  type StanceProbabilities,
} from '../workers/projects/stance-model';

interface Example {
  claimId: string;
  claim: string;
  sentence: string;
  label: Stance;
  /** Which oracle instance it belongs to (-1 for the extra non-rationale negatives and synthetic pairs). */
  instance: number;
  rationale: boolean;
  /** 0 for a real pair; 1 for a flipped claim on its rationale; 2 for a flipped claim on a non-rationale sentence. */
  synthetic: 0 | 1 | 2;
  /** Rank of an extra non-rationale negative among its abstract's BM25-closest (0 otherwise). */
  negativeRank: number;
}

/** Non-rationale sentences per evidence abstract built; a configuration uses the first `negatives`. */
const MAX_HARD_NEGATIVES = 4;
const FLIP: Record<Stance, Stance> = {
  SUPPORT: 'CONTRADICT',
  CONTRADICT: 'SUPPORT',
  NEUTRAL: 'NEUTRAL',
};

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
    const rationale = inst.sentenceIdx.flatMap((i) => (sents[i] ? [sents[i]] : []));
    for (const sentence of rationale) {
      examples.push({
        claimId: inst.claimId,
        claim: inst.claim,
        sentence,
        label: inst.label,
        instance: k,
        rationale: inst.label !== 'NEUTRAL',
        synthetic: 0,
        negativeRank: 0,
      });
    }
    if (inst.label === 'NEUTRAL') {
      for (const flipped of flippedClaims(inst.claim))
        examples.push(...extraPairs(inst.claimId, flipped, rationale, 'NEUTRAL', 2, false));
      return;
    }
    const others = sents.map((s, i) => ({ s, i })).filter((x) => !inst.sentenceIdx.includes(x.i));
    const best = topSentences(
      inst.claim,
      others.map((x) => x.s),
      MAX_HARD_NEGATIVES,
    ).map((b) => others[b]!.s);
    examples.push(...extraPairs(inst.claimId, inst.claim, best, 'NEUTRAL', 0, true));
    // SciFact's own recipe for CONTRADICT claims, from train only: the claim negated or with a
    // polar word swapped takes the opposite label on the same rationale; on the abstract's
    // non-rationale sentences it stays NEUTRAL.
    for (const flipped of flippedClaims(inst.claim)) {
      examples.push(...extraPairs(inst.claimId, flipped, rationale, FLIP[inst.label], 1, false));
      examples.push(...extraPairs(inst.claimId, flipped, best.slice(0, 2), 'NEUTRAL', 2, true));
    }
  });
  return { examples, instances };
}

/**
 * Pairs outside the oracle instances (instance -1): the hard non-rationale negatives
 * (`synthetic` 0) and flipped claims (1, 2); `ranked`: each sentence's place in the list is its
 * `negativeRank` (the BM25-closest first).
 */
function extraPairs(
  claimId: string,
  claim: string,
  sentences: string[],
  label: Stance,
  synthetic: 0 | 1 | 2,
  ranked: boolean,
): Example[] {
  return sentences.map((sentence, rank) => ({
    claimId,
    claim,
    sentence,
    label,
    instance: -1,
    rationale: false,
    synthetic,
    negativeRank: ranked ? rank : 0,
  }));
}

export interface FitConfig extends TrainOptions {
  dense: boolean;
  /** Weight of a synthetic (flipped-claim) rationale pair; 0 = not used. */
  synthetic: number;
  /** Weight of a flipped claim on a non-rationale sentence (NEUTRAL); 0 = not used. */
  syntheticNeutral: number;
  /** Non-rationale sentences (BM25-closest first) of each evidence abstract used as NEUTRAL. */
  negatives: number;
}

/** Training weight of an example under a configuration (0 = left out). */
function weightOf(e: Example, cfg: FitConfig): number {
  if (e.synthetic === 1) return cfg.synthetic;
  if (e.synthetic === 2) return cfg.syntheticNeutral;
  if (e.instance < 0 && e.negativeRank >= cfg.negatives) return 0;
  return 1;
}

function fitConfig(
  rows: Float64Array[],
  labels: number[],
  weights: number[],
  cfg: FitConfig,
  meta: { model: string; version: string; dim: number },
): FittedStanceModel {
  const keep = weights.map((w, i) => (w > 0 ? i : -1)).filter((i) => i >= 0);
  const cols = (r: Float64Array) => (cfg.dense ? r : r.subarray(0, r.length - 2 * meta.dim));
  const X = keep.map((i) => cols(rows[i]!));
  const s = standardiser(X);
  const layers = quantise(
    fitNetwork(
      standardise(X, s),
      keep.map((i) => labels[i]!),
      3,
      cfg,
      keep.map((i) => weights[i]!),
    ),
  );
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

/** Fold of a claim in one of the repeated splits (split 0 = `fold`). */
function foldOf(claimId: string, split: number): number {
  if (split === 0) return fold(claimId);
  return createHash('md5').update(`${split}:${claimId}`).digest().readUInt32BE(0) % 5;
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
  logExamples(claims.length, instances.length, examples);
  const { data, claimView, sentView } = await featureRows(examples, instances, model, threads);
  if (args.dump) {
    // For exploring features offline (e.g. in Python); not part of the fit.
    dumpRows(args.dump, data, claimView, sentView, !!args.dumpVectors);
    return;
  }
  const splits = Number(args.splits ?? 5);
  const best = crossValidate(data, fitConfigs(args), splits);
  if (args.cvDump) {
    writeCvDump(args.cvDump, data, best);
    return;
  }
  const chosen = chooseModel(data, best);
  const fitted = fitWithOffsets(data, () => true, best.cfg, chosen.offsets, chosen.threshold.tau);
  fitted.provenance = stanceProvenance(examples, chosen, splits, dataset, model);
  // --folds DIR: also the chosen configuration refitted without each fold of claims (offsets
  // and threshold as chosen above), DIR/stance-<model>-fold<k>.json, so the evidence gate's train
  // dump can judge every train claim with a stance model that did not see it
  // (`--task claims --split train --stanceFolds DIR`, evidence-gate-fit.ts). The shipped model's
  // own configuration must come out of the grid (claims-task.ts checks it).
  if (args.folds) {
    writeFoldModels(args.folds, model, data, chosen, fitted.provenance);
    // --foldsOnly 1: leave the shipped file (and the audit calibration fit-audit.py adds) alone.
    if (args.foldsOnly) return;
  }
  mkdirSync('workers/fitted', { recursive: true });
  const out = `workers/fitted/stance-${model}.json`;
  writeFileSync(out, `${JSON.stringify(fitted)}\n`);
  console.error(`[fit] wrote ${out} in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
}

/** How many pairs carry label `l` (among those `keep` admits). */
function countLabel(
  examples: Example[],
  l: Stance,
  keep: (e: Example) => boolean = () => true,
): number {
  return examples.filter((e) => e.label === l && keep(e)).length;
}

function logExamples(claims: number, instances: number, examples: Example[]): void {
  const count = (l: Stance, keep?: (e: Example) => boolean) => countLabel(examples, l, keep);
  const real = (e: Example) => e.synthetic === 0;
  console.error(
    `[fit] ${claims} train claims, ${instances} instances, ${examples.filter(real).length} real sentence pairs (S ${count('SUPPORT', real)}, C ${count('CONTRADICT', real)}, N ${count('NEUTRAL', real)}; up to ${MAX_HARD_NEGATIVES} non-rationale per evidence abstract), ${examples.length - examples.filter(real).length} synthetic (flipped claims: S ${count('SUPPORT', (e) => e.synthetic === 1)}, C ${count('CONTRADICT', (e) => e.synthetic === 1)}, N ${count('NEUTRAL', (e) => e.synthetic === 2)})`,
  );
}

type TextView = ReturnType<typeof textView>;

/** Embeds every claim and sentence once and builds each pair's feature row and label. */
async function featureRows(
  examples: Example[],
  instances: ReturnType<typeof oracleInstances>,
  model: string,
  threads: number,
): Promise<{ data: FitData; claimView: Map<string, TextView>; sentView: Map<string, TextView> }> {
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
  return { data: { examples, instances, rows, labels, meta }, claimView, sentView };
}

type ChosenModel = {
  best: ReturnType<typeof crossValidate>;
  offsets: ReturnType<typeof chooseOffsets>;
  nested: number;
  threshold: ReturnType<typeof chooseThreshold>;
};

/** The class offsets and the evidence threshold on the chosen configuration's out-of-fold outputs. */
function chooseModel(data: FitData, best: ReturnType<typeof crossValidate>): ChosenModel {
  const { examples, instances } = data;
  // Class offsets added to every sentence's output (so to the summed log-probabilities of a
  // set in proportion to its size): chosen on the out-of-fold predictions; their own effect is
  // measured by nested cross-validation (offsets chosen on four folds, scored on the fifth).
  const offsets = chooseOffsets(instances, examples, best.lp, () => true);
  const nested = nestedOffsetF1(instances, examples, best.lp);
  const shifted = best.lp.map((lp) => shift(lp, offsets));
  const used = examples.map((e) => e.synthetic === 0 && weightOf(e, best.cfg) > 0);
  const threshold = chooseThreshold(
    examples.filter((_, i) => used[i]),
    shifted.filter((_, i) => used[i]),
  );
  console.error(
    `[fit] best ${JSON.stringify(best.cfg)} cv F1 mean ${best.f1.toFixed(4)} (split 0: ${best.f1Split0.toFixed(4)}); class offsets ${JSON.stringify(offsets)} (nested cv F1 ${nested.toFixed(4)}), evidence threshold ${threshold.tau} (cv sentence F1 ${threshold.f1.toFixed(4)})`,
  );
  return { best, offsets, nested, threshold };
}

/**
 * --cvDump FILE: the best configuration's out-of-fold (split 0, claim id % 5) log-probabilities
 * of every oracle instance's sentences, to compare or ensemble with another model
 * (experiments/stance-cross-ensemble.py); nothing is written to workers/projects/fitted.
 */
function writeCvDump(file: string, data: FitData, best: ReturnType<typeof crossValidate>): void {
  const { examples, instances } = data;
  const per = perInstance(instances, examples, best.lp);
  const lines = instances.map((inst, k) =>
    JSON.stringify({
      claimId: Number(inst.claimId),
      docId: inst.docId,
      label: inst.label,
      fold: fold(inst.claimId),
      config: best.cfg,
      sentences: per[k]!.map((lp) => Array.from(lp, (v) => Math.round(v * 1e6) / 1e6)),
    }),
  );
  writeFileSync(file, `${lines.join('\n')}\n`);
  console.error(`[fit] wrote ${lines.length} out-of-fold instances to ${file}`);
}

/** The shipped file's provenance: what it was fitted on and its cross-validated figures. */
function stanceProvenance(
  examples: Example[],
  chosen: ChosenModel,
  splits: number,
  dataset: string,
  model: string,
): FittedStanceModel['provenance'] {
  const { best, offsets, nested, threshold } = chosen;
  const used = (e: Example) => weightOf(e, best.cfg) > 0;
  return {
    fittedOn: 'SciFact claims_train.csv only',
    script: 'ml/stance-fit.ts',
    command: `npx tsx ml/stance-fit.ts --dataset ${dataset} --model ${model}`,
    examples: examples.filter(used).length,
    support: countLabel(examples, 'SUPPORT', used),
    contradict: countLabel(examples, 'CONTRADICT', used),
    neutral: countLabel(examples, 'NEUTRAL', used),
    synthetic: examples.filter((e) => e.synthetic > 0 && used(e)).length,
    config: JSON.stringify(best.cfg),
    cvOracleMacroF1: Math.round(best.f1Split0 * 10000) / 10000,
    cvOracleMacroF1MeanOverSplits: Math.round(best.f1 * 10000) / 10000,
    cvSplits: splits,
    cvScMacroF1: Math.round(best.scSplit0 * 10000) / 10000,
    classOffsets: JSON.stringify(offsets),
    cvOracleMacroF1WithOffsets: Math.round(nested * 10000) / 10000,
    cvSentenceF1: Math.round(threshold.f1 * 10000) / 10000,
  };
}

/** The chosen configuration refitted without each fold of claims: DIR/stance-<model>-fold<k>.json. */
function writeFoldModels(
  dir: string,
  model: string,
  data: FitData,
  chosen: ChosenModel,
  provenance: FittedStanceModel['provenance'],
): void {
  mkdirSync(dir, { recursive: true });
  for (let f = 0; f < 5; f++) {
    const m = fitWithOffsets(
      data,
      (e) => fold(e.claimId) !== f,
      chosen.best.cfg,
      chosen.offsets,
      chosen.threshold.tau,
    );
    m.provenance = { ...provenance, fold: f, foldOf: 'claim id % 5' };
    writeFileSync(join(dir, `stance-${model}-fold${f}.json`), `${JSON.stringify(m)}\n`);
  }
  console.error(`[fit] wrote 5 fold models to ${dir}`);
}

/** Every pair's ids, label, texts, feature row (and vectors) as JSON lines, for offline study. */
function dumpRows(
  path: string,
  data: FitData,
  claimView: Map<string, ReturnType<typeof textView>>,
  sentView: Map<string, ReturnType<typeof textView>>,
  withVectors: boolean,
): void {
  const { examples, rows, labels } = data;
  const lines = examples.map((e, i) =>
    JSON.stringify({
      c: e.claimId,
      i: e.instance,
      r: e.rationale,
      syn: e.synthetic,
      nr: e.negativeRank,
      y: labels[i],
      ct: e.claim,
      st: e.sentence,
      ...(withVectors
        ? {
            cv: Array.from(claimView.get(e.claim)!.vector),
            sv: Array.from(sentView.get(e.sentence)!.vector),
          }
        : {}),
      x: Array.from(rows[i]!, (v) => Math.round(v * 1e5) / 1e5),
    }),
  );
  writeFileSync(path, `${lines.join('\n')}\n`);
  console.error(`[fit] wrote ${examples.length} rows to ${path}`);
}

/** The configurations to cross-validate: `--grid` (JSON list of overrides) or the default grid. */
function fitConfigs(args: Record<string, string | undefined>): FitConfig[] {
  // Default grid: cue features only (the dense u*v, |u-v| block did not finish cross-validating on
  // the shared 2-core machine; try it with --grid '[{"dense":true,"l2":0.03}]').
  const base = {
    epochs: Number(args.epochs ?? 300),
    learningRate: 0.01,
    seed: 17,
    synthetic: 0,
    syntheticNeutral: 0,
    negatives: 2,
  };
  // Synthetic weights (flipped claim on its rationale; flipped claim on non-rationale
  // sentences): 0/0 is the real pairs alone; 0.3/0.6 was the best of a wider grid explored on
  // train (ml/README.md, "Synthetic flipped claims").
  const grid: FitConfig[] = [0.03, 0.1].flatMap((l2) =>
    [
      [0, 0],
      [0.3, 0.6],
    ].map(([synthetic, syntheticNeutral]) => ({
      ...base,
      dense: false,
      l2,
      hidden: 0,
      synthetic: synthetic!,
      syntheticNeutral: syntheticNeutral!,
    })),
  );
  const only = args.grid ? (JSON.parse(args.grid) as Partial<FitConfig>[]) : null;
  return only ? only.map((o) => ({ ...base, dense: true, l2: 0.03, hidden: 0, ...o })) : grid;
}

/** The train pairs, their feature rows and labels, and the embedder's identity. */
interface FitData {
  examples: Example[];
  instances: ReturnType<typeof oracleInstances>;
  rows: Float64Array[];
  labels: number[];
  meta: { model: string; version: string; dim: number };
}

/**
 * Five-fold cross-validation by claim, repeated over `splits` fold assignments (split 0: claim
 * id % 5, as before; the others by a seeded hash of the id): one split's folds differ by
 * +-0.05, so a configuration is chosen on the mean over splits. Only real pairs are scored.
 */
function crossValidate(data: FitData, configs: FitConfig[], splits: number) {
  const { examples, instances, rows, labels, meta } = data;
  let best: {
    cfg: FitConfig;
    f1: number;
    f1Split0: number;
    scSplit0: number;
    lp: StanceProbabilities[];
  } | null = null;
  for (const cfg of configs) {
    const weights = examples.map((e) => weightOf(e, cfg));
    const f1s: number[] = [];
    let lp0: StanceProbabilities[] = [];
    for (let split = 0; split < splits; split++) {
      const lp = new Array<StanceProbabilities>(examples.length);
      for (let f = 0; f < 5; f++) {
        // A claim's synthetic pairs are in its own fold, so scoring uses only unseen real claims.
        const tr = examples
          .map((_, i) => i)
          .filter((i) => foldOf(examples[i]!.claimId, split) !== f);
        const fitted = fitConfig(
          tr.map((i) => rows[i]!),
          tr.map((i) => labels[i]!),
          tr.map((i) => weights[i]!),
          cfg,
          meta,
        );
        examples.forEach((e, i) => {
          if (foldOf(e.claimId, split) === f)
            lp[i] = forward(
              fitted,
              fitted.dense ? rows[i]! : rows[i]!.subarray(0, fitted.mean.length),
            );
        });
      }
      f1s.push(oracleF1(instances, examples, lp));
      if (split === 0) lp0 = lp;
    }
    const f1 = f1s.reduce((a, b) => a + b, 0) / f1s.length;
    const sc = scF1(instances, examples, lp0);
    console.error(
      `[fit] cv ${JSON.stringify({ dense: cfg.dense, l2: cfg.l2, hidden: cfg.hidden, synthetic: cfg.synthetic, syntheticNeutral: cfg.syntheticNeutral, negatives: cfg.negatives })} oracle macro-F1 mean ${f1.toFixed(4)} over ${splits} splits [${f1s.map((x) => x.toFixed(4)).join(' ')}] (split 0 SUPPORT vs CONTRADICT ${sc.toFixed(4)})`,
    );
    if (!best || f1 > best.f1) best = { cfg, f1, f1Split0: f1s[0]!, scSplit0: sc, lp: lp0 };
  }
  return best!;
}

/**
 * `cfg` fitted on the examples `keep` admits (with their weights), the class offsets added to the
 * output layer's bias and the evidence threshold set: the shipped model, or one fold's.
 */
function fitWithOffsets(
  data: FitData,
  keep: (e: Example) => boolean,
  cfg: FitConfig,
  offsets: number[],
  tau: number,
) {
  const { examples, rows, labels, meta } = data;
  const tr = examples.map((_, i) => i).filter((i) => keep(examples[i]!));
  const m = fitConfig(
    tr.map((i) => rows[i]!),
    tr.map((i) => labels[i]!),
    tr.map((i) => weightOf(examples[i]!, cfg)),
    cfg,
    meta,
  );
  const top = m.layers[m.layers.length - 1]!;
  top.bias = top.bias.map((b, k) => Math.round((b + offsets[k]!) * 1e6) / 1e6);
  m.evidenceThreshold = tau;
  return m;
}

/** Each oracle instance's sentence predictions (its evidence set), in example order. */
function perInstance(
  instances: ReturnType<typeof oracleInstances>,
  examples: Example[],
  lp: StanceProbabilities[],
): StanceProbabilities[][] {
  const per = instances.map(() => [] as StanceProbabilities[]);
  examples.forEach((e, i) => {
    if (e.instance >= 0) per[e.instance]!.push(lp[i]!);
  });
  return per;
}

/** Macro-F1 of the oracle instances from per-sentence cross-validated predictions. */
function oracleF1(
  instances: ReturnType<typeof oracleInstances>,
  examples: Example[],
  lp: StanceProbabilities[],
): number {
  const per = perInstance(instances, examples, lp);
  const gold = instances.map((x) => x.label);
  const pred = per.map(combineStances);
  return macroF1(gold, pred, STANCE_LABELS);
}

/** The same over SUPPORT and CONTRADICT instances only, as stance_sc_macro_f1. */
function scF1(
  instances: ReturnType<typeof oracleInstances>,
  examples: Example[],
  lp: StanceProbabilities[],
): number {
  const per = perInstance(instances, examples, lp);
  const keep = instances.map((x, k) => (x.label === 'NEUTRAL' ? -1 : k)).filter((k) => k >= 0);
  const pred = keep.map((k) => {
    const sum = [0, 0];
    for (const lp of per[k]!) for (let j = 0; j < 2; j++) sum[j]! += lp[j]!;
    return sum[1]! > sum[0]! ? 'CONTRADICT' : 'SUPPORT';
  });
  return macroF1(
    keep.map((k) => instances[k]!.label),
    pred,
    ['SUPPORT', 'CONTRADICT'],
  );
}

function shift(lp: StanceProbabilities, offsets: number[]): StanceProbabilities {
  return logSoftmax(Float64Array.from(lp, (v, k) => v + offsets[k]!));
}

const OFFSET_GRID = Array.from({ length: 13 }, (_, i) => -1.5 + 0.25 * i);

/** SUPPORT and CONTRADICT offsets (NEUTRAL's fixed at 0) maximising the oracle macro-F1. */
function chooseOffsets(
  instances: ReturnType<typeof oracleInstances>,
  examples: Example[],
  lp: StanceProbabilities[],
  keep: (claimId: string) => boolean,
): number[] {
  const idx = instances.map((x, k) => (keep(x.claimId) ? k : -1)).filter((k) => k >= 0);
  const per = instances.map(() => [0, 0, 0, 0]); // summed log-probs and sentence count
  examples.forEach((e, i) => {
    if (e.instance < 0) return;
    const p = per[e.instance]!;
    for (let k = 0; k < 3; k++) p[k]! += lp[i]![k]!;
    p[3]!++;
  });
  let best = { f1: -1, offsets: [0, 0, 0] };
  for (const a of OFFSET_GRID) {
    for (const b of OFFSET_GRID) {
      const o = [a, b, 0];
      const pred = idx.map((k) => argmaxWith(per[k]!, o));
      const f1 = macroF1(
        idx.map((k) => instances[k]!.label),
        pred,
        STANCE_LABELS,
      );
      // Ties go to the offsets closest to zero (the grid is visited from -1.5 up).
      if (f1 > best.f1 + 1e-12 || (Math.abs(f1 - best.f1) <= 1e-12 && norm(o) < norm(best.offsets)))
        best = { f1, offsets: o };
    }
  }
  return best.offsets;
}

function norm(o: number[]): number {
  return Math.abs(o[0]!) + Math.abs(o[1]!);
}

function argmaxWith(p: number[], o: number[]): Stance {
  let best = 0;
  const v = (k: number) => p[k]! + p[3]! * o[k]!;
  for (let k = 1; k < 3; k++) if (v(k) > v(best)) best = k;
  return STANCE_LABELS[best]!;
}

/** Oracle macro-F1 with offsets chosen on four folds' out-of-fold predictions, scored on the fifth. */
function nestedOffsetF1(
  instances: ReturnType<typeof oracleInstances>,
  examples: Example[],
  lp: StanceProbabilities[],
): number {
  const pred = new Array<Stance>(instances.length);
  for (let f = 0; f < 5; f++) {
    const o = chooseOffsets(instances, examples, lp, (id) => fold(id) !== f);
    const shifted = lp.map((x) => shift(x, o));
    const per = perInstance(instances, examples, shifted);
    instances.forEach((x, k) => {
      if (fold(x.claimId) === f) pred[k] = combineStances(per[k]!);
    });
  }
  return macroF1(
    instances.map((x) => x.label),
    pred,
    STANCE_LABELS,
  );
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
