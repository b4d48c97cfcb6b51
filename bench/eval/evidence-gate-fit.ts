// `npx tsx bench/eval/evidence-gate-fit.ts --dataset ../shared/datasets/scifact --model <id> --dump FILE`:
// fits the evidence gate (workers/projects/evidence-gate.ts) on TRAIN only. FILE is what
// `npm run eval -- --task claims --split train --docs 2 --dumpPipeline FILE` writes: one line per
// judged (train claim, retrieved abstract) with the judgement and the search scores. Rows: the
// judgements that give a label (SUPPORT/CONTRADICT); target: the abstract is gold evidence for the
// claim. The L2, the threshold and the depth (1 or 2 abstracts per claim) are chosen by the
// abstract-level label F1 of 5-fold out-of-fold probabilities (folds by claim), the metric
// `--task claims` reports. Writes workers/projects/fitted/evidence-gate-<model>.json. Node only.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../workers/embed/node-kernel';
import {
  GATE_FEATURES,
  gateFeatures,
  gateProbability,
  type EvidenceGate,
} from '../../workers/projects/evidence-gate';
import type { FittedStanceModel } from '../../workers/projects/stance-model';
import { parseArgs } from '../args';
import { loadClaims } from './claims-data';
import { fitLogistic, round4 } from './logistic';

interface DumpRow {
  claim: string;
  rank: number;
  gold: string | null;
  stance: string;
  score: number;
  next: number;
  supportScore: number;
  maxCosine: number;
  maxOverlap: number;
  probs: Array<[number, number, number]>;
}

const FOLDS = 5;

export function dumpFeatures(r: DumpRow, evidenceThreshold: number): Record<string, number> {
  return gateFeatures(
    {
      stance: r.stance,
      supportScore: r.supportScore,
      maxCosine: r.maxCosine,
      maxOverlap: r.maxOverlap,
      sentences: r.probs.map((p) => ({ probs: p, evidence: p[2] < evidenceThreshold })),
    },
    { rank: r.rank, nextRatio: r.score > 0 ? r.next / r.score : 0 },
  );
}

function main() {
  const args = parseArgs(process.argv.slice(2));
  const model = args.model ?? 'all-MiniLM-L6-v2';
  const stance = JSON.parse(
    readFileSync(join(REPO_ROOT, 'workers/projects/fitted', `stance-${model}.json`), 'utf8'),
  ) as FittedStanceModel;
  const claims = loadClaims(args.dataset!, 'train');
  const gold = claims.reduce((a, c) => a + c.evidence.size, 0);
  const rows = readFileSync(args.dump!, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as DumpRow)
    .filter((r) => r.stance !== 'NEUTRAL');
  const feats = rows.map((r) => dumpFeatures(r, stance.evidenceThreshold));
  const labels = rows.map((r) => r.gold !== null);
  const foldOf = (r: DumpRow) => Number(r.claim) % FOLDS;
  const f1At = (p: number[], t: number, docs: number) => {
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
  };
  const none = f1At(
    rows.map(() => 1),
    0,
    1,
  );
  console.error(
    `[gate-fit] ${rows.length} labelled judgements, ${gold} gold pairs; no gate, depth 1: F1 ${round4(none.f1)}`,
  );
  let best = { f1: -1, l2: 1, t: 0, docs: 1, precision: 0, recall: 0 };
  for (const l2 of [0.1, 1, 10]) {
    const oof = new Array<number>(rows.length).fill(0);
    for (let f = 0; f < FOLDS; f++) {
      const train = rows.map((r, i) => i).filter((i) => foldOf(rows[i]!) !== f);
      const m = fitLogistic(
        GATE_FEATURES,
        train.map((i) => feats[i]!),
        train.map((i) => labels[i]!),
        l2,
      );
      rows.forEach((r, i) => {
        if (foldOf(r) === f) oof[i] = gateProbability(m, feats[i]!);
      });
    }
    for (const docs of [1, 2])
      for (let k = 0; k <= 90; k += 2) {
        const t = k / 100;
        const r = f1At(oof, t, docs);
        if (r.f1 > best.f1)
          best = { f1: r.f1, l2, t, docs, precision: r.precision, recall: r.recall };
      }
    console.error(`[gate-fit] l2 ${l2}: best so far ${JSON.stringify(best)}`);
  }
  const gate: EvidenceGate & { docs: number } = {
    modelId: model,
    command: `npx tsx bench/eval/evidence-gate-fit.ts ${process.argv.slice(2).join(' ')}`,
    date: new Date().toISOString().slice(0, 10),
    fittedOn: `SciFact claims_train only (${rows.length} labelled judgements of ${claims.length} claims)`,
    ...fitLogistic(GATE_FEATURES, feats, labels, best.l2),
    threshold: best.t,
    docs: best.docs,
    train: {
      l2: best.l2,
      oofAbstractF1: round4(best.f1),
      oofPrecision: round4(best.precision),
      oofRecall: round4(best.recall),
      noGateAbstractF1: round4(none.f1),
    },
  };
  const out = join(REPO_ROOT, 'workers/projects/fitted', `evidence-gate-${model}.json`);
  writeFileSync(out, `${JSON.stringify(gate, null, 2)}\n`);
  console.error(`[gate-fit] wrote ${out}: ${JSON.stringify(gate.train)} depth ${best.docs}`);
}

main();
