// Lexical cues for the LLM-free stance model: content-word overlap (with a light suffix stemmer),
// numbers, negation, null results, the direction of change a text asserts (globally and next to
// the words a claim and a sentence share), antonyms (WordNet's direct pairs plus a short list of
// polar pairs of scientific prose), and whether a sentence reads as a finding or as background.
// Each cue list is here once; the stance features combine claim cues with sentence cues. Pure.
import { STOPWORDS, tokenize } from '../query-plan/text';
import antonymTable from '../fitted/stance-antonyms.json';

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
  const flat = toks.join(' ').split(' ');
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

/**
 * Polar pairs that scientific claims flip and WordNet does not list as direct antonyms (or lists
 * only in another part of speech). General English, not drawn from SciFact's labels.
 */
const POLAR_PAIRS: Array<[string, string]> = [
  ['over', 'under'],
  ['up', 'down'],
  ['positive', 'negative'],
  ['positively', 'negatively'],
  ['high', 'low'],
  ['higher', 'lower'],
  ['more', 'less'],
  ['more', 'fewer'],
  ['greater', 'less'],
  ['greater', 'smaller'],
  ['increase', 'decrease'],
  ['increase', 'reduce'],
  ['increased', 'reduced'],
  ['increased', 'decreased'],
  ['benefit', 'harm'],
  ['beneficial', 'harmful'],
  ['better', 'worse'],
  ['improve', 'worsen'],
  ['risk', 'protect'],
  ['promote', 'inhibit'],
  ['promote', 'suppress'],
  ['activate', 'inhibit'],
  ['activation', 'inhibition'],
  ['gain', 'loss'],
  ['agonist', 'antagonist'],
  ['early', 'late'],
  ['short', 'long'],
  ['shorter', 'longer'],
  ['major', 'minor'],
  ['similar', 'different'],
  ['same', 'different'],
  ['sufficient', 'insufficient'],
  ['necessary', 'dispensable'],
  ['required', 'dispensable'],
  ['present', 'absent'],
  ['enrich', 'deplete'],
  ['upregulate', 'downregulate'],
  ['elevated', 'reduced'],
  ['elevated', 'decreased'],
  ['elevated', 'lower'],
  ['rise', 'fall'],
  ['accelerate', 'delay'],
  ['enhance', 'impair'],
  ['enhance', 'attenuate'],
  ['induce', 'prevent'],
  ['stimulate', 'inhibit'],
  ['overexpression', 'knockdown'],
  ['overestimate', 'underestimate'],
  ['hyper', 'hypo'],
  ['excess', 'deficiency'],
  ['strong', 'weak'],
  ['stronger', 'weaker'],
  ['majority', 'minority'],
  ['most', 'least'],
  ['all', 'none'],
  ['always', 'never'],
  ['safe', 'unsafe'],
  ['effective', 'ineffective'],
  ['increases', 'reduces'],
  ['detrimental', 'beneficial'],
  ['adverse', 'beneficial'],
  ['mortality', 'survival'],
  ['death', 'survival'],
  ['susceptible', 'resistant'],
  ['sensitive', 'resistant'],
  ['dominant', 'recessive'],
  ['male', 'female'],
  ['men', 'women'],
  ['upstream', 'downstream'],
  ['before', 'after'],
  ['maximum', 'minimum'],
  ['exacerbate', 'alleviate'],
  ['aggravate', 'alleviate'],
  ['healthy', 'unhealthy'],
  ['prevent', 'cause'],
  ['protective', 'risk'],
  ['reduced', 'enhanced'],
];

/** Stem -> stems of its antonyms (both directions). */
const ANTONYMS: Map<string, Set<string>> = (() => {
  const m = new Map<string, Set<string>>();
  const add = (a: string, b: string) => {
    const k = antonymKey(a);
    let set = m.get(k);
    if (!set) m.set(k, (set = new Set()));
    set.add(antonymKey(b));
  };
  for (const [a, b] of [...(antonymTable.pairs as Array<[string, string]>), ...POLAR_PAIRS]) {
    add(a, b);
    add(b, a);
  }
  return m;
})();

/**
 * The key antonyms are matched on: the stem without a final "e", because the light stemmer
 * strips "-es" but not "-e" ("overestimates" -> "overestimat", "overestimate" unchanged).
 */
export function antonymKey(token: string): string {
  const s = stem(token);
  return s.length > 3 && s.endsWith('e') ? s.slice(0, -1) : s;
}

