// Test helper: a complete Answer DTO with CRAG metadata, for the history, diagnostics and export
// tests (Node only). Override any field; `cite` ties sentences to library documents.
import type {
  Answer,
  AnswerReference,
  CorrectiveAction,
  CragDecision,
  SupportLabel,
} from './answer-api';

export interface SampleOptions {
  question?: string;
  decision?: CragDecision;
  mode?: Answer['mode'];
  /** Document ids the references point to (one reference each). */
  documents?: number[];
  labels?: SupportLabel[];
  actions?: CorrectiveAction[];
  webUsed?: boolean;
  totalMs?: number;
  createdAt?: number;
  partial?: boolean;
  notFound?: boolean;
  steps?: Answer['crag']['steps'];
}

export function sampleAnswer(o: SampleOptions = {}): Answer {
  const docs = o.documents ?? [1];
  const references: AnswerReference[] = docs.map((documentId, i) => ({
    n: i + 1,
    stripId: `d${documentId}:0-20`,
    source: 'library',
    documentId,
    chunkId: documentId * 10,
    path: `notes/doc-${documentId}.md`,
    title: `Doc ${documentId}`,
    start: 0,
    end: 20,
  }));
  const labels = o.labels ?? ['supported'];
  const decision = o.decision ?? 'CORRECT';
  const totalMs = o.totalMs ?? 40;
  return {
    question: o.question ?? 'Where do pelicans nest?',
    mode: o.mode ?? 'extractive',
    sentences: labels.map((label, i) => ({
      text: `Sentence ${i + 1}.`,
      citations: references.length ? [(i % references.length) + 1] : [],
      stripIds: references.length ? [references[i % references.length]!.stripId] : [],
      support: {
        label,
        score: label === 'supported' ? 0.9 : label === 'partly' ? 0.5 : 0.1,
        components: { covW: 0.8 },
      },
    })),
    references,
    strips: [],
    notFound: o.notFound ?? false,
    closest: [],
    crag: {
      decision,
      queryScore: decision === 'CORRECT' ? 0.8 : decision === 'AMBIGUOUS' ? 0.4 : 0.1,
      evaluator: {
        decision,
        queryScore: 0.8,
        passages: [],
        thresholds: { upper: 0.5, lower: 0.2, passage: 0.5 },
        fittedModel: 'use-lite',
      },
      actions: o.actions ?? [],
      webUsed: o.webUsed ?? false,
      llmUsed: o.mode === 'generated',
      retrievedTokens: 400,
      keptTokens: 120,
      steps: o.steps ?? [
        { kind: 'retrieve', ms: totalMs / 2 },
        { kind: 'evaluate', ms: totalMs / 4 },
        { kind: 'answer', ms: totalMs / 4 },
      ],
      totalMs,
      modelId: 'use-lite',
    },
    createdAt: o.createdAt ?? 1_700_000_000_000,
    ...(o.partial ? { partial: true } : {}),
    notices: [],
  };
}
