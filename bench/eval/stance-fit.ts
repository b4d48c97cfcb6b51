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
import { join } from 'node:path';
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
  logSoftmax,
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
        ct: e.claim,
        st: e.sentence,
        ...(args.dumpVectors
          ? {
              cv: Array.from(claimView.get(e.claim)!.vector),
              sv: Array.from(sentView.get(e.sentence)!.vector),
            }
          : {}),
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
  const grid: FitConfig[] = [0.01, 0.03, 0.1].map((l2) => ({
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
  // Class offsets added to every sentence's output (so to the summed log-probabilities of a
  // set in proportion to its size): chosen on the out-of-fold predictions; their own effect is
  // measured by nested cross-validation (offsets chosen on four folds, scored on the fifth).
  const offsets = chooseOffsets(instances, examples, best!.lp, () => true);
  const nested = nestedOffsetF1(instances, examples, best!.lp);
  const shifted = best!.lp.map((lp) => shift(lp, offsets));
  const threshold = chooseThreshold(examples, shifted);
  console.error(
    `[fit] best ${JSON.stringify(best!.cfg)} cv F1 ${best!.f1.toFixed(4)}; class offsets ${JSON.stringify(offsets)} (nested cv F1 ${nested.toFixed(4)}), evidence threshold ${threshold.tau} (cv sentence F1 ${threshold.f1.toFixed(4)})`,
  );
  const fitted = fitConfig(rows, labels, best!.cfg, meta);
  const last = fitted.layers[fitted.layers.length - 1]!;
  last.bias = last.bias.map((b, k) => Math.round((b + offsets[k]!) * 1e6) / 1e6);
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
    classOffsets: JSON.stringify(offsets),
    cvOracleMacroF1WithOffsets: Math.round(nested * 10000) / 10000,
    cvSentenceF1: Math.round(threshold.f1 * 10000) / 10000,
  };
  // --folds DIR: also the chosen configuration refitted without each fold of claims (offsets
  // and threshold as chosen above), DIR/stance-<model>-fold<k>.json, so the evidence gate's train
  // dump can judge every train claim with a stance model that did not see it
  // (`--task claims --split train --stanceFolds DIR`, evidence-gate-fit.ts). The shipped model's
  // own configuration must come out of the grid (claims-task.ts checks it).
  if (args.folds) {
    mkdirSync(args.folds, { recursive: true });
    for (let f = 0; f < 5; f++) {
      const tr = examples.map((_, i) => i).filter((i) => fold(examples[i]!.claimId) !== f);
      const m = fitConfig(
        tr.map((i) => rows[i]!),
        tr.map((i) => labels[i]!),
        best!.cfg,
        meta,
      );
      const top = m.layers[m.layers.length - 1]!;
      top.bias = top.bias.map((b, k) => Math.round((b + offsets[k]!) * 1e6) / 1e6);
      m.evidenceThreshold = threshold.tau;
      m.provenance = { ...fitted.provenance, fold: f, foldOf: 'claim id % 5' };
      writeFileSync(join(args.folds, `stance-${model}-fold${f}.json`), `${JSON.stringify(m)}\n`);
    }
    console.error(`[fit] wrote 5 fold models to ${args.folds}`);
    // --foldsOnly 1: leave the shipped file (and the audit calibration fit-audit.py adds) alone.
    if (args.foldsOnly) return;
  }
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
    const per = instances.map(() => [] as StanceProbabilities[]);
    examples.forEach((e, i) => {
      if (e.instance >= 0) per[e.instance]!.push(shifted[i]!);
    });
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