/** Antonym keys of a word's key (see antonymKey). */
export function antonymsOf(key: string): ReadonlySet<string> | undefined {
  return ANTONYMS.get(key);
}

const NEGATION_PREFIXES = [
  'non',
  'un',
  'in',
  'im',
  'ir',
  'il',
  'dis',
  'anti',
  'hypo',
  'hyper',
  'under',
  'over',
  'de',
];

/** "inaccurate" / "accurate", "nonsmokers" / "smokers": one stem is a negating prefix plus the other. */
export function prefixNegation(a: string, b: string): boolean {
  for (const p of NEGATION_PREFIXES) {
    if (a.length - p.length >= 4 && a.startsWith(p) && a.slice(p.length) === b) return true;
    if (b.length - p.length >= 4 && b.startsWith(p) && b.slice(p.length) === a) return true;
  }
  return false;
}

/** Pairs (a of `a`, b of `b`) where one is a negating prefix plus the other (prefixNegation), by set look-ups. */
export function prefixNegationPairs(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let n = 0;
  const strip = (x: string, other: ReadonlySet<string>) => {
    for (const p of NEGATION_PREFIXES)
      if (x.length - p.length >= 4 && x.startsWith(p) && other.has(x.slice(p.length))) n++;
  };
  for (const x of a) strip(x, b);
  for (const y of b) strip(y, a);
  return n;
}

export function isNegation(token: string): boolean {
  return NEGATION.has(token) || token.endsWith("n't");
}

/** +1 / -1 when a token is an increase / decrease word, else 0. */
export function directionOf(token: string): number {
  if (INCREASE.test(token)) return 1;
  if (DECREASE.test(token)) return -1;
  return 0;
}

/** The set of a space-separated word list. */
const wordSet = (words: string): Set<string> => new Set(words.split(' '));

const CONTRAST = wordSet(
  'however but although though whereas contrast contrary unlike instead rather despite nevertheless conversely yet',
);
const ABSOLUTE = wordSet(
  'always never all every only completely entirely consistently any none solely exclusively sole universally',
);
const FINDING = wordSet(
  'found find finds showed show shows shown demonstrate demonstrates demonstrated indicate indicates indicated suggest suggests suggested conclude concluded reveal revealed revealing observed identify identified confirm confirmed associated significantly significant',
);
const BACKGROUND = wordSet(
  'background objective objectives aim aims purpose methods method design setting participants introduction context importance unknown unclear investigate investigated examine examined assess assessed evaluate evaluated determine study studies hypothesis hypothesized whether',
);
const RESULT_HEADINGS = wordSet('results conclusion conclusions findings interpretation');
const BACKGROUND_HEADINGS = wordSet(
  'background objective objectives aim aims purpose methods design setting context importance introduction participants',
);

/** How a sentence reads on its own: a reported finding, or background and methods. */
export interface ReportCues {
  /** Starts with an upper-case results/conclusions heading ("CONCLUSIONS ..."). */
  resultHeading: number;
  backgroundHeading: number;
  pValue: number;
  /** An effect statistic: 95%, CI, odds/hazard ratio, relative risk. */
  effectStatistic: number;
  percent: number;
  findingWord: number;
  backgroundWord: number;
  firstPersonPlural: number;
  question: number;
  contrast: number;
  absolute: number;
}

export function reportCues(text: string, toks: string[]): ReportCues {
  const firstWord = text.trim().split(/\s+/)[0] ?? '';
  const first = toks[0] ?? '';
  const upper =
    firstWord.length > 0 && firstWord === firstWord.toUpperCase() && /[A-Z]/.test(firstWord);
  const has = (set: Set<string>) => (toks.some((t) => set.has(t)) ? 1 : 0);
  return {
    resultHeading: upper && RESULT_HEADINGS.has(first) ? 1 : 0,
    backgroundHeading: upper && BACKGROUND_HEADINGS.has(first) ? 1 : 0,
    pValue: /\b[Pp]\s*[<=>≤]\s*0?\.\d/.test(text) ? 1 : 0,
    effectStatistic:
      /\b(95\s*%|CI\b|confidence interval|odds ratio|hazard ratio|relative risk|OR\b|HR\b|RR\b)/.test(
        text,
      )
        ? 1
        : 0,
    percent: text.includes('%') ? 1 : 0,
    findingWord: has(FINDING),
    backgroundWord: has(BACKGROUND),
    firstPersonPlural: toks.includes('we') ? 1 : 0,
    question: text.trim().endsWith('?') ? 1 : 0,
    contrast: has(CONTRAST),
    absolute: has(ABSOLUTE),
  };
}
