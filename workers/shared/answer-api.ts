// The answer contract (issue 16, CRAG-001..006): the question, the retrieval evaluator's scores
// and decision, knowledge strips with exact offsets, corrective actions, the answer's checked
// sentences and the CRAG metadata kept with every answer. Plain DTOs only (structured clone).
// Implementation: workers/answer/ (createAnswerService).
import type { SearchFilters } from './types';

/** CRAG-001: the evaluator's verdict on a query's retrieval. */
export type CragDecision = 'CORRECT' | 'AMBIGUOUS' | 'INCORRECT';

/** extractive: no LLM, deterministic (the offline default); generated: an LLM backend writes it. */
export type AnswerMode = 'extractive' | 'generated';

export interface AnswerRequest {
  /** The question; empty is refused (INVALID_QUERY); over MAX_QUESTION_CHARS is truncated with a notice. */
  question: string;
  mode?: AnswerMode;
  filters?: SearchFilters;
  /** A research project id, when the answer is asked inside one (workers/projects). */
  project?: string | null;
  /** Let the corrective step use web providers (when one is enabled). Default true. */
  allowWeb?: boolean;
  /** Let the evaluator and checker ask the LLM backend (when one is active). Default true. */
  allowLlm?: boolean;
  /**
   * Multi-hop retrieval: up to this many further retrievals (at most 3), each from the question
   * plus the terms the evidence so far brings, while the evaluator is not sure (stops at
   * CORRECT). Every hop is a `hop` corrective action. Default 0 (off).
   */
  maxHops?: number;
}

export const MAX_QUESTION_CHARS = 2000;

/** Named feature values of a passage (keyword overlap, cosine, ranks, margins, ...), for display. */
export type ScoreComponents = Record<string, number>;

/** CRAG-001 per passage: a retrieved document's best chunk, scored. */
export interface PassageScore {
  documentId: number;
  chunkId: number;
  path: string;
  title: string;
  /** 1-based rank in the retrieval (distinct documents). */
  rank: number;
  /** P(relevant) from the fitted LLM-free logistic model, 0..1. */
  score: number;
  /** The LLM "relevant: yes/no" grade when a backend graded it (0..1), else absent. */
  llmScore?: number;
  /** The score the decision used (LLM-free, or blended with llmScore). */
  finalScore: number;
  components: ScoreComponents;
}

/** Fitted on SciFact train (workers/fitted/evaluator-<model>.json); the per-query decision rule. */
export interface EvaluatorThresholds {
  /** Query score >= upper -> CORRECT. */
  upper: number;
  /** Query score < lower -> INCORRECT; between -> AMBIGUOUS. */
  lower: number;
  /** Passages with score >= passage are "relevant" (passage-level metrics, kept passages). */
  passage: number;
  /**
   * CORRECT also needs the deciding passage to agree with the question in meaning or in words:
   * its canonical cosine at least `correctMinCos`, or its IDF-weighted coverage of the
   * question's terms (`covW`) at least `correctMinCovW`; else AMBIGUOUS. Both floors are train
   * percentiles, the highest at which the pair holds back at most 1% of train's right CORRECT
   * decisions. Guards libraries where rank carries no evidence (a handful of documents: the only
   * keyword hit, on one shared word, is first in both lists). Absent: no guard (vector-free
   * variant, older fits).
   */
  correctMinCos?: number;
  correctMinCovW?: number;
}

export interface EvaluatorResult {
  decision: CragDecision;
  /** The query score the thresholds were applied to (best passage score of the top few). */
  queryScore: number;
  passages: PassageScore[];
  thresholds: EvaluatorThresholds;
  /** Which fitted model produced the scores (embedding model id + fit date). */
  fittedModel: string;
  /** LLM grading, when it ran. */
  llm?: { backend: string; ms: number; graded: number; failed: number };
}

