// The sentence checker: how well the strips a sentence cites support it, from lexical overlap
// (IDF-weighted coverage of its terms, adjacent pairs, its numbers) and canonical cosine, combined
// by the fitted logistic model; labelled supported / partly / unsupported with the fitted
// thresholds, and on the cited strips' document context (strip-context.ts: title and the text just
// around each strip, for the sentences that lean on their abstract); the strip stays what is cited.
// A sentence with no (valid) citation is unsupported. An LLM entailment score, when
// given, is blended in (h16b's tier). Lexical: it cannot see contradiction. The model and its
// thresholds come from checker-model.ts (fitted on train claim pairs, ml/checker-fit.ts);
// every feature is vocabulary-free (IDF from the library's own counts, shares, cosines).
import { QUOTED_REASON } from '../shared/answer-api';
import type { SentenceSupport, SupportLabel } from '../shared/answer-api';
import { cosine } from '../query-plan/vectors';
import { CUE_FEATURES, stanceFeatures, textView } from '../text-features/stance-features';
import { assertFittedFeatures } from '../shared/fitted-features';
import { checkerFileFor, checkerModelFor } from './checker-model';
import { logisticScore, type FittedModel } from './fitted';
import { contextText, type StripContext } from './strip-context';
import { contentStems, coverage, idf, numbersOf, pairCoverage, type WeightedTerms } from './text';
import type { AnswerEmbedFn, LexicalStats } from './types';

/**
 * The fitted model's features. All are taken on the best single cited strip (the one covering most
 * of the sentence's term weight), never on the union of the cited strips: in the train pairs a
 * right pair cites one or two rationale sentences and a negative two strips, so any feature that
 * moves with the number or length of cited strips (union against best coverage, mean against max
 * cosine, evidence length) lets the fit tell the pair kinds apart by construction, not by support.
 * The union features (`covW`, `covP`, `pairs`, `numbers`) are still computed for older fits.
 */
export const CHECKER_FEATURES = [
  'cos',
  'covBest',
  'covPBest',
  'pairsBest',
  'numbersBest',
  // the rarest sentence term the strip lacks (its IDF over the sentence's rarest), and how many
  // of the sentence's three rarest terms it lacks
  'missMax',
  'missRare',
  // how much of the strip's own vocabulary is about the sentence at all
  'precBest',
] as const;

/**
 * Features of the cited strips' document context (strip-context.ts: title, CONTEXT_CHARS either
 * side), each the best over the cited strips. The strip is still what is cited: a sentence whose
 * words sit only in the context scores on these alone, its strip features low; words beyond the
 * window earn nothing. Without a context (web strips, older callers) each equals its strip-only
 * counterpart (title '' and no window).
 */
export const CONTEXT_FEATURES = [
  // IDF-weighted coverage of the sentence's content words by strip + title, and by strip + title +
  // window; plain coverage of the latter
  'ctxTitleCov',
  'ctxCov',
  'ctxCovP',
  // of the sentence's three rarest terms, how many the best context lacks
  'ctxMissRare',
  // adjacent-pair coverage within the best context
  'ctxPairs',
  // canonical cosine of the sentence with title + window (embedded only when the model uses it)
  'ctxCos',
] as const;

/**
 * Every named feature `features()` computes, which a fitted checker may read: the strip features,
 * the context features, the union features of older fits and the stance cues (`st_<cue>`; the
 * dense `st_d<k>` interaction block is not offered to the fit).
 */
export const CHECKER_INPUTS: readonly string[] = [
  ...CHECKER_FEATURES,
  ...CONTEXT_FEATURES,
  'covW',
  'covP',
  'pairs',
  'numbers',
  ...CUE_FEATURES.map((f) => `st_${f}`),
];

export interface CheckInput {
  sentence: string;
  /** The texts of the strips it cites (empty: no citation). */
  evidence: string[];
  /** Each cited strip's document context, aligned with `evidence` (absent / null: unknown). */
  context?: Array<StripContext | null>;
}

