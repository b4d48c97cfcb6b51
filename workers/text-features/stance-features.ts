// The stance model's input for one (claim, sentence) pair: cue features (similarity, overlap,
// numbers, negation, null results, direction agreement, antonyms, negation and direction next to
// the shared words, how the sentence reads: finding or background) followed by the dense
// interaction of the two canonical embeddings (u*v and |u-v|). Version `FEATURES_VERSION` is stored in every fitted
// model, so a model fitted on other features is refused. Pure.
import { STOPWORDS, tokenize } from '../query-plan/text';
import {
  antonymKey,
  antonymsOf,
  contentStems,
  directionOf,
  isNegation,
  numbers,
  prefixNegationPairs,
  reportCues,
  stem,
  textCues,
  type ReportCues,
  type TextCues,
} from './stance-cues';

export const FEATURES_VERSION = 'stance-features/2';

/** Names of the cue features, in order (the dense block follows them). */
export const CUE_FEATURES = [
  'cosine',
  'claim_overlap',
  'sentence_overlap',
  'jaccard',
  'bigram_overlap',
  'claim_has_number',
  'number_match',
  'number_mismatch',
  'claim_negated',
  'sentence_negated',
  'negation_xor',
  'sentence_null_result',
  'null_result_vs_claim_negation',
  'claim_direction',
  'sentence_direction',
  'direction_agree',
  'direction_disagree',
  'claim_directional',
  'sentence_directional',
  'sentence_length',
  'claim_length',
  'claim_only_negation',
  'sentence_only_negation',
  'claim_only_increase',
  'claim_only_decrease',
  'sentence_only_increase',
  'sentence_only_decrease',
  'crossed_direction',
  // stance-features/2
  'antonym_pairs',
  'antonym_claim_only',
  'prefix_negation',
  'antonym_or_prefix',
  'aligned_negation_mismatch',
  'sentence_contrast',
  'claim_absolute',
  'sentence_absolute',
  'sentence_result_heading',
  'sentence_background_heading',
  'sentence_p_value',
  'sentence_effect_statistic',
  'sentence_percent',
  'sentence_finding_word',
  'sentence_background_word',
  'sentence_we',
  'sentence_question',
  'local_direction_agree',
  'local_direction_disagree',
  'local_disagree_more',
  'local_agree_more',
] as const;

/** What the features need of a text, computed once per claim and once per sentence. */
export interface TextView {
  vector: Int16Array;
  stems: string[];
  numbers: string[];
  cues: TextCues;
  /** Every token in order (stop words kept) and its stem, for the positional cues. */
  tokens: string[];
  tokenStems: string[];
  report: ReportCues;
}

export function textView(text: string, vector: Int16Array): TextView {
  const tokens = tokenize(text);
  return {
    vector,
    stems: contentStems(text),
    numbers: numbers(text),
    cues: textCues(text),
    tokens,
    tokenStems: tokens.map(stem),
    report: reportCues(text, tokens),
  };
}

export function featureCount(dim: number, dense: boolean): number {
  return CUE_FEATURES.length + (dense ? 2 * dim : 0);
}

const Q = 32767;

/** The feature vector of a pair (length `featureCount(dim, dense)`). */
export function stanceFeatures(claim: TextView, sentence: TextView, dense: boolean): Float64Array {
  const dim = claim.vector.length;
  const out = new Float64Array(featureCount(dim, dense));
  let dot = 0;
  for (let i = 0; i < dim; i++) dot += claim.vector[i]! * sentence.vector[i]!;
  const cosine = dot / (Q * Q);
  const c = new Set(claim.stems);
  const s = new Set(sentence.stems);
  let inter = 0;
  for (const t of c) if (s.has(t)) inter++;
  const cb = bigrams(claim.stems);
  const sb = new Set(bigrams(sentence.stems));
  const nums = new Set(sentence.numbers);
  const matched = claim.numbers.filter((n) => nums.has(n)).length;
  const cc = claim.cues;
  const sc = sentence.cues;
  const claimNeg = cc.negations > 0 ? 1 : 0;
  const sentNeg = sc.negations > 0 ? 1 : 0;
  const values = [
    cosine,
    c.size ? inter / c.size : 0,
    s.size ? inter / s.size : 0,
    c.size + s.size ? inter / (c.size + s.size - inter) : 0,
    cb.length ? cb.filter((b) => sb.has(b)).length / cb.length : 0,
    claim.numbers.length ? 1 : 0,
    claim.numbers.length ? matched / claim.numbers.length : 0,
    claim.numbers.length && matched === 0 ? 1 : 0,
    claimNeg,
    sentNeg,
    claimNeg ^ sentNeg,
    sc.nullResult > 0 ? 1 : 0,
    (sc.nullResult > 0 ? 1 : 0) * (claimNeg ? 1 : -1),
    cc.direction,
    sc.direction,
    cc.direction * sc.direction > 0 ? 1 : 0,
    cc.direction * sc.direction < 0 ? 1 : 0,
    cc.direction !== 0 ? 1 : 0,
    sc.direction !== 0 ? 1 : 0,
    Math.log1p(sentence.stems.length),
    Math.log1p(claim.stems.length),
    ...noveltyCues(cc, sc),
    ...antonymCues(claim, sentence),
    alignedNegationMismatch(claim, sentence),
    sentence.report.contrast,
    claim.report.absolute,
    sentence.report.absolute,
    sentence.report.resultHeading,
    sentence.report.backgroundHeading,
    sentence.report.pValue,
    sentence.report.effectStatistic,
    sentence.report.percent,
    sentence.report.findingWord,
    sentence.report.backgroundWord,
    sentence.report.firstPersonPlural,
    sentence.report.question,
    ...localDirection(claim, sentence),
  ];
  out.set(values, 0);
  if (dense) {
    const base = CUE_FEATURES.length;
    for (let i = 0; i < dim; i++) {
      const u = claim.vector[i]! / Q;
      const v = sentence.vector[i]! / Q;
      out[base + i] = u * v * dim;
      out[base + dim + i] = Math.abs(u - v) * Math.sqrt(dim);
    }
  }
  return out;
}

