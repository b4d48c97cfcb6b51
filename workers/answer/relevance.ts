// The pair verifier's reading of an answer's best sentences: which of them address the question
// (the extractive answer is made of those, best first), and whether any does (if none, the library
// does not hold the answer, whatever the retrieval scores say). Reads only whole sentences, the
// `pool` best by strip score, so an ask costs a handful of pairs. The fitted numbers are
// workers/fitted/answer-relevance.json (ml/answer-relevance-fit.ts, on the answers dev set).
import type { AnswerRelevance } from '../shared/answer-api';
import { judgeOrFallback } from '../shared/pair-verdicts';
import type { PairVerifier } from '../shared/pair-verifier';
import fittedFile from '../fitted/answer-relevance.json';
import { isContentsLine } from '../shared/contents-lines';
import type { ScoredStrip } from './refine';

export interface AnswerRelevanceModel {
  /** The verifier bundle the threshold was fitted on (another one is not read: LLM-free path). */
  verifier: string;
  /** Whole sentences read per ask: the best by strip score. */
  pool: number;
  /** A sentence addresses the question at relevance >= this (probability). */
  addressed: number;
  /** Weight of the relevance logit beside the strip score's logit when ranking answer sentences. */
  relevanceWeight: number;
  /** Answer sentences at most (the best one, then others that address the question too). */
  answerMax: number;
  command?: string;
  fittedOn?: string;
  figures?: Record<string, unknown>;
}

export const ANSWER_RELEVANCE: AnswerRelevanceModel = fittedFile;

/** A strip read by the verifier, with its relevance and its rank in the answer. */
export interface ReadStrip {
  strip: ScoredStrip;
  relevance: number;
  rank: number;
}

export interface RelevanceReading {
  /** What the answer says about the reading (shown to the user). */
  summary: AnswerRelevance;
  /** The read strips, best first ('verifier' readings only). */
  read: ReadStrip[];
}

/** A token of code or markup: it holds a character prose words do not ("gnuplot*ctrlq", "x=1"). */
const CODE_TOKEN = /[*=<>{}[\]_\\|$#~^]|\w\(|^[-/]/u;

/**
 * Ends like a sentence ('.', '!', '?', or ':' before a list), has four words or more, and at most
 * a third of its tokens are code: prose, not a heading, a cut-off line or code soup.
 */
export function isWholeSentence(text: string): boolean {
  const t = text.trim();
  const tokens = t.split(/\s+/u);
  return (
    /[.!?:]["”’)\]]*$/u.test(t) &&
    tokens.length >= 4 &&
    tokens.filter((w) => CODE_TOKEN.test(w)).length <= tokens.length / 3
  );
}

const byScore = (a: ScoredStrip, b: ScoredStrip) =>
  b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** The strips worth reading: whole sentences, no contents lines, the `pool` best by strip score. */
export function relevanceCandidates(all: ScoredStrip[], pool: number): ScoredStrip[] {
  const prose = all.filter((s) => s.text.trim() && !isContentsLine(s.text));
  const whole = prose.filter((s) => isWholeSentence(s.text));
  return [...(whole.length ? whole : prose)].sort(byScore).slice(0, pool);
}

const logit = (p: number) => {
  const q = Math.min(1 - 1e-6, Math.max(1e-6, p));
  return Math.log(q / (1 - q));
};

/**
 * Reads the best sentences of `all` against the question. Without a verifier (or with its
 * weights missing, damaged or of another version) the reading is 'llm-free' and decides nothing.
 * @throws AppError of the verifier's other faults (a cancel)
 */
export async function readRelevance(
  question: string,
  all: ScoredStrip[],
  verifier: PairVerifier | undefined,
  model: AnswerRelevanceModel = ANSWER_RELEVANCE,
): Promise<RelevanceReading> {
  const candidates = relevanceCandidates(all, model.pool);
  if (verifier && verifier.info.id !== model.verifier) {
    return llmFree(
      `The answer's relevance rule was fitted on ${model.verifier}, not ${verifier.info.id}.`,
    );
  }
  if (candidates.length === 0) return llmFree('No sentence was retrieved to read.');
  const verdicts = await judgeOrFallback(
    verifier,
    candidates.map((s) => ({ a: question, b: s.text })),
  );
  if (verdicts.source === 'llm-free') return llmFree(verdicts.reason);
  const read = candidates
    .map((strip, i) => {
      const relevance = verdicts.judgements[i]!.relevance;
      return {
        strip,
        relevance,
        rank: model.relevanceWeight * logit(relevance) + logit(strip.score),
      };
    })
    .sort((a, b) => b.rank - a.rank || byScore(a.strip, b.strip));
  const best = Math.max(...read.map((r) => r.relevance));
  return {
    read,
    summary: {
      source: 'verifier',
      verifier: model.verifier,
      read: read.length,
      best,
      threshold: model.addressed,
      addressed: best >= model.addressed,
    },
  };
}

function llmFree(reason: string): RelevanceReading {
  return { read: [], summary: { source: 'llm-free', reason } };
}

/** The answer strips of a 'verifier' reading: the best read one, then others that address it. */
export function answerStrips(
  reading: RelevanceReading,
  model: AnswerRelevanceModel = ANSWER_RELEVANCE,
): ScoredStrip[] {
  return reading.read
    .filter((r, i) => i === 0 || r.relevance >= model.addressed)
    .slice(0, model.answerMax)
    .map((r) => r.strip);
}