/** Where a strip stands: the library document (and its characters) or the web result. */
export interface StripLocation {
  source: 'library' | 'web';
  documentId: number | null;
  chunkId: number | null;
  path: string;
  title: string;
  /** UTF-16 offsets into the document's stored text: `document.text.slice(start, end) === text`. */
  start: number;
  end: number;
  /** Web strips: the result URL and its credibility tier. */
  url?: string;
  tier?: string;
}

/** CRAG-003/004: a knowledge strip (1-2 sentences or a clause of a long sentence). */
export interface Strip extends StripLocation {
  /** Stable within an answer: `d<documentId>:<start>-<end>` for library strips, `w<n>` for web. */
  id: string;
  text: string;
  /** Relevance to the query, 0..1 (fitted). */
  score: number;
}

export type CorrectiveKind =
  | 'none' // CORRECT: library strips as they are
  | 'refine' // strips kept above the fitted threshold
  | 'expansion' // INCORRECT: RM3 / WordNet expanded second retrieval
  | 'rerank' // INCORRECT: the passages reordered by the evaluator's passage score
  | 'web' // INCORRECT/AMBIGUOUS: web search through an enabled provider
  | 'hop' // multi-hop: a further retrieval from the question plus the evidence's bridge terms
  | 'not-found' // INCORRECT and nothing helped: "the library does not seem to hold this"
  | 'relevance'; // the pair verifier's reading of the best sentences: does any address the question

/** One corrective step, recorded in the plan and the answer's metadata. */
export interface CorrectiveAction {
  kind: CorrectiveKind;
  /** ok: ran; skipped: not applicable or disabled (note says why); failed: error, answer stands. */
  status: 'ok' | 'skipped' | 'failed';
  note: string;
  /** The expanded query or web query, when there was one. */
  query?: string;
  /** Expansion technique used (rm3 / wordnet), when kind = expansion. */
  technique?: string;
  /** Results it brought (document or web result count). */
  results?: number;
  /** Whether its results replaced/joined the context. */
  applied: boolean;
  ms: number;
  errorCode?: string;
}

export type SupportLabel = 'supported' | 'partly' | 'unsupported';

/** The reason a verbatim quote's check gives: it confirms the quote, not that it answers. */
export const QUOTED_REASON =
  'quoted word for word from the passage it cites: the check confirms the quote, not that it answers the question';

export interface SentenceSupport {
  label: SupportLabel;
  /** 0..1 from the fitted checker (lexical overlap + canonical cosine [+ LLM entailment]). */
  score: number;
  components: ScoreComponents;
  /** Why, in words (e.g. "no citation", "cites a strip not in the context"). */
  reason?: string;
}

export interface AnswerSentence {
  text: string;
  /** Citation numbers [n] as written, in order (1-based into Answer.references). */
  citations: number[];
  /** The strips those numbers point to (ids dropped when not in the context). */
  stripIds: string[];
  support: SentenceSupport;
}

/** A cited strip's place, numbered as the answer cites it. */
export interface AnswerReference extends StripLocation {
  n: number;
  stripId: string;
  /** The cited document was deleted since the answer was made. */
  missing?: boolean;
  /** The PDF pages the cited text is on (absent for documents without pages). */
  pages?: { first: number; last: number };
  /** The outline section path the cited text starts in (PDFs with bookmarks). */
  section?: readonly string[];
}

/** Named pipeline steps, timed. */
export type AnswerStepKind =
  | 'retrieve'
  | 'evaluate'
  | 'correct'
  | 'refine'
  | 'answer'
  | 'check'
  | 'llm-grade'
  | 'web'
  | 'hop'
  | 'generate'
  | 'relevance';

export interface AnswerStep {
  kind: AnswerStepKind;
  ms: number;
  note?: string;
}

