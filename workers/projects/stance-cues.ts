// Lexical cues for the LLM-free stance model: content-word overlap (with a light suffix stemmer),
// numbers, negation, null results and the direction of change a text asserts. Each cue list is
// here once; the stance features combine claim cues with sentence cues. Pure; imports only
// research/text (tokenizer, stop words).
import { STOPWORDS, tokenize } from '../research/text';

const NEGATION = new Set(
  'not no none never neither nor without lack lacks lacking absence absent fail fails failed unable cannot nothing'.split(
    ' ',
  ),
);

/** Phrases reporting a null result ("no significant difference"), as token sequences. */
const NULL_RESULT = [
  'no significant',
  'not significant',
  'not significantly',
  'no difference',
  'no differences',
  'no association',
  'not associated',
  'no effect',
  'no effects',
  'no change',
  'no changes',
  'did not',
  'does not',
  'do not',
  'was not',
  'were not',
  'no evidence',
  'no correlation',
  'no relationship',
  'no benefit',
  'unchanged',
  'similar',
  'comparable',
  'independent of',
  'not affect',
  'not alter',
].map((p) => p.split(' '));

const INCREASE =
  /^(increas|higher|high|elevat|enhanc|promot|rais|greater|more|upregulat|up-regulat|induc|activat|improv|acceler|stimulat|gain|rise|rising|rose|augment|exacerbat|boost|potentiat|longer|larger|excess|overexpress|amplif|strength|facilitat)/;
const DECREASE =
  /^(decreas|lower|low|reduc|inhibit|suppress|downregulat|down-regulat|less|fewer|impair|attenuat|diminish|declin|loss|lose|block|prevent|protect|slow|deplet|shorter|smaller|abolish|abrogat|limit|weaken|delay|deficien|decay|drop|fall|fell|lack)/;

/** Lower-cased tokens with a light English suffix stemmer (plural and -ed/-ing/-ly forms). */
export function stems(text: string): string[] {
  return tokenize(text).map(stem);
}

export function stem(t: string): string {
  if (t.length <= 4) return t;
  for (const suf of ['ational', 'ization', 'ations', 'ation', 'ness', 'ments', 'ment', 'ingly']) {
    if (t.endsWith(suf) && t.length - suf.length >= 4) return t.slice(0, -suf.length);
  }
  for (const suf of ['ies', 'ied', 'ing', 'edly', 'ed', 'ly', 'es', 's']) {
    if (t.endsWith(suf) && t.length - suf.length >= 3 && !t.endsWith('ss')) {
      return t.slice(0, -suf.length);
    }
  }
  return t;
}

export function contentStems(text: string): string[] {
  return tokenize(text)
    .filter((t) => !STOPWORDS.has(t) && t.length > 1)
    .map(stem);
}

/** Numbers as written ("1.5", "40", "32%" -> "32"), for quantity agreement. */
export function numbers(text: string): string[] {
  return text.match(/\d+(?:\.\d+)?/g) ?? [];
}

export interface TextCues {
  /** Stems of the negation, increase and decrease words in the text (for claim-vs-sentence novelty). */
  negationWords: string[];
  increaseWords: string[];
  decreaseWords: string[];
  negations: number;
  nullResult: number;
  increase: number;
  decrease: number;
  /** +1 when the text asserts an increase, -1 a decrease, flipped by an odd number of negations. */
  direction: number;
}

export function textCues(text: string): TextCues {
  const toks = tokenize(text).map((t) => t.replace(/n't$/, ' not'));
  const negationWords: string[] = [];
  const increaseWords: string[] = [];
  const decreaseWords: string[] = [];
  for (const t of toks) {
    if (NEGATION.has(t) || t.endsWith(' not')) negationWords.push(t.endsWith(' not') ? 'not' : t);
    if (INCREASE.test(t)) increaseWords.push(stem(t));
    if (DECREASE.test(t)) decreaseWords.push(stem(t));
  }
  const negations = negationWords.length;
  const increase = increaseWords.length;
  const decrease = decreaseWords.length;
  let nullResult = 0;
  const flat = toks.join(' ').replace(/ not/g, ' not').split(' ');
  for (const phrase of NULL_RESULT) if (containsSeq(flat, phrase)) nullResult++;
  const raw = Math.sign(increase - decrease);
  const direction = negations % 2 === 1 ? -raw : raw;
  return {
    negationWords,
    increaseWords,
    decreaseWords,
    negations,
    nullResult,
    increase,
    decrease,
    direction,
  };
}

function containsSeq(toks: string[], seq: string[]): boolean {
  outer: for (let i = 0; i + seq.length <= toks.length; i++) {
    for (let j = 0; j < seq.length; j++) if (toks[i + j] !== seq[j]) continue outer;
    return true;
  }
  return false;
}
