// Evidence for a claim inside one source: split the source into sentences, keep the few closest to
// the claim (the fitted rationale picker of sentence-rank.ts: BM25, position, figures), judge each with the stance model, and sum the judgements into the source's
// stance and a support score (how strongly the source speaks to the claim, 0..1). The same
// function serves the claim check, the citation audit and `npm run eval -- --task claims`.
// The embedder is injected.
import {
  gateFeatures,
  gateProbability,
  type EvidenceGate,
  type RetrievalContext,
} from './evidence-gate';
import { judgeOrFallback } from '../shared/pair-verdicts';
import type { PairJudgement, PairVerifier } from '../shared/pair-verifier';
import { splitSentences, type SentenceSpan } from './sentences';
import pick from '../fitted/sentence-pick.json';
import { assertFittedFeatures } from '../shared/fitted-features';
import { PICK_FEATURES, rankSentences, type PickModel } from './sentence-rank';
import { contentStems } from '../text-features/stance-cues';
import { textView, type TextView } from '../text-features/stance-features';
import {
  STANCE_LABELS,
  type FittedStanceModel,
  type Stance,
  type StanceModel,
  type StanceProbabilities,
} from './stance-model';

/** Embeds claims (query side) or sentences (passage side) with the active canonical model. */
export interface StanceEmbed {
  claims(texts: string[]): Promise<Int16Array[]>;
  sentences(texts: string[]): Promise<Int16Array[]>;
}

export type ClaimView = TextView & { text: string };

export interface JudgedSentence extends SentenceSpan {
  stance: Stance;
  /** P(SUPPORT), P(CONTRADICT), P(NEUTRAL). */
  probs: StanceProbabilities;
  /** P(NEUTRAL) below the model's evidence threshold. */
  evidence: boolean;
}

/** What judged a source's sentences: Sift's pair model reading claim and sentence together, or
 * the LLM-free stance model over features of the two texts taken apart (no pair model loaded). */
export type JudgedBy = 'pair-model' | 'features';

export interface SourceJudgement {
  judgedBy: JudgedBy;
  /**
   * SUPPORT or CONTRADICT from the evidence sentences; NEUTRAL when none qualifies or the evidence
   * gate (when the judge has one) finds the source too weak.
   */
  stance: Stance;
  /** P(the source is evidence) from the fitted gate; absent without a gate. */
  gate?: number;
  /** max over the judged sentences of 1 - P(NEUTRAL): does the source address the claim at all. */
  supportScore: number;
  /** max cosine of the claim with a judged sentence (canonical vectors). */
  maxCosine: number;
  /** max share of the claim's content words found in one judged sentence. */
  maxOverlap: number;
  sentences: JudgedSentence[];
}

export interface EvidenceJudge {
  /** The fitted citation-audit calibration of the model, if any. */
  auditCalibration?: FittedStanceModel['audit'];
  claimView(claim: string): Promise<ClaimView>;
  /** Passage-side vectors of sentences (one call, so the embedder can batch them). */
  embedSentences(texts: string[]): Promise<Int16Array[]>;
  /**
   * The pair model's reading of (claim, sentence) for each text, in order, or null when the judge
   * has no pair model (its verdicts then come from the stance model's features).
   */
  readPairs(claim: ClaimView, texts: string[]): Promise<PairJudgement[] | null>;
  /**
   * Judges one source text for a claim; `sentences` defaults to the rule-based splitter;
   * `retrieval` (where the search ranked the source) feeds the gate.
   */
  judge(
    claim: ClaimView,
    text: string,
    sentences?: SentenceSpan[],
    retrieval?: RetrievalContext,
  ): Promise<SourceJudgement>;
  /**
   * The sentences `judge` would embed for this claim: the most likely rationale `candidates` of `all`
   * (at most `limit`, default the judge's per-source count), best first.
   */
  pick(claim: ClaimView, all: SentenceSpan[], limit?: number): SentenceSpan[];
  /**
   * Judges sentences already picked and embedded (`vectors[i]` is `picked[i]`'s passage vector),
   * so a caller can embed the sentences of many sources in one batch. `judge` is
   * `judgePicked(claim, pick(...) in text order, embed(...), retrieval, readPairs(...))`. With
   * `pairs` (the pair model's reading of each picked sentence) the stances are the pair model's.
   */
  judgePicked(
    claim: ClaimView,
    picked: SentenceSpan[],
    vectors: Int16Array[],
    retrieval?: RetrievalContext,
    pairs?: ReadonlyArray<PairJudgement> | null,
  ): SourceJudgement;
}

const SENTENCE_PICK: PickModel = pick;

/** How many sentences of a source are judged (the rest are never embedded). */
export const CANDIDATES_PER_SOURCE = 4;

/** A sentence the pair model reads as evidence: P(NEI) below this (its own argmax boundary). */
export const PAIR_EVIDENCE_THRESHOLD = 0.5;

