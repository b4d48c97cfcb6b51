// Synthetic stance training pairs from claims_TRAIN, the way SciFact's authors wrote their
// CONTRADICT claims (Wadden et al. 2020, section 3.2: a claim negated or altered so that the same
// rationale now refutes it): a claim with its negation toggled ("is not" <-> "is", "no" removed,
// "does not" inserted) or one polar word swapped (increases <-> decreases, effective <->
// ineffective) gets the opposite label on the same rationale sentences. Rule-based, general
// English (the antonym table and the direction words of stance-cues); nothing is read from
// labels beyond the pair being flipped. Only ml/stance-fit.ts uses this; product code
// must not.
import antonymTable from '../workers/fitted/stance-antonyms.json';

/** Direction words with their inflections, swapped before any other antonym (the most common flip). */
const DIRECTION_SWAPS: Array<[string, string]> = [
  ['increase', 'decrease'],
  ['increases', 'decreases'],
  ['increased', 'decreased'],
  ['increasing', 'decreasing'],
  ['reduce', 'increase'],
  ['reduces', 'increases'],
  ['reduced', 'increased'],
  ['reducing', 'increasing'],
  ['reduction', 'increase'],
  ['higher', 'lower'],
  ['high', 'low'],
  ['more', 'less'],
  ['greater', 'smaller'],
  ['enhance', 'impair'],
  ['enhances', 'impairs'],
  ['enhanced', 'impaired'],
  ['promote', 'inhibit'],
  ['promotes', 'inhibits'],
  ['promoted', 'inhibited'],
  ['activates', 'inhibits'],
  ['activate', 'inhibit'],
  ['activated', 'inhibited'],
  ['activation', 'inhibition'],
  ['upregulates', 'downregulates'],
  ['upregulated', 'downregulated'],
  ['upregulation', 'downregulation'],
  ['improves', 'worsens'],
  ['improve', 'worsen'],
  ['improved', 'worsened'],
  ['positively', 'negatively'],
  ['positive', 'negative'],
  ['elevated', 'reduced'],
  ['prevents', 'causes'],
  ['prevent', 'cause'],
  ['suppresses', 'promotes'],
  ['suppress', 'promote'],
  ['accelerates', 'delays'],
  ['impedes', 'facilitates'],
  ['better', 'worse'],
  ['beneficial', 'harmful'],
  ['effective', 'ineffective'],
  ['accurate', 'inaccurate'],
  ['sufficient', 'insufficient'],
  ['necessary', 'dispensable'],
  ['required', 'dispensable'],
  ['protective', 'harmful'],
  ['rare', 'common'],
  ['gain', 'loss'],
  ['longer', 'shorter'],
  ['larger', 'smaller'],
  ['stronger', 'weaker'],
  ['strong', 'weak'],
  ['safe', 'unsafe'],
  ['able', 'unable'],
  ['present', 'absent'],
  ['always', 'never'],
];

/** WordNet pairs that change the subject rather than the claim's stance: never swapped. */
const NOT_A_FLIP = new Set(
  'in out on off up down first last new old male female men women man woman left right before after day night front back top bottom black white north south east west same other in vivo vitro inside outside internal external human animal child adult mother father'.split(
    ' ',
  ),
);

const SWAP: Map<string, string> = (() => {
  const m = new Map<string, string>();
  for (const [a, b] of antonymTable.pairs as Array<[string, string]>) {
    if (NOT_A_FLIP.has(a) || NOT_A_FLIP.has(b) || a.length < 3 || b.length < 3) continue;
    if (!m.has(a)) m.set(a, b);
    if (!m.has(b)) m.set(b, a);
  }
  return m;
})();

const DIRECTION: Map<string, string> = (() => {
  const m = new Map<string, string>();
  for (const [a, b] of DIRECTION_SWAPS) {
    if (!m.has(a)) m.set(a, b);
    if (!m.has(b)) m.set(b, a);
  }
  return m;
})();

