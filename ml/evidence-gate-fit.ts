// `npx tsx ml/evidence-gate-fit.ts --dataset ../shared/datasets/scifact --model <id> --dump hybrid=FILE[,lexical=FILE]`:
// fits the evidence gate (workers/projects/evidence-gate.ts) on TRAIN only. A FILE is what
// `npm run eval -- --task claims --split train --mode <mode> --docs 3 --skipAudit 1 --dumpPipeline FILE`
// writes: one line per judged (train claim, source) of the app's claim check, with the judgement
// and the source's retrieval context. Rows: the judgements that give a label (SUPPORT/CONTRADICT);
// target: the abstract is gold evidence (or: gold with the right label). The search mode, the
// feature set, the target, the L2, the depth (1-3 sources per claim), the threshold and the
// SUPPORT bias of the source label are chosen by the abstract-level label F1 of 5-fold
// out-of-fold probabilities (folds by claim id), the metric `--task claims` reports. Writes
// workers/fitted/evidence-gate-<model>.json. Node only.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../workers/embed/node-kernel';
import {
  GATE_FEATURES,
  gateFeatures,
  gateProbability,
  type EvidenceGate,
  type RetrievalContext,
} from '../workers/projects/evidence-gate';
import { fittedKeyFor } from '../workers/answer/fitted';
import { sourceStance } from '../workers/projects/evidence';
import type { FittedStanceModel } from '../workers/projects/stance-model';
import { parseArgs } from '../lab/args';
import { loadClaims } from '../eval/claims-data';
import { fitLogistic, round4 } from '../eval/logistic';

interface DumpRow {
  claim: string;
  docId?: string;
  rank: number;
  gold: string | null;
  stance: string;
  retrieval: RetrievalContext;
  /** How the row's passage score was made (claims-pipeline.ts; absent: in-sample, before s10e). */
  passageFit?: 'in-sample' | 'out-of-fold';
  /** How the row's stance probabilities were made (absent: the shipped model, in-sample on train). */
  stanceFit?: 'out-of-fold';
  supportScore: number;
  maxCosine: number;
  maxOverlap: number;
  probs: Array<[number, number, number]>;
}

const FOLDS = 5;
/** Candidate feature sets: the gate's first (no list ranks), with the list ranks, and all. */
const FEATURE_SETS: Record<string, readonly string[]> = {
  base: GATE_FEATURES.filter(
    (f) =>
      f !== 'lexicalRankInv' &&
      f !== 'semanticRankInv' &&
      f !== 'relevance' &&
      f !== 'passageScore',
  ),
  ranks: GATE_FEATURES.filter((f) => f !== 'relevance' && f !== 'passageScore'),
  all: GATE_FEATURES.filter((f) => f !== 'passageScore'),
};

export function dumpFeatures(r: DumpRow, evidenceThreshold: number): Record<string, number> {
  return gateFeatures(
    {
      stance: r.stance,
      supportScore: r.supportScore,
      maxCosine: r.maxCosine,
      maxOverlap: r.maxOverlap,
      sentences: r.probs.map((p) => ({ probs: p, evidence: p[2] < evidenceThreshold })),
    },
    r.retrieval,
  );
}

interface Choice {
  f1: number;
  precision: number;
  recall: number;
  mode: string;
  features: string;
  target: 'evidence' | 'right';
  l2: number;
  docs: number;
  t: number;
  bias: number;
}

/** The shipped answer evaluator's fit for `model` (its command and date identify it). */
export function passageModelOf(model: string): string {
  const f = JSON.parse(
    readFileSync(
      join(REPO_ROOT, 'workers/fitted', `evaluator-${fittedKeyFor(model)}.json`),
      'utf8',
    ),
  ) as { command: string; date: string };
  return `${f.command} (${f.date})`;
}

/** The rows relabelled with `bias` added to SUPPORT (sourceStance), NEUTRAL ones dropped. */
function withBias(rows: DumpRow[], tau: number, bias: number): DumpRow[] {
  return rows.map((r) => ({
    ...r,
    stance: sourceStance(
      r.probs.map((p) => ({ probs: p, evidence: p[2] < tau })),
      bias,
    ),
  }));
}

interface Dump {
  mode: string;
  rows: DumpRow[];
}

