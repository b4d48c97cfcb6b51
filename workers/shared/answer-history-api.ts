// The answer history and diagnostics contract (issue 16): answers kept in the library with their
// CRAG metadata, listed, exported; the diagnostics over the answers asked on this device; and the
// answer calls the database worker adds to its API (streamed tokens, cancel, web link).
// Plain DTOs only.
import type { Answer, AnswerRequest, CragDecision, SupportLabel } from './answer-api';

/** One row of the history list (the full answer is fetched on demand). */
export interface AnswerSummary {
  id: number;
  createdAt: number;
  question: string;
  mode: Answer['mode'];
  decision: CragDecision;
  webUsed: boolean;
  partial: boolean;
  notFound: boolean;
  totalMs: number;
  /** Sentences per support label. */
  labels: Record<SupportLabel, number>;
}

/** A kept answer; `id` is its key in the history. */
export interface StoredAnswer extends Answer {
  id: number;
  /**
   * A generated answer cut short (backend died, or Stop while it wrote) comes with the
   * extractive answer to the same question, shown beside the partial one.
   */
  extractive?: Answer;
}

/** The version of the answers export (`exportAnswers`) and of the stored JSON. */
export const ANSWER_EXPORT_FORMAT = 'sift-answers';
export const ANSWER_EXPORT_VERSION = 1;

export interface LatencyStats {
  count: number;
  p50: number;
  p95: number;
}

/** Figures over the answers kept on this device (issue 16, item 5). */
export interface AnswerDiagnostics {
  answers: number;
  decisions: Record<CragDecision, number>;
  /** Share of answers where a corrective action (expansion or web) changed the context. */
  correctionRate: number;
  /** Share of answers where the web step ran (whatever its outcome). */
  webTriggerRate: number;
  /** Share of answers where the web step ran and its strips were used. */
  webUsedRate: number;
  /** Web steps that failed because a provider's circuit breaker was open. */
  breakerTrips: number;
  /** Web steps that failed for any reason (the library answer stood). */
  webFailures: number;
  notFoundRate: number;
  partialAnswers: number;
  /** Total answer latency per path (decision + corrective action + mode). */
  latencyByPath: Record<string, LatencyStats>;
  /** Latency per pipeline step over all answers. */
  latencyByStep: Record<string, LatencyStats>;
  /** Sentences per support label over all answers. */
  labels: Record<SupportLabel, number>;
  since: number | null;
}

/** What the database worker adds for answers (beside `LibraryWorkerApi`). */
export interface AnswerWorkerApi {
  /**
   * Answers a question (retrieve, evaluate, correct, refine, answer, check), keeps it in the
   * history and returns it with its id. `onToken` (a Comlink proxy) receives the generated text
   * so far while an LLM writes it.
   * @throws AppError INVALID_QUERY (empty question), ABORTED (cancelAnswer)
   */
  ask(
    request: AnswerRequest,
    requestId?: string,
    onToken?: (textSoFar: string) => void,
  ): Promise<StoredAnswer>;
  /** Stops an answer: while a language model writes, only the writing (the partial text is kept). */
  cancelAnswer(requestId: string): Promise<void>;
  /** Newest first. */
  listAnswers(limit?: number): Promise<AnswerSummary[]>;
  /** References to documents deleted since are marked `missing`. @throws AppError NOT_FOUND */
  getAnswer(id: number): Promise<StoredAnswer>;
  deleteAnswer(id: number): Promise<void>;
  /** Every kept answer with its CRAG metadata, as JSON text (format `sift-answers`, version 1). */
  exportAnswers(): Promise<string>;
  answerDiagnostics(): Promise<AnswerDiagnostics>;
  /** Connects the web worker (a port from `Comlink.createEndpoint`) for the corrective web step. */
  connectWeb(port: MessagePort): Promise<void>;
}