export interface SentenceChecker {
  features(inputs: CheckInput[]): Promise<Array<Record<string, number> | null>>;
  check(inputs: CheckInput[], llm?: Array<number | null>): Promise<SentenceSupport[]>;
  label(score: number): SupportLabel;
}

/** The support label of a check score under `fitted`'s checker thresholds (no data is read). */
export function supportLabelFor(fitted: FittedModel): (score: number) => SupportLabel {
  const model = checkerModelFor(fitted);
  return (score) =>
    score >= model.supported ? 'supported' : score < model.unsupported ? 'unsupported' : 'partly';
}

export function createSentenceChecker(
  deps: {
    stats: LexicalStats;
    embed: AnswerEmbedFn;
    /** Embed the context windows for `ctxCos` (default: only when the fitted model reads it). */
    contextCosine?: boolean;
  },
  fitted: FittedModel,
): SentenceChecker {
  const model = checkerModelFor(fitted);
  const { file, step } = checkerFileFor(fitted);
  assertFittedFeatures(model, CHECKER_INPUTS, file, step);
  const embedContext = deps.contextCosine ?? model.features.includes('ctxCos');
  const ctxOf = (i: CheckInput, k: number) => {
    const c = i.context?.[k];
    return c ? contextText(i.evidence[k]!, c) : null;
  };
  const label = supportLabelFor(fitted);

  async function features(inputs: CheckInput[]) {
    const stems = [...new Set(inputs.flatMap((i) => contentStems(i.sentence)))];
    const { total, df } = await deps.stats.docFreq(stems);
    const weight = new Map(stems.map((s, i) => [s, idf(Math.max(1, total), df[i] ?? 0)]));
    // Embed only what lexical identity cannot settle (an extractive sentence is its own strip).
    const texts = new Map<string, number>();
    for (const i of inputs) {
      if (i.evidence.length === 0 || i.evidence.includes(i.sentence)) continue;
      for (const t of [i.sentence, ...i.evidence]) if (!texts.has(t)) texts.set(t, texts.size);
      if (embedContext)
        i.evidence.forEach((_, k) => {
          const t = ctxOf(i, k);
          if (t && !texts.has(t)) texts.set(t, texts.size);
        });
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
      const stance: Record<string, number> = {};
      if (!exact) {
        const sv = vectors[texts.get(i.sentence)!]!;
        let near = i.evidence[0]!;
        cos = -2;
        for (const e of i.evidence) {
          const c = cosine(sv, vectors[texts.get(e)!]!);
          if (c > cos) [cos, near] = [c, e];
        }
        // The claim/sentence pair features of the stance model (workers/projects), on the
        // nearest cited strip: cues, then the embeddings' interaction (u*v, |u-v|).
        const st = stanceFeatures(
          textView(i.sentence, sv),
          textView(near, vectors[texts.get(near)!]!),
          true,
        );
        st.forEach((v, k) => {
          stance[
            k < CUE_FEATURES.length ? `st_${CUE_FEATURES[k]}` : `st_d${k - CUE_FEATURES.length}`
          ] = v;
        });
      }
      // The best single strip: most sentence term weight covered (ties: the first cited).
      let best = { set: new Set<string>(), stems: [] as string[], text: '', w: -1 };
      for (const e of i.evidence) {
        const stems = contentStems(e);
        const set = new Set(stems);
        const w = coverage(terms, set).weighted;
        if (w > best.w) best = { set, stems, text: e, w };
      }
      const bestCov = coverage(terms, best.set);
      const maxW = Math.max(0, ...ws);
      const missing = ws.filter((_, k) => !best.set.has(distinct[k]!));
      const rareCut = [...ws].sort((x, y) => y - x)[Math.min(2, ws.length - 1)] ?? 0;
      const claimSet = new Set(distinct);
      const bestNums = new Set(numbersOf(best.text));
      const vectorOf = (t: string) => vectors[texts.get(t) ?? -1];
      const ctxCos = !exact && embedContext ? contextCosine(i, cos, vectorOf) : cos;
      const context = exact
        ? { ctxTitleCov: 1, ctxCov: 1, ctxCovP: 1, ctxMissRare: 0, ctxPairs: 1, ctxCos }
        : contextFeatures(i, terms, sStems, rareCut, ctxCos);
      return {
        ...context,
        covW: exact ? 1 : cov.weighted,
        covP: exact ? 1 : cov.plain,
        pairs: exact ? 1 : pairCoverage(sStems, evStems),
        numbers: nums.length ? nums.filter((n) => evNums.has(n)).length / nums.length : 1,
        cos,
        exact,
        covBest: exact ? 1 : bestCov.weighted,
        covPBest: exact ? 1 : bestCov.plain,
        pairsBest: exact ? 1 : pairCoverage(sStems, best.stems),
        numbersBest: nums.length ? nums.filter((n) => bestNums.has(n)).length / nums.length : 1,
        missMax: maxW > 0 && missing.length ? Math.max(...missing) / maxW : 0,
        missRare: missing.filter((w) => w >= rareCut && w > 0).length,
        ...stance,
        precBest: best.set.size
          ? [...best.set].filter((x) => claimSet.has(x)).length / best.set.size
          : 0,
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
        // extractive answer); the fitted model never saw such pairs. Below the fitted cosine gate
        // the nearest cited strip is off topic: unsupported (score 0) whatever the lexical model.
        const gated = !values.exact && model.gate !== undefined && values.cos < model.gate;
        const lexical = values.exact ? 1 : gated ? 0 : logisticScore(model, values);
        const g = llm?.[k];
        const score = g === null || g === undefined ? lexical : 0.5 * lexical + 0.5 * g;
        return {
          label: label(score),
          score,
          components: { ...values, lexical, ...(g != null ? { llm: g } : {}) },
          ...(gated
            ? { reason: 'the cited strip is off topic (cosine below the fitted gate)' }
            : values.exact
              ? { reason: QUOTED_REASON }
              : {}),
        };
      });
    },
  };
}

