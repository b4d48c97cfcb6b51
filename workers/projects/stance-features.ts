// The stance model's input for one (claim, sentence) pair: cue features (similarity, overlap,
// numbers, negation, null results, direction agreement) followed by the dense interaction of the
// two canonical embeddings (u*v and |u-v|). Version `FEATURES_VERSION` is stored in every fitted
// model, so a model fitted on other features is refused. Pure; imports projects only.
import { contentStems, numbers, textCues, type TextCues } from './stance-cues';

export const FEATURES_VERSION = 'stance-features/1';

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
] as const;

/** What the features need of a text, computed once per claim and once per sentence. */
export interface TextView {
  vector: Int16Array;
  stems: string[];
  numbers: string[];
  cues: TextCues;
}

export function textView(text: string, vector: Int16Array): TextView {
  return { vector, stems: contentStems(text), numbers: numbers(text), cues: textCues(text) };
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

function bigrams(stems: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < stems.length; i++) out.push(`${stems[i]} ${stems[i + 1]}`);
  return out;
}
