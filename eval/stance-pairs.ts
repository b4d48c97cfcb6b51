// `npm run eval -- --task stance-pairs --pairs FILE.jsonl [--json OUT] [--bundle DIR]`: scores the
// pair verifier on any labelled pairs. Each line is exactly {"claim", "evidence", "label"} with
// label SUPPORT / CONTRADICT / NEI; any other line is refused with its number.
// The evidence is judged as the app judges one source: split into sentences
// (workers/projects/sentences.ts), each (claim, sentence) judged, and the source's label is the
// non-NEI label of its most confident sentence whose own argmax is not NEI (SUPPORT against
// CONTRADICT by their highest probability), NEI when every sentence's argmax is NEI.
import { readFileSync, writeFileSync } from 'node:fs';
import { splitSentences } from '../workers/projects/sentences';
import type { PairJudgement } from '../workers/shared/pair-verifier';
import { loadPairModelFolder, VERIFIER_DIR } from '../workers/verifier/node-bundle';
import type { PairModel } from '../workers/verifier/pair-model';
import { confusion, macroF1, prf } from './stance-metrics';

export const STANCE_LABELS = ['SUPPORT', 'CONTRADICT', 'NEI'] as const;
export type StanceLabel = (typeof STANCE_LABELS)[number];

export interface StancePair {
  claim: string;
  evidence: string;
  label: StanceLabel;
}

/** @throws Error naming the first line that is not exactly {claim, evidence, label} with a known label */
export function parseStancePairs(text: string): StancePair[] {
  const out: StancePair[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (!line) return;
    const where = `line ${i + 1}`;
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      throw new Error(`${where}: not JSON.`);
    }
    if (!v || typeof v !== 'object' || Array.isArray(v))
      throw new Error(`${where}: not an object.`);
    const keys = Object.keys(v).sort().join(',');
    if (keys !== 'claim,evidence,label') {
      throw new Error(
        `${where}: fields are ${keys || 'none'}; expected exactly claim, evidence, label.`,
      );
    }
    const { claim, evidence, label } = v as Record<string, unknown>;
    if (typeof claim !== 'string' || typeof evidence !== 'string') {
      throw new Error(`${where}: claim and evidence must be strings.`);
    }
    if (!STANCE_LABELS.includes(label as StanceLabel)) {
      throw new Error(
        `${where}: label ${JSON.stringify(label)} is not one of ${STANCE_LABELS.join(', ')}.`,
      );
    }
    out.push({ claim, evidence, label: label as StanceLabel });
  });
  if (out.length === 0) throw new Error('The file has no pairs.');
  return out;
}

const argmaxLabel = (j: PairJudgement): StanceLabel => {
  const { support, contradict, nei } = j.stance;
  if (nei >= support && nei >= contradict) return 'NEI';
  return support >= contradict ? 'SUPPORT' : 'CONTRADICT';
};

/** The source's label from its sentences' judgements (the rule in the header). */
export function aggregateSource(judgements: readonly PairJudgement[]): {
  label: StanceLabel;
  support: number;
  contradict: number;
} {
  let support = 0;
  let contradict = 0;
  for (const j of judgements) {
    const l = argmaxLabel(j);
    if (l === 'SUPPORT') support = Math.max(support, j.stance.support);
    if (l === 'CONTRADICT') contradict = Math.max(contradict, j.stance.contradict);
  }
  const label =
    support === 0 && contradict === 0 ? 'NEI' : support >= contradict ? 'SUPPORT' : 'CONTRADICT';
  // For SUPPORT against CONTRADICT on gold non-NEI pairs: the highest of each over all sentences.
  return {
    label,
    support: Math.max(0, ...judgements.map((j) => j.stance.support)),
    contradict: Math.max(0, ...judgements.map((j) => j.stance.contradict)),
  };
}

/** Sentences of one source as the app splits them (the whole text when it has none). */
export function sourceSentences(evidence: string): string[] {
  const s = splitSentences(evidence).map((x) => x.text);
  return s.length > 0 ? s : [evidence];
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s[(s.length - 1) >> 1]! + s[s.length >> 1]!) / 2 : 0;
};
const round = (x: number) => Math.round(x * 10000) / 10000;

export function stancePairsReport(
  pairs: readonly StancePair[],
  model: PairModel,
  now: () => number = () => performance.now(),
) {
  const pred: StanceLabel[] = [];
  const pairMs: number[] = [];
  const binGold: StanceLabel[] = [];
  const binPred: StanceLabel[] = [];
  let truncated = 0;
  for (const p of pairs) {
    const judgements = sourceSentences(p.evidence).map((s) => {
      const t0 = now();
      const [r] = model.run([model.encode({ a: p.claim, b: s })]);
      pairMs.push(now() - t0);
      if (r!.judgement.truncated) truncated++;
      return r!.judgement;
    });
    const agg = aggregateSource(judgements);
    pred.push(agg.label);
    if (p.label !== 'NEI') {
      binGold.push(p.label);
      binPred.push(agg.support >= agg.contradict ? 'SUPPORT' : 'CONTRADICT');
    }
  }
  const gold = pairs.map((p) => p.label);
  const perClass = Object.fromEntries(
    STANCE_LABELS.map((l) => {
      const tp = gold.filter((g, i) => g === l && pred[i] === l).length;
      return [
        l,
        round(prf(tp, pred.filter((x) => x === l).length, gold.filter((g) => g === l).length).f1),
      ];
    }),
  );
  return {
    task: 'stance-pairs',
    pairs: pairs.length,
    sentence_pairs: pairMs.length,
    truncated_sentence_pairs: truncated,
    macro_f1: round(macroF1(gold, pred, STANCE_LABELS)),
    f1: perClass,
    support_vs_contradict_f1: round(macroF1(binGold, binPred, ['SUPPORT', 'CONTRADICT'] as const)),
    support_vs_contradict_pairs: binGold.length,
    confusion: confusion(gold, pred),
    pair_p50_ms: round(median(pairMs)),
    aggregation: 'sentences split as the app does; most confident non-NEI sentence, else NEI',
  };
}

export async function runStancePairsTask(args: Record<string, string>): Promise<void> {
  if (!args.pairs)
    throw new Error(
      'usage: npm run eval -- --task stance-pairs --pairs FILE.jsonl [--json OUT] [--bundle DIR]',
    );
  const pairs = parseStancePairs(readFileSync(args.pairs, 'utf8'));
  const dir = args.bundle || VERIFIER_DIR;
  console.error(`[stance-pairs] ${pairs.length} pairs, verifier bundle ${dir}`);
  const model = await loadPairModelFolder(dir);
  const report = { file: args.pairs, bundle: dir, ...stancePairsReport(pairs, model) };
  const json = JSON.stringify(report, null, 2);
  console.log(json);
  if (args.json) writeFileSync(args.json, `${json}\n`);
}
