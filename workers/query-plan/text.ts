// Small text utilities shared by the techniques: tokenising, stop words, Jaccard, an approximate
// token count, and the query hash used in cache keys. Pure; imports nothing.

/** English function words (not a synonym table): dropped from keyphrases and RM3 terms. */
export const STOPWORDS = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being below between both but by ' +
    'can could did do does doing down during each few for from further had has have having he her here hers herself him ' +
    'himself his how i if in into is it its itself just me more most my myself no nor not now of off on once only or other ' +
    'our ours ourselves out over own same she should so some such than that the their theirs them themselves then there ' +
    'these they this those through to too under until up very was we were what when where which while who whom why will ' +
    'with would you your yours yourself yourselves also may might must shall us via vs versus within without whether ' +
    'compare comparison difference differences between explain describe tell show find give list'
  ).split(' '),
);

/** Lower-cased word tokens (letters, digits, inner hyphens/apostrophes). */
export function tokenize(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu) ?? [];
}

export function contentTokens(text: string): string[] {
  return tokenize(text).filter((t) => !STOPWORDS.has(t) && t.length > 1);
}

/** Jaccard similarity of the token sets of two texts (RAGF-001 uses < 0.5). */
export function jaccard(a: string, b: string): number {
  const sa = new Set(tokenize(a));
  const sb = new Set(tokenize(b));
  if (sa.size === 0 && sb.size === 0) return 1;
  let inter = 0;
  for (const t of sa) if (sb.has(t)) inter++;
  return inter / (sa.size + sb.size - inter);
}

/**
 * A conservative token estimate for BPE tokenizers (about 1.3 tokens per English word, one per
 * punctuation mark). Used for QRW-001's "< 64 tokens" without a model tokenizer.
 */
export function approxTokenCount(text: string): number {
  const words = text.match(/[\p{L}\p{N}]+/gu)?.length ?? 0;
  const punct = text.match(/[^\p{L}\p{N}\s]/gu)?.length ?? 0;
  return Math.ceil(words * 1.3) + punct;
}

/** Normalises a query for cache keys and equality: NFKC, lower case, single spaces. */
export function normaliseQuery(q: string): string {
  return q.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}

/** 64-bit FNV-1a of the normalised query, as 16 hex digits (the `{query_hash}` of cache keys). */
export function queryHash(q: string): string {
  let h = 0xcbf29ce484222325n;
  const bytes = new TextEncoder().encode(normaliseQuery(q));
  for (const b of bytes) {
    h ^= BigInt(b);
    h = (h * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return h.toString(16).padStart(16, '0');
}

/** Levenshtein distance (QRW-002: edit_distance > 0), on code points. */
export function editDistance(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  let prev = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const cur = [i];
    for (let j = 1; j <= y.length; j++) {
      cur[j] = Math.min(
        (prev[j] ?? 0) + 1,
        (cur[j - 1] ?? 0) + 1,
        (prev[j - 1] ?? 0) + (x[i - 1] === y[j - 1] ? 0 : 1),
      );
    }
    prev = cur;
  }
  return prev[y.length] ?? 0;
}