const AUX = /\b(is|are|was|were|can|could|may|might|will|would|should|has|have|had|does|do|did)\b/i;
/** Third-person verbs that take "does not" + the base form. */
const VERB_S =
  /\b(increases|decreases|reduces|causes|leads|results|promotes|inhibits|prevents|induces|enhances|impairs|improves|affects|regulates|activates|suppresses|requires|predicts|protects|contributes|correlates|mediates|drives|blocks|triggers|confers|lowers|raises|worsens|impedes|interacts|binds|depends|plays|exhibits|shows|limits|decreases|stimulates|alters|modulates|produces|accelerates|delays|occurs|exists|differs|improves|remains|slows|attenuates|restores|facilitates|reverses|elevates|augments|triggers|controls|determines|enables|involves|correlates|contains|represents|expresses|undergoes)\b/i;

function matchCase(word: string, like: string): string {
  if (!word) return word;
  if (like[0] && like[0] === like[0].toUpperCase() && like[0] !== like[0].toLowerCase())
    return word[0]!.toUpperCase() + word.slice(1);
  return word;
}

function tidy(s: string): string {
  return s
    .replace(/\s+/g, ' ')
    .replace(/\s+([.,;:])/g, '$1')
    .trim();
}

/** The claim with its negation toggled: an existing negation removed, else one inserted. Null when no rule applies. */
export function toggleNegation(claim: string): string | null {
  const rules: Array<[RegExp, string]> = [
    [
      /\b(is|are|was|were|can|could|may|might|will|would|should|has|have|had|does|do|did) not\b/i,
      '$1',
    ],
    [/\bcannot\b/i, 'can'],
    [/\b(does|do|did|is|are|was|were|has|have)n't\b/i, '$1'],
    [/\bnot\b/i, ''],
    [/\bno longer\b/i, 'still'],
    [/\b(has|have|had|with|shows?|showed) no\b/i, '$1 an'],
    [/^no\s+/i, ''],
    [/\bno\b/i, ''],
    [/\bnever\b/i, 'always'],
    [/\bwithout\b/i, 'with'],
  ];
  for (const [re, to] of rules) {
    if (re.test(claim)) {
      const out = claim.replace(re, (m, g1?: string) =>
        typeof g1 === 'string' ? to.replace('$1', g1) : matchCase(to, m),
      );
      return tidy(out[0] ? out[0].toUpperCase() + out.slice(1) : out);
    }
  }
  const aux = AUX.exec(claim);
  if (aux)
    return tidy(
      claim.slice(0, aux.index + aux[0].length) + ' not' + claim.slice(aux.index + aux[0].length),
    );
  const verb = VERB_S.exec(claim);
  if (verb) {
    const w = verb[0];
    const base = /(ches|shes|sses|xes|zes)$/i.test(w) ? w.slice(0, -2) : w.slice(0, -1);
    return tidy(
      claim.slice(0, verb.index) + 'does not ' + base + claim.slice(verb.index + w.length),
    );
  }
  return null;
}

/** The claim with its first polar word swapped (direction words first, then WordNet antonyms). Null when none. */
export function swapPolarWord(claim: string): string | null {
  const words = [...claim.matchAll(/(?<![A-Za-z0-9-])[A-Za-z]+(?![A-Za-z0-9-])/g)];
  for (const table of [DIRECTION, SWAP]) {
    for (const m of words) {
      const lower = m[0].toLowerCase();
      const to = table.get(lower);
      if (!to) continue;
      return tidy(
        claim.slice(0, m.index) + matchCase(to, m[0]) + claim.slice(m.index + m[0].length),
      );
    }
  }
  return null;
}

/** Up to two altered versions of a claim (negation toggled; a polar word swapped), distinct from it and each other. */
export function flippedClaims(claim: string): string[] {
  const out: string[] = [];
  for (const f of [toggleNegation(claim), swapPolarWord(claim)]) {
    if (f && f !== claim && !out.includes(f)) out.push(f);
  }
  return out;
}