function main() {
  const args = parseArgs(process.argv.slice(2));
  const model = args.model ?? 'all-MiniLM-L6-v2';
  const stance = JSON.parse(
    readFileSync(join(REPO_ROOT, 'workers/fitted', `stance-${model}.json`), 'utf8'),
  ) as FittedStanceModel;
  const claims = loadClaims(args.dataset!, 'train');
  const gold = claims.reduce((a, c) => a + c.evidence.size, 0);
  const dumps = readDumps(args.dump!);
  const tau = stance.evidenceThreshold;
  // --crag FILE (experiment, experiments/claims-crag-scores.ts): the answer evaluator's passage
  // score per (claim, document) joined into the rows, and a feature set with it; --out FILE then
  // keeps the shipped gate untouched.
  if (args.crag) {
    joinCragScores(dumps, args.crag);
    FEATURE_SETS.crag = GATE_FEATURES.filter((f) => f !== 'relevance');
  }
  // Dumps whose rows carry the claim check's own passage scores get the feature set too.
  if (dumps.some((d) => d.rows.some((r) => r.retrieval.passageScore !== undefined)))
    FEATURE_SETS.crag = GATE_FEATURES.filter((f) => f !== 'relevance');
  const maxDocs = Number(args.maxDocs ?? 3);
  // --biases 0: no SUPPORT bias (a bias flips weakly contradicting sources to SUPPORT).
  const biases = (args.biases ?? '0,0.25,0.5').split(',').map(Number);
  const best = chooseGate(dumps, { tau, gold, maxDocs, biases });
  const gate = fitGate(best, dumps, tau, {
    model,
    stance,
    claims: claims.length,
    command: `npx tsx ml/evidence-gate-fit.ts ${process.argv.slice(2).join(' ')}`,
  });
  const out = args.out ?? join(REPO_ROOT, 'workers/fitted', `evidence-gate-${model}.json`);
  writeFileSync(out, `${JSON.stringify(gate, null, 2)}\n`);
  console.error(`[gate-fit] wrote ${out}: ${JSON.stringify(best)}`);
}

/** --dump MODE=FILE[,MODE=FILE]: one dump per retrieval mode (a bare FILE is lexical); labelled rows only. */
function readDumps(spec: string): Dump[] {
  return spec.split(',').map((one) => {
    const [mode, file] = one.includes('=') ? one.split('=') : ['lexical', one];
    const rows = readFileSync(file!, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as DumpRow)
      .filter((r) => r.stance !== 'NEUTRAL');
    return { mode: mode!, rows };
  });
}

/** --crag FILE: each row's passage score from the answer evaluator, by (claim, document). */
function joinCragScores(dumps: Dump[], file: string): void {
  const crag = new Map<string, number>();
  for (const l of readFileSync(file, 'utf8').trim().split('\n')) {
    const x = JSON.parse(l) as { claim: string; docId: string; crag: number };
    crag.set(`${x.claim}:${x.docId}`, x.crag);
  }
  for (const d of dumps)
    for (const r of d.rows) {
      const v = crag.get(`${r.claim}:${r.docId}`);
      if (v !== undefined) r.retrieval = { ...r.retrieval, passageScore: v };
    }
}

const foldOf = (r: DumpRow) => Number(r.claim) % FOLDS;

/** Abstract label F1 of the rows within the first `docs` sources whose gate probability >= t. */
function f1At(rows: DumpRow[], p: number[], t: number, docs: number, gold: number) {
  let kept = 0;
  let tp = 0;
  rows.forEach((r, i) => {
    if (r.rank >= docs || p[i]! < t) return;
    kept++;
    if (r.gold === r.stance) tp++;
  });
  const precision = kept ? tp / kept : 0;
  const recall = tp / gold;
  const f1 = precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
  return { f1, precision, recall, kept };
}

type Search = { tau: number; gold: number; maxDocs: number; biases: number[] };

