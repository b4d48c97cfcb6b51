// Multi-hop retrieval for complex questions (issue 17 item 7), LLM-free: when the evaluator is not
// sure of a retrieval, the next query is the question plus the terms its best passages bring that
// the question lacks (a "bridge": the entity or concept the first evidence names), retrieved and
// evaluated again; bounded by the caller's hop count, stopping at CORRECT or when the evidence
// suggests nothing new. Off unless asked for (AnswerRequest.maxHops): no measurement supports it
// as a default. Pure.
import { contentWords, stem } from './text';

/** At most this many hops per answer, whatever the request asks. */
export const MAX_HOPS = 3;
/** Bridge terms added to the question per hop. */
export const BRIDGE_TERMS = 6;

/**
 * The next hop's query: the question and the words that occur most in the top passages' texts
 * (best passage first, ties by first appearance) whose stems the question and earlier hops lack.
 * @returns null when the passages add no new word
 */
export function bridgeQuery(
  question: string,
  passages: string[],
  seen: ReadonlySet<string> = new Set(),
  terms = BRIDGE_TERMS,
): { query: string; terms: string[] } | null {
  const known = new Set([...contentWords(question).map(stem), ...seen]);
  const counts = new Map<string, { word: string; n: number; first: number }>();
  let order = 0;
  passages.forEach((text, rank) => {
    for (const w of contentWords(text)) {
      const s = stem(w);
      if (known.has(s) || w.length < 3 || /^\d+$/.test(w)) continue;
      const c = counts.get(s) ?? { word: w, n: 0, first: order++ };
      // The best passage's words weigh most: evidence found, not the tail of the list.
      c.n += 1 / (rank + 1);
      counts.set(s, c);
    }
  });
  const picked = [...counts.values()]
    .sort((a, b) => b.n - a.n || a.first - b.first)
    .slice(0, terms)
    .map((c) => c.word);
  if (picked.length === 0) return null;
  return { query: `${question} ${picked.join(' ')}`, terms: picked };
}
