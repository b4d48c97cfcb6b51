// The sentence checker: how well the strips a sentence cites support it, from lexical overlap
// (IDF-weighted coverage of its terms, adjacent pairs, its numbers) and canonical cosine, combined
// by the fitted logistic model; labelled supported / partly / unsupported with the fitted
// thresholds. A sentence with no (valid) citation is unsupported. An LLM entailment score, when
// given, is blended in (h16b's tier). Lexical: it cannot see contradiction.
import type { SentenceSupport, SupportLabel } from '../shared/answer-api';
import { cosine } from '../research/vectors';
import { logisticScore, type FittedModel } from './fitted';
import { contentStems, coverage, idf, numbersOf, pairCoverage } from './text';
import type { AnswerEmbedFn, LexicalStats } from './types';

export const CHECKER_FEATURES = ['covW', 'covP', 'pairs', 'numbers', 'cos', 'exact'] as const;

export interface CheckInput {
  sentence: string;
  /** The texts of the strips it cites (empty: no citation). */
  evidence: string[];
}

export interface SentenceChecker {
  features(inputs: CheckInput[]): Promise<Array<Record<string, number> | null>>;
  check(inputs: CheckInput[], llm?: Array<number | null>): Promise<SentenceSupport[]>;
  label(score: number): SupportLabel;
}

export function createSentenceChecker(
  deps: { stats: LexicalStats; embed: AnswerEmbedFn },
  fitted: FittedModel,
): SentenceChecker {
  const label = (score: number): SupportLabel =>
    score >= fitted.checker.supported
      ? 'supported'
      : score < fitted.checker.unsupported
        ? 'unsupported'
        : 'partly';

  async function features(inputs: CheckInput[]) {
    const stems = [...new Set(inputs.flatMap((i) => contentStems(i.sentence)))];
    const { total, df } = await deps.stats.docFreq(stems);
    const weight = new Map(stems.map((s, i) => [s, idf(Math.max(1, total), df[i] ?? 0)]));
    // Embed only what lexical identity cannot settle (an extractive sentence is its own strip).
    const texts = new Map<string, number>();
    for (const i of inputs) {
      if (i.evidence.length === 0 || i.evidence.includes(i.sentence)) continue;
      for (const t of [i.sentence, ...i.evidence]) if (!texts.has(t)) texts.set(t, texts.size);
    }
    const vectors = texts.size ? await deps.embed([...texts.keys()], 'passage') : [];
    return inputs.map((i) => {
      if (i.evidence.length === 0) return null;
      const exact = i.evidence.includes(i.sentence) ? 1 : 0;
      const sStems = contentStems(i.sentence);
      const distinct = [...new Set(sStems)];
      const ws = distinct.map((s) => weight.get(s) ?? 0);
      const terms = { stems: distinct, weights: ws, total: ws.reduce((a, b) => a + b, 0) };
      const evStems = i.evidence.flatMap((e) => contentStems(e));
      const cov = coverage(terms, new Set(evStems));
      const nums = numbersOf(i.sentence);
      const evNums = new Set(i.evidence.flatMap(numbersOf));
      let cos = 1;
      if (!exact) {
        const sv = vectors[texts.get(i.sentence)!]!;
        cos = Math.max(...i.evidence.map((e) => cosine(sv, vectors[texts.get(e)!]!)));
      }
      return {
        covW: exact ? 1 : cov.weighted,
        covP: exact ? 1 : cov.plain,
        pairs: exact ? 1 : pairCoverage(sStems, evStems),
        numbers: nums.length ? nums.filter((n) => evNums.has(n)).length / nums.length : 1,
        cos,
        exact,
      };
    });
  }

  return {
    features,
    label,
    async check(inputs, llm) {
      const f = await features(inputs);
      return f.map((values, k) => {
        if (!values)
          return { label: 'unsupported', score: 0, components: {}, reason: 'no citation' };
        const lexical = logisticScore(fitted.checker, values);
        const g = llm?.[k];
        const score = g === null || g === undefined ? lexical : 0.5 * lexical + 0.5 * g;
        return {
          label: label(score),
          score,
          components: { ...values, lexical, ...(g != null ? { llm: g } : {}) },
        };
      });
    },
  };
}