/** The best choice over bias, mode, feature set, target, L2, depth and threshold (out-of-fold F1). */
function chooseGate(dumps: Dump[], o: Search): Choice {
  let best: Choice = {
    f1: -1,
    precision: 0,
    recall: 0,
    mode: 'lexical',
    features: 'all',
    target: 'evidence',
    l2: 1,
    docs: 1,
    t: 0,
    bias: 0,
  };
  for (const bias of o.biases)
    for (const dump of dumps) {
      const { mode } = dump;
      // The dumps are written without a gate (bias 0): each row's label again under this bias.
      const rows = withBias(dump.rows, o.tau, bias);
      const feats = rows.map((r) => dumpFeatures(r, o.tau));
      for (let docs = 1; docs <= o.maxDocs; docs++) {
        const none = f1At(
          rows,
          rows.map(() => 1),
          0,
          docs,
          o.gold,
        );
        console.error(
          `[gate-fit] ${mode} bias ${bias}: ${rows.length} labelled judgements, ${o.gold} gold pairs; no gate, depth ${docs}: F1 ${round4(none.f1)} (P ${round4(none.precision)} R ${round4(none.recall)})`,
        );
      }
      for (const features of Object.keys(FEATURE_SETS))
        for (const target of ['evidence', 'right'] as const)
          for (const l2 of [0.1, 1, 10])
            for (let docs = 1; docs <= o.maxDocs; docs++) {
              const labels = rows.map((r) =>
                target === 'evidence' ? r.gold !== null : r.gold === r.stance,
              );
              const oof = outOfFold(rows, feats, labels, FEATURE_SETS[features]!, l2, docs);
              let local: Choice | null = null;
              for (let k = 0; k <= 90; k += 2) {
                const t = k / 100;
                const r = f1At(rows, oof, t, docs, o.gold);
                if (!local || r.f1 > local.f1)
                  local = { ...r, mode, features, target, l2, docs, t, bias };
              }
              console.error(`[gate-fit] ${JSON.stringify(local)}`);
              if (local!.f1 > best.f1) best = local!;
            }
    }
  return best;
}

/** Out-of-fold gate probabilities (folds by claim id), each fold's model on the first `docs` sources. */
function outOfFold(
  rows: DumpRow[],
  feats: Array<Record<string, number>>,
  labels: boolean[],
  names: readonly string[],
  l2: number,
  docs: number,
): number[] {
  const oof = new Array<number>(rows.length).fill(0);
  for (let f = 0; f < FOLDS; f++) {
    const train = rows
      .map((_, i) => i)
      .filter((i) => foldOf(rows[i]!) !== f && rows[i]!.rank < docs);
    const m = fitLogistic(
      names,
      train.map((i) => feats[i]!),
      train.map((i) => labels[i]!),
      l2,
    );
    rows.forEach((r, i) => {
      if (foldOf(r) === f) oof[i] = gateProbability(m, feats[i]!);
    });
  }
  return oof;
}

/** The shipped gate: the chosen setting refitted on all its rows, with its provenance. */
function fitGate(
  best: Choice,
  dumps: Dump[],
  tau: number,
  p: { model: string; stance: FittedStanceModel; claims: number; command: string },
): EvidenceGate & { docs: number } {
  const chosenRows = withBias(dumps.find((d) => d.mode === best.mode)!.rows, tau, best.bias);
  const chosen = { rows: chosenRows, feats: chosenRows.map((r) => dumpFeatures(r, tau)) };
  const names = FEATURE_SETS[best.features]!;
  const idx = chosen.rows.map((_, i) => i).filter((i) => chosen.rows[i]!.rank < best.docs);
  return {
    modelId: p.model,
    command: p.command,
    date: new Date().toISOString().slice(0, 10),
    fittedOn: `SciFact claims_train only (${idx.length} labelled judgements of ${p.claims} claims, ${best.mode} search, the first ${best.docs} sources)`,
    ...fitLogistic(
      names,
      idx.map((i) => chosen.feats[i]!),
      idx.map((i) =>
        best.target === 'evidence'
          ? chosen.rows[i]!.gold !== null
          : chosen.rows[i]!.gold === chosen.rows[i]!.stance,
      ),
      best.l2,
    ),
    // The stance model whose judgements the gate was fitted on: a refitted stance model needs a
    // refitted gate (evidence-gate.test.ts checks they match).
    stanceProvenance: p.stance.provenance,
    // Whether the rows' stances came from fold models that did not see their claims
    // (`--stanceFolds DIR`) or from the shipped model, which was fitted on these train claims.
    stanceFit: chosen.rows.every((r) => r.stanceFit === 'out-of-fold')
      ? 'out-of-fold'
      : 'in-sample',
    // The answer evaluator whose passage scores the rows carry (a refitted evaluator needs a refitted
    // gate too; evidence-gate.test.ts checks it).
    ...(FEATURE_SETS[best.features]!.includes('passageScore')
      ? {
          passageModel: passageModelOf(p.model),
          passageFit: chosen.rows.every((r) => r.passageFit === 'out-of-fold')
            ? ('out-of-fold' as const)
            : ('in-sample' as const),
        }
      : {}),
    threshold: best.t,
    supportBias: best.bias,
    docs: best.docs,
    mode: best.mode,
    target: best.target,
    train: {
      l2: best.l2,
      oofAbstractF1: round4(best.f1),
      oofPrecision: round4(best.precision),
      oofRecall: round4(best.recall),
    },
  };
}

main();
