// UI state of the Answer and Diagnostics views (zustand): the question, the answer being written
// (streamed text), the answer shown, the history list and the diagnostics. Data lives in the
// database worker (the answer history); this holds only what the views show.
import { create } from 'zustand';
import type {
  AnswerDiagnostics,
  AnswerSummary,
  StoredAnswer,
} from '../../workers/shared/answer-history-api';

export type AnswerModeChoice = 'auto' | 'extractive' | 'generated';

interface AnswerState {
  question: string;
  modeChoice: AnswerModeChoice;
  allowWeb: boolean;
  /** Multi-hop retrieval: further retrievals from the evidence while the evaluator is unsure (0: off). */
  maxHops: number;
  /** The request in flight (cancel uses it), or null. */
  asking: string | null;
  /** Text a language model has written so far (generated answers). */
  streamed: string;
  answer: StoredAnswer | null;
  /** A message about the question itself (empty, too long), shown under the box. */
  problem: string | null;
  history: AnswerSummary[];
  diagnostics: AnswerDiagnostics | null;
  /** The LLM backend the Answer view would use ('none': extractive only). */
  llmKind: string;
  setQuestion(question: string): void;
  setModeChoice(mode: AnswerModeChoice): void;
  setAllowWeb(allow: boolean): void;
  setMaxHops(hops: number): void;
  setAsking(id: string | null): void;
  setStreamed(text: string): void;
  setAnswer(answer: StoredAnswer | null): void;
  setProblem(problem: string | null): void;
  setHistory(history: AnswerSummary[]): void;
  setDiagnostics(d: AnswerDiagnostics): void;
  setLlmKind(kind: string): void;
}

export const useAnswerStore = create<AnswerState>((set) => ({
  question: '',
  modeChoice: 'auto',
  allowWeb: true,
  maxHops: 0,
  asking: null,
  streamed: '',
  answer: null,
  problem: null,
  history: [],
  diagnostics: null,
  llmKind: 'none',
  setQuestion: (question) => set({ question, problem: null }),
  setModeChoice: (modeChoice) => set({ modeChoice }),
  setAllowWeb: (allowWeb) => set({ allowWeb }),
  setMaxHops: (maxHops) => set({ maxHops }),
  setAsking: (asking) => set({ asking }),
  setStreamed: (streamed) => set({ streamed }),
  setAnswer: (answer) => set({ answer }),
  setProblem: (problem) => set({ problem }),
  setHistory: (history) => set({ history }),
  setDiagnostics: (diagnostics) => set({ diagnostics }),
  setLlmKind: (llmKind) => set({ llmKind }),
}));