/** Cue words one side has and the other lacks: a negated or reversed claim adds exactly these. */
function noveltyCues(c: TextCues, s: TextCues): number[] {
  const only = (a: string[], b: string[]) => {
    const bs = new Set(b);
    return a.some((w) => !bs.has(w)) ? 1 : 0;
  };
  const cInc = only(c.increaseWords, s.increaseWords);
  const cDec = only(c.decreaseWords, s.decreaseWords);
  const sInc = only(s.increaseWords, c.increaseWords);
  const sDec = only(s.decreaseWords, c.decreaseWords);
  return [
    only(c.negationWords, s.negationWords),
    only(s.negationWords, c.negationWords),
    cInc,
    cDec,
    sInc,
    sDec,
    (cInc && sDec) || (cDec && sInc) ? 1 : 0,
  ];
}

/** Antonym pairs across the two texts (any token, stop words included: "more" / "less"). */
function antonymCues(claim: TextView, sentence: TextView): number[] {
  const c = new Set(claim.tokens.map(antonymKey));
  const s = new Set(sentence.tokens.map(antonymKey));
  let pairs = 0;
  let claimOnly = 0;
  for (const a of c) {
    const ants = antonymsOf(a);
    if (!ants) continue;
    for (const b of ants) {
      if (b === a || !s.has(b)) continue;
      pairs++;
      if (!s.has(a)) claimOnly++;
    }
  }
  const prefix = prefixNegationPairs(c, s);
  return [
    Math.min(pairs, 3),
    Math.min(claimOnly, 3),
    Math.min(prefix, 2),
    claimOnly > 0 || prefix > 0 ? 1 : 0,
  ];
}

/** A negation within `window` tokens before some occurrence of the stem. */
function negatedAt(view: TextView, target: string, window = 4): boolean {
  for (let i = 0; i < view.tokenStems.length; i++) {
    if (view.tokenStems[i] !== target) continue;
    for (let j = Math.max(0, i - window); j < i; j++) if (isNegation(view.tokens[j]!)) return true;
  }
  return false;
}

/** Shared content words negated on one side only ("X is not associated with Y" vs "X is associated"). */
function alignedNegationMismatch(claim: TextView, sentence: TextView): number {
  const s = new Set(sentence.tokenStems);
  const content = new Set<string>();
  claim.tokens.forEach((t, i) => {
    if (!STOPWORDS.has(t) && t.length > 1 && s.has(claim.tokenStems[i]!))
      content.add(claim.tokenStems[i]!);
  });
  let n = 0;
  for (const w of content) if (negatedAt(claim, w) !== negatedAt(sentence, w)) n++;
  return Math.min(n, 3);
}

/** Direction words with their sign flipped by a negation up to 3 tokens before. */
function directions(tokens: string[]): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  tokens.forEach((t, i) => {
    const d = directionOf(t);
    if (d === 0) return;
    let neg = false;
    for (let j = Math.max(0, i - 3); j < i; j++) if (isNegation(tokens[j]!)) neg = true;
    out.push([i, neg ? -d : d]);
  });
  return out;
}

/**
 * Direction next to the shared words: for each direction word of the claim, the content words
 * within 4 tokens of it are its targets; where a target occurs in the sentence, the nearest
 * direction word within 5 tokens of it agrees or disagrees ("increases BAT activity" vs
 * "increased BAT activity" / "decreases BAT activity").
 */
function localDirection(claim: TextView, sentence: TextView): number[] {
  const ct = claim.tokens;
  const cs = claim.tokenStems;
  const ss = sentence.tokenStems;
  const sd = directions(sentence.tokens);
  let agree = 0;
  let disagree = 0;
  for (const [i, d] of directions(ct)) {
    const targets = new Set<string>();
    for (let j = Math.max(0, i - 4); j < Math.min(cs.length, i + 5); j++) {
      const t = ct[j]!;
      if (j !== i && !STOPWORDS.has(t) && t.length > 2 && directionOf(t) === 0) targets.add(cs[j]!);
    }
    for (const target of targets) {
      ss.forEach((x, j) => {
        if (x !== target) return;
        let best: [number, number] | null = null;
        for (const [k, e] of sd) {
          const dist = Math.abs(k - j);
          if (dist <= 5 && (!best || dist < best[0] || (dist === best[0] && e < best[1])))
            best = [dist, e];
        }
        if (!best) return;
        if (best[1] === d) agree++;
        else disagree++;
      });
    }
  }
  return [
    Math.min(agree, 3),
    Math.min(disagree, 3),
    disagree > agree ? 1 : 0,
    agree > disagree ? 1 : 0,
  ];
}

function bigrams(stems: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < stems.length; i++) out.push(`${stems[i]} ${stems[i + 1]}`);
  return out;
}
