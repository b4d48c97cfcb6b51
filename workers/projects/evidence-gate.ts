// The evidence gate: whether a judged source speaks to the claim at all, so that its stance
// counts. The stance model labels each sentence; summed over a source's picked sentences it gives
// SUPPORT or CONTRADICT whenever one sentence looks like evidence, which on SciFact TRAIN labels
// many sources that are not evidence (on-topic abstracts of other findings). The gate is a
// logistic model over the judgement's own signals (how strongly and how many sentences look like
// evidence, the claim's words and cosine in the best sentence, how clear the SUPPORT/CONTRADICT
// margin is) plus, when the caller knows it, where the source sat in the search (rank, and the
// next hit's score relative to its own): below its fitted threshold the source is NEUTRAL.
// Fitted on SciFact claims_train only by ml/evidence-gate-fit.ts (workers/fitted/
// evidence-gate-<model>.json); a model without a file has no gate, a file whose features the code
// does not compute is refused.
import { assertFittedFeatures } from '../shared/fitted-features';
import { standardProbability, type StandardLogistic } from '../shared/standard-logistic';
import miniLm from '../fitted/evidence-gate-all-MiniLM-L6-v2.json';
import useLite from '../fitted/evidence-gate-use-lite.json';

export const GATE_FEATURES = [
  'supportScore',
  'maxCosine',
  'maxOverlap',
  'evidenceSentences',
  'maxSupport',
  'maxContradict',
  'stanceMargin',
  'contradicts',
  'rankInv',
  'nextRatio',
  'lexicalRankInv',
  'semanticRankInv',
  'relevance',
  'passageScore',
] as const;

/** The gate's logistic weights (the shared standardised scorer's shape). */
export type GateModel = StandardLogistic;

export type EvidenceGate = GateModel & {
  /** A source whose gate probability is below this is NEUTRAL. */
  threshold: number;
  /** The fitted stance model's provenance the gate was fitted over (its judgements are the input). */
  stanceProvenance?: Record<string, string | number>;
  /** The answer evaluator's fit the passage scores came from (when the gate reads them). */
  passageModel?: string;
  /**
   * How the train passage scores the gate was fitted on were made: 'out-of-fold' (each train
   * claim scored by an evaluator fitted without it, as new claims are; ml/passage-folds.ts)
   * or 'in-sample' (the shipped evaluator, which saw the train claims and scores them too well).
   */
  passageFit?: string;
  /**
   * Whether the train stances the gate read came from stance models fitted without each claim's
   * fold ('out-of-fold', stance-fit.ts --folds) or from the shipped model ('in-sample').
   */
  stanceFit?: string;
  /** Added to SUPPORT's summed log-probability when a source's label is chosen (evidence.ts). */
  supportBias?: number;
  /** Sources per claim the fit chose for `--task claims` (abstract F1 on train). */
  docs?: number;
  /** The search the fit chose for `--task claims` (lexical or hybrid). */
  mode?: string;
  /** What the gate predicts: the source is gold evidence, or gold evidence with the right label. */
  target?: string;
  modelId?: string;
  command?: string;
  date?: string;
  fittedOn?: string;
  train?: Record<string, number>;
};

/** Where a source sat in the search that found it (both optional). */
export interface RetrievalContext {
  /** 0-based rank among the distinct sources. */
  rank?: number;
  /** The next source's search score divided by this one's (0..1 for a ranked list). */
  nextRatio?: number;
  /**
   * 1-based rank of the source's best chunk in the lexical / semantic list of a hybrid search
   * (SearchHit.ranks); null: that list did not find the source. Absent: not known (e.g. a
   * lexical-only search has no semantic list), the feature then takes its training mean.
   */
  lexicalRank?: number | null;
  semanticRank?: number | null;
  /**
   * The best relevance band's measured precision among the source's hits (SearchHit.relevance,
   * fitted on measured relevance); absent when the search does not rate hits.
   */
  relevance?: number;
  /**
   * The answer evaluator's P(relevant) for the source (workers/answer/evaluator.ts, CRAG passage
   * score, via passage-scores.ts); 0 when the evaluator's top 10 documents miss it.
   */
  passageScore?: number;
}

/** The per-sentence numbers the gate reads (a judged sentence's probabilities and evidence flag). */
export interface GateSentence {
  probs: readonly [number, number, number];
  evidence: boolean;
}

const GATES: Record<string, EvidenceGate> = {
  'all-MiniLM-L6-v2': miniLm,
  'use-lite': useLite,
};

/** The gate shipped for an embedding model id, or null. */
export function evidenceGateFor(modelId: string): EvidenceGate | null {
  const first = modelId.split(/[\\/@]/).filter(Boolean)[0] ?? modelId;
  const key = GATES[first] ? first : (modelId.split('/').pop() ?? '');
  const gate = GATES[key] ?? null;
  if (gate) {
    const file = `workers/fitted/evidence-gate-${key}.json`;
    assertFittedFeatures(gate, GATE_FEATURES, file, 'evidence-gate');
  }
  return gate;
}

/** The gate's feature values for one judged source (missing retrieval context -> training mean). */
export function gateFeatures(
  j: {
    stance: string;
    supportScore: number;
    maxCosine: number;
    maxOverlap: number;
    sentences: GateSentence[];
  },
  retrieval: RetrievalContext = {},
): Record<string, number> {
  const ev = j.sentences.filter((s) => s.evidence);
  let s = 0;
  let c = 0;
  for (const x of ev) {
    s += Math.log(x.probs[0]);
    c += Math.log(x.probs[1]);
  }
  const out: Record<string, number> = {
    supportScore: j.supportScore,
    maxCosine: j.maxCosine,
    maxOverlap: j.maxOverlap,
    evidenceSentences: ev.length,
    maxSupport: Math.max(0, ...j.sentences.map((x) => x.probs[0])),
    maxContradict: Math.max(0, ...j.sentences.map((x) => x.probs[1])),
    stanceMargin: Math.abs(s - c) / Math.max(1, ev.length),
    contradicts: j.stance === 'CONTRADICT' ? 1 : 0,
  };
  if (retrieval.rank !== undefined) out.rankInv = 1 / (retrieval.rank + 1);
  if (retrieval.nextRatio !== undefined) out.nextRatio = retrieval.nextRatio;
  if (retrieval.lexicalRank !== undefined)
    out.lexicalRankInv = retrieval.lexicalRank === null ? 0 : 1 / retrieval.lexicalRank;
  if (retrieval.semanticRank !== undefined)
    out.semanticRankInv = retrieval.semanticRank === null ? 0 : 1 / retrieval.semanticRank;
  if (retrieval.relevance !== undefined) out.relevance = retrieval.relevance;
  if (retrieval.passageScore !== undefined) out.passageScore = retrieval.passageScore;
  return out;
}

/** Features only a search gives (absent for a claim judged without one): the training mean. */
const RETRIEVAL_FEATURES: ReadonlySet<string> = new Set([
  'rankInv',
  'nextRatio',
  'lexicalRankInv',
  'semanticRankInv',
  'relevance',
  'passageScore',
]);

/** P(the source is evidence for the claim) under `gate`. */
export function gateProbability(gate: GateModel, features: Record<string, number>): number {
  return standardProbability(gate, features, RETRIEVAL_FEATURES);
}
