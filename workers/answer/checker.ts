// The sentence checker: how well the strips a sentence cites support it, from lexical overlap
// (IDF-weighted coverage of its terms, adjacent pairs, its numbers) and canonical cosine, combined
// by the fitted logistic model; labelled supported / partly / unsupported with the fitted
// thresholds. A sentence with no (valid) citation is unsupported. An LLM entailment score, when
// given, is blended in (h16b's tier). Lexical: it cannot see contradiction. The model and its
// thresholds come from checker-model.ts (fitted on train claim pairs, bench/eval/checker-fit.ts);
// every feature is vocabulary-free (IDF from the library's own counts, shares, cosines).
import type { SentenceSupport, SupportLabel } from '../shared/answer-api';
import { cosine } from '../research/vectors';
import { checkerModelFor } from './checker-model';
import { logisticScore, type FittedModel } from './fitted';
import { contentStems, coverage, idf, numbersOf, pairCoverage } from './text';
import type { AnswerEmbedFn, LexicalStats } from './types';

export const CHECKER_FEATURES = [
  'covW',
  'covP',
  'pairs',
  'numbers',
  'cos',
  'exact',
  // sentence level (the best single cited strip) against strip level (all of them together)
  'cosMean',
  'covBest',
  'pairsBest',
  // the rarest claim term the evidence lacks (its IDF over the claim's rarest), and how many
  'missMax',
  'missRare',
  // how much of the best strip is about the claim at all, and lengths
  'precBest',
  'sWords',
  'evWords',
] as const;

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
  const model = checkerModelFor(fitted);
  const label = (score: number): SupportLabel =>
    score >= model.supported
      ? 'supported'
      : score < model.unsupported
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
      let cosMean = 1;
      if (!exact) {
        const sv = vectors[texts.get(i.sentence)!]!;
        const cs = i.evidence.map((e) => cosine(sv, vectors[texts.get(e)!]!));
        cos = Math.max(...cs);
        cosMean = cs.reduce((a, b) => a + b, 0) / cs.length;
      }
      const perStrip = i.evidence.map((e) => contentStems(e));
      const evSet = new Set(evStems);
      const maxW = Math.max(0, ...ws);
      const missing = ws.filter((_, k) => !evSet.has(distinct[k]!));
      const rareCut = [...ws].sort((a, b) => b - a)[Math.min(2, ws.length - 1)] ?? 0;
      const claimSet = new Set(distinct);
      return {
        covW: exact ? 1 : cov.weighted,
        covP: exact ? 1 : cov.plain,
        pairs: exact ? 1 : pairCoverage(sStems, evStems),
        numbers: nums.length ? nums.filter((n) => evNums.has(n)).length / nums.length : 1,
        cos,
        exact,
        cosMean,
        covBest: Math.max(...perStrip.map((p) => coverage(terms, new Set(p)).weighted)),
        pairsBest: Math.max(...perStrip.map((p) => pairCoverage(sStems, p))),
        missMax: maxW > 0 && missing.length ? Math.max(...missing) / maxW : 0,
        missRare: missing.filter((w) => w >= rareCut && w > 0).length,
        precBest: Math.max(
          ...perStrip.map((p) => {
            const d = new Set(p);
            return d.size ? [...d].filter((x) => claimSet.has(x)).length / d.size : 0;
          }),
        ),
        sWords: Math.log1p(distinct.length),
        evWords: Math.log1p(evStems.length),
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
        // A sentence copied verbatim from the strip it cites is supported by construction (the
        // extractive answer); the fitted model never saw such pairs.
        const lexical = values.exact ? 1 : logisticScore(model, values);
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
