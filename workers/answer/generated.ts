// Parsing a generated answer: sentences (Intl.Segmenter), their [n] citations mapped to the
// context strips the prompt numbered 1..N; numbers outside the context are dropped (and the
// sentence, if left without one, is unsupported). References renumbered in order of first use.
import type { AnswerReference, Strip } from '../shared/answer-api';
import { referenceFor } from './extractive';
import { citedDraft, parseCitations } from './parse-citations';

export function parseGenerated(
  text: string,
  context: Strip[],
): {
  sentences: Array<{ text: string; stripIds: string[]; citations: number[] }>;
  references: AnswerReference[];
} {
  // One citation reader for every generated answer (parse-citations.ts): a marker written after
  // the full stop ("... fever. [1]") belongs to the sentence before it, not to the next one.
  const draft = citedDraft(parseCitations(text, context.length), context, referenceFor);
  const sentences = draft.sentences
    .filter((s) => s.text.trim().length > 0)
    .map((s) => ({ text: s.text, stripIds: s.stripIds, citations: s.citations }));
  return { sentences, references: draft.references };
}