export interface CragMetadata {
  decision: CragDecision;
  queryScore: number;
  evaluator: EvaluatorResult;
  actions: CorrectiveAction[];
  webUsed: boolean;
  llmUsed: boolean;
  /** Tokens (approximate) before and after refinement. */
  retrievedTokens: number;
  keptTokens: number;
  steps: AnswerStep[];
  totalMs: number;
  /** The active embedding model. */
  modelId: string;
  /** The pair verifier's reading of the best sentences (absent on answers made before it). */
  relevance?: AnswerRelevance;
}

/**
 * Whether the best retrieved sentences address the question, as the pair verifier read them
 * (workers/answer/relevance.ts), or why it did not read them ('llm-free': the retrieval's own
 * scores decided).
 */
export type AnswerRelevance =
  | {
      source: 'verifier';
      /** The verifier bundle's id. */
      verifier: string;
      /** Sentences read. */
      read: number;
      /** The best sentence's relevance, 0..1. */
      best: number;
      /** The fitted relevance at which a sentence addresses the question. */
      threshold: number;
      addressed: boolean;
    }
  | { source: 'llm-free'; reason: string };

/** A relevance reading in words: what was read, by what, and how sure (the UI and the metadata). */
export function describeReading(r: AnswerRelevance): string {
  if (r.source === 'llm-free')
    return `Relevance judged from the retrieval's scores, not by Sift's pair verifier: ${r.reason}`;
  // Three decimals: the fitted threshold sits near 1 (0.972), two would blur the comparison.
  const best = r.best.toFixed(3);
  const needs = r.threshold.toFixed(3);
  return r.addressed
    ? `Sift's pair verifier read the ${r.read} best sentences: the best addresses the question (relevance ${best}, needs ${needs}).`
    : `Sift's pair verifier read the ${r.read} best sentences: none addresses the question (best relevance ${best}, needs ${needs}).`;
}

export interface Answer {
  question: string;
  mode: AnswerMode;
  sentences: AnswerSentence[];
  references: AnswerReference[];
  /** The context strips (library and web), in source order. */
  strips: Strip[];
  /** INCORRECT and nothing helped: the library does not seem to hold this. */
  notFound: boolean;
  /** The closest passages, shown with a not-found answer. */
  closest: PassageScore[];
  crag: CragMetadata;
  /** ms since epoch (injected clock). */
  createdAt: number;
  /** A generated answer cut short (backend died / cancelled): kept and marked. */
  partial?: boolean;
  /** User-facing notices (question truncated, web failed, ...). */
  notices: string[];
}

/** The answer API exposed to the UI (composed in a worker; implementation workers/answer/). */
export interface AnswerApi {
  /** @throws AppError INVALID_QUERY for an empty question, ABORTED when cancelled. */
  ask(request: AnswerRequest, requestId?: string): Promise<Answer>;
  cancelAnswer(requestId: string): Promise<void>;
}

/** A score in words, beside the number, so a reader need not know the fitted cut-offs. */
export type RelevanceBand = 'high' | 'medium' | 'low';

/**
 * A query score's band: high at or above `upper` (CORRECT), low below `lower` (INCORRECT),
 * medium between (AMBIGUOUS).
 */
export function queryBand(
  score: number,
  t: EvaluatorThresholds,
  decision?: CragDecision,
): RelevanceBand {
  // a CORRECT held at AMBIGUOUS by the floors (correctMinCos / correctMinCovW) reads as medium
  if (decision === 'AMBIGUOUS') return 'medium';
  return score >= t.upper ? 'high' : score < t.lower ? 'low' : 'medium';
}

/**
 * A passage score's band. The score is the fitted P(relevant): high when relevant is the more
 * likely (>= 0.5, or the passage threshold if that is higher), medium when it still counts as
 * relevant (>= `passage`, fitted for balanced accuracy and F1), low below.
 */
export function passageBand(score: number, t: EvaluatorThresholds): RelevanceBand {
  return score >= Math.max(0.5, t.passage) ? 'high' : score >= t.passage ? 'medium' : 'low';
}
