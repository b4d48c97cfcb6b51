// LLM-free query variants for fusion: RAKE-style keyphrases (Rose et al. 2010: candidate phrases
// split at stop words and punctuation, scored by word degree / frequency), combined into a few
// variants that each stress a different facet of the query. Pure; imports only ./text.
import { STOPWORDS, tokenize } from './text';

/** Candidate phrases with RAKE scores, best first. */
export function extractKeyphrases(text: string): Array<{ phrase: string; score: number }> {
  const phrases: string[][] = [];
  for (const segment of text.toLowerCase().split(/[.,;:!?()[\]{}"“”]+/)) {
    let cur: string[] = [];
    for (const t of tokenize(segment)) {
      if (STOPWORDS.has(t)) {
        if (cur.length) phrases.push(cur);
        cur = [];
      } else cur.push(t);
    }
    if (cur.length) phrases.push(cur);
  }
  const freq = new Map<string, number>();
  const degree = new Map<string, number>();
  for (const p of phrases) {
    for (const w of p) {
      freq.set(w, (freq.get(w) ?? 0) + 1);
      degree.set(w, (degree.get(w) ?? 0) + p.length);
    }
  }
  const seen = new Set<string>();
  const out: Array<{ phrase: string; score: number }> = [];
  for (const p of phrases) {
    const phrase = p.join(' ');
    if (seen.has(phrase)) continue;
    seen.add(phrase);
    out.push({
      phrase,
      score: p.reduce((s, w) => s + (degree.get(w) ?? 0) / (freq.get(w) ?? 1), 0),
    });
  }
  return out.sort((a, b) => b.score - a.score || (a.phrase < b.phrase ? -1 : 1));
}

/**
 * Up to `max` query variants, none equal to the query: the keyphrases alone, then the query
 * without its weakest phrase for each phrase (leave-one-out), which keeps every variant on topic.
 */
export function keyphraseVariants(query: string, max = 3): string[] {
  const kp = extractKeyphrases(query);
  const norm = (s: string) => tokenize(s).join(' ');
  const original = norm(query);
  const variants: string[] = [];
  const push = (v: string) => {
    const n = norm(v);
    if (n && n !== original && !variants.some((x) => norm(x) === n)) variants.push(v);
  };
  if (kp.length === 0) return [];
  push(kp.map((k) => k.phrase).join(' '));
  if (kp.length >= 2) {
    for (let i = kp.length - 1; i >= 0 && variants.length < max; i--) {
      push(
        kp
          .filter((_, j) => j !== i)
          .map((k) => k.phrase)
          .join(' '),
      );
    }
  }
  for (const k of kp) if (variants.length < max && k.phrase.includes(' ')) push(k.phrase);
  return variants.slice(0, max);
}