/**
 * CONTEXT_FEATURES of a sentence that is not its own strip: over the cited strips, the best by
 * coverage of strip + title + window (and the best strip + title coverage); `ctxCos` as given.
 */
function contextFeatures(
  i: CheckInput,
  terms: WeightedTerms,
  sStems: string[],
  rareCut: number,
  ctxCos: number,
) {
  let ctx = { cov: -1, covP: 0, stems: [] as string[], set: new Set<string>() };
  let titleCov = 0;
  i.evidence.forEach((e, k) => {
    const c = i.context?.[k];
    const stripStems = contentStems(e);
    const titleStems = c ? contentStems(c.title) : [];
    const stems = c
      ? [...contentStems(c.before), ...stripStems, ...contentStems(c.after)]
      : stripStems;
    const set = new Set([...stems, ...titleStems]);
    const cv = coverage(terms, set);
    titleCov = Math.max(
      titleCov,
      coverage(terms, new Set([...stripStems, ...titleStems])).weighted,
    );
    if (cv.weighted > ctx.cov)
      ctx = { cov: cv.weighted, covP: cv.plain, stems: [...titleStems, ...stems], set };
  });
  return {
    ctxTitleCov: titleCov,
    ctxCov: ctx.cov,
    ctxCovP: ctx.covP,
    ctxMissRare: terms.weights.filter(
      (w, k) => w >= rareCut && w > 0 && !ctx.set.has(terms.stems[k]!),
    ).length,
    ctxPairs: pairCoverage(sStems, ctx.stems),
    ctxCos,
  };
}

/** The best cosine of the sentence with a cited strip's context (title + window), at least `cos`. */
function contextCosine(
  i: CheckInput,
  cos: number,
  vectorOf: (text: string) => Int16Array | undefined,
): number {
  const sv = vectorOf(i.sentence)!;
  let best = cos;
  i.evidence.forEach((e, k) => {
    const c = i.context?.[k];
    const v = c ? vectorOf(contextText(e, c)) : undefined;
    if (v) best = Math.max(best, cosine(sv, v));
  });
  return best;
}
