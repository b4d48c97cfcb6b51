// Parsing a generated answer: sentences (Intl.Segmenter), their [n] citations mapped to the
// context strips the prompt numbered 1..N; numbers outside the context are dropped (and the
// sentence, if left without one, is unsupported). References renumbered in order of first use.
import type { AnswerReference, Strip } from '../shared/answer-api';
import { referenceFor } from './extractive';
import { sentences as splitSentences } from './text';

export function parseGenerated(
  text: string,
  context: Strip[],
): {
  sentences: Array<{ text: string; stripIds: string[]; citations: number[] }>;
  references: AnswerReference[];
} {
  const refs = new Map<string, number>();
  const references: AnswerReference[] = [];
  const out = splitSentences(text).map((s) => {
    const ids: string[] = [];
    for (const m of s.text.matchAll(/\[(\d+(?:\s*,\s*\d+)*)\]/g))
      for (const n of m[1]!.split(',').map((x) => Number(x.trim()))) {
        const strip = context[n - 1];
        if (strip && !ids.includes(strip.id)) ids.push(strip.id);
      }
    const citations = ids.map((id) => {
      let n = refs.get(id);
      if (n === undefined) {
        n = refs.size + 1;
        refs.set(id, n);
        references.push(
          referenceFor(
            context.find((c) => c.id === id)!,
            n,
          ),
        );
      }
      return n;
    });
    const clean = s.text.replace(/\s*\[\d+(?:\s*,\s*\d+)*\]/g, '').trim();
    return { text: clean, stripIds: ids, citations };
  });
  return { sentences: out.filter((s) => s.text.length > 0), references };
}