export function createEvidenceJudge(deps: {
  model: StanceModel;
  embed: StanceEmbed;
  candidates?: number;
  /** The fitted evidence gate (evidence-gate.ts), or none: every labelled source counts. */
  gate?: EvidenceGate | null;
  /**
   * Sift's pair model: when present it judges each picked sentence with the claim read together,
   * and the evidence gate (fitted on the stance model's judgements) is not applied.
   */
  pairs?: PairVerifier | null;
}): EvidenceJudge {
  const perSource = deps.candidates ?? CANDIDATES_PER_SOURCE;
  const tau = deps.model.fitted.evidenceThreshold;
  // Weights missing, damaged or of another version: the stance model judges, and says so.
  async function readPairs(claim: ClaimView, texts: string[]): Promise<PairJudgement[] | null> {
    if (!deps.pairs) return null;
    const read = await judgeOrFallback(
      deps.pairs,
      texts.map((b) => ({ a: claim.text, b })),
    );
    return read.source === 'verifier' ? read.judgements : null;
  }
  function judgePicked(
    claim: ClaimView,
    picked: SentenceSpan[],
    vectors: Int16Array[],
    retrieval?: RetrievalContext,
    pairs?: ReadonlyArray<PairJudgement> | null,
  ): SourceJudgement {
    const judgedBy: JudgedBy = pairs ? 'pair-model' : 'features';
    if (picked.length === 0) {
      return {
        judgedBy,
        stance: 'NEUTRAL',
        supportScore: 0,
        maxCosine: 0,
        maxOverlap: 0,
        sentences: [],
      };
    }
    const sentences = picked.map((s, i): JudgedSentence => {
      if (pairs) return pairSentence(s, pairs[i]!);
      const lp = deps.model.logProbs(claim, textView(s.text, vectors[i]!));
      const probs = lp.map(Math.exp) as StanceProbabilities;
      return { ...s, probs, stance: argmax(probs), evidence: probs[2] < tau };
    });
    const claimWords = new Set(claim.stems);
    const judged: SourceJudgement = {
      judgedBy,
      stance: sourceStance(sentences, pairs ? 0 : (deps.gate?.supportBias ?? 0)),
      supportScore: Math.max(...sentences.map((s) => 1 - s.probs[2])),
      maxCosine: Math.max(...vectors.map((v) => cosine(v, claim.vector))),
      maxOverlap: Math.max(
        ...picked.map(
          (s) =>
            contentStems(s.text).filter((t) => claimWords.has(t)).length /
            Math.max(1, claimWords.size),
        ),
      ),
      sentences,
    };
    const gate = deps.gate;
    if (!gate || pairs || judged.stance === 'NEUTRAL') return judged;
    const p = gateProbability(gate, gateFeatures(judged, retrieval));
    return { ...judged, gate: p, stance: p < gate.threshold ? 'NEUTRAL' : judged.stance };
  }
  return {
    ...(deps.model.fitted.audit ? { auditCalibration: deps.model.fitted.audit } : {}),
    async claimView(claim) {
      const [v] = await deps.embed.claims([claim]);
      return { ...textView(claim, v!), text: claim };
    },
    async judge(claim, text, given, retrieval) {
      const all = given ?? splitSentences(text);
      const picked = pickIndexes(claim, all, perSource)
        .sort((a, b) => a - b)
        .map((i) => all[i]!);
      if (picked.length === 0) return judgePicked(claim, [], []);
      const texts = picked.map((s) => s.text);
      const [vectors, pairs] = await Promise.all([
        deps.embed.sentences(texts),
        readPairs(claim, texts),
      ]);
      return judgePicked(claim, picked, vectors, retrieval, pairs);
    },
    embedSentences: (texts) => deps.embed.sentences(texts),
    readPairs,
    pick(claim, all, limit = perSource) {
      return pickIndexes(claim, all, limit).map((i) => all[i]!);
    },
    judgePicked,
  };
}

/** A sentence as the pair model read it with the claim. */
function pairSentence(s: SentenceSpan, p: PairJudgement): JudgedSentence {
  const probs: StanceProbabilities = [p.stance.support, p.stance.contradict, p.stance.nei];
  return { ...s, probs, stance: argmax(probs), evidence: p.stance.nei < PAIR_EVIDENCE_THRESHOLD };
}

/** The sentences judged: by the fitted rationale picker (BM25 + position + figures). */
function pickIndexes(claim: ClaimView, all: SentenceSpan[], limit: number): number[] {
  const file = 'workers/fitted/sentence-pick.json';
  assertFittedFeatures(SENTENCE_PICK, PICK_FEATURES, file, 'sentence-pick');
  return rankSentences(claim.text, all, limit, SENTENCE_PICK);
}

/**
 * SUPPORT vs CONTRADICT by summed log-probability over the evidence sentences; `supportBias` is
 * added to SUPPORT's sum once per source (the gate's fit chooses it on train: the stance model's
 * class weights make it call CONTRADICT more often than evidence abstracts do).
 */
export function sourceStance(
  sentences: ReadonlyArray<Pick<JudgedSentence, 'probs' | 'evidence'>>,
  supportBias = 0,
): Stance {
  const ev = sentences.filter((s) => s.evidence);
  if (ev.length === 0) return 'NEUTRAL';
  let support = supportBias;
  let contradict = 0;
  for (const s of ev) {
    support += Math.log(s.probs[0]);
    contradict += Math.log(s.probs[1]);
  }
  return support >= contradict ? 'SUPPORT' : 'CONTRADICT';
}

function cosine(a: Int16Array, b: Int16Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s / (32767 * 32767);
}

function argmax(p: StanceProbabilities): Stance {
  let best = 0;
  for (let k = 1; k < 3; k++) if (p[k]! > p[best]!) best = k;
  return STANCE_LABELS[best]!;
}
