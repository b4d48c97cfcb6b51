// Test doubles for research tests: a deterministic bag-of-words embedder (hashing trick, unit
// vectors quantised with S = 32767) and a tiny in-memory hybrid search over a fixed corpus.
// Only imported by *.test.ts and bench code.
import { contentTokens } from './text';
import type { EmbedFn, RankedHit, RetrievalRequest, SearchFn } from './types';
import { quantizeUnit } from '../shared/quant';
import { cosine } from './vectors';

export const DIM = 128;

function hashToken(t: string): number {
  let h = 2166136261;
  for (let i = 0; i < t.length; i++) h = Math.imul(h ^ t.charCodeAt(i), 16777619);
  return h >>> 0;
}

export function bowVector(text: string): Int16Array {
  const v = new Float64Array(DIM);
  for (const t of contentTokens(text)) {
    const h = hashToken(t);
    v[h % DIM] = (v[h % DIM] ?? 0) + ((h >>> 16) & 1 ? 1 : -1);
  }
  return quantizeUnit(v);
}

export function createBowEmbed(log?: string[][]): EmbedFn {
  return async (texts) => {
    log?.push(texts);
    return texts.map(bowVector);
  };
}

export interface Doc {
  id: string;
  text: string;
}

export const CORPUS: Doc[] = [
  {
    id: 'd1',
    text: 'Aspirin inhibits platelet aggregation and lowers the risk of myocardial infarction.',
  },
  {
    id: 'd2',
    text: 'Low-dose aspirin in diabetic patients: a trial of cardiovascular prevention.',
  },
  { id: 'd3', text: 'Statins reduce cholesterol and cardiovascular events in adults.' },
  {
    id: 'd4',
    text: 'Dense retrieval encodes queries and documents into vectors for nearest neighbour search.',
  },
  {
    id: 'd5',
    text: 'BM25 is a lexical ranking function based on term frequency and inverse document frequency.',
  },
  {
    id: 'd6',
    text: 'HyDE generates a hypothetical document and embeds it to search a corpus zero-shot.',
  },
  {
    id: 'd7',
    text: 'RAPTOR builds a tree of recursive summaries for retrieval over long documents.',
  },
  { id: 'd8', text: 'Multi-hop reasoning answers questions that need several documents combined.' },
  { id: 'd9', text: 'Python was created by Guido van Rossum and first released in 1991.' },
  { id: 'd10', text: 'Vitamin D deficiency is linked to bone loss and fractures in older adults.' },
];

/** A toy hybrid search: lexical overlap + cosine of bag-of-words vectors, fused by sum. */
export function createToySearch(log?: RetrievalRequest[]): SearchFn<RankedHit & { text: string }> {
  const vecs = CORPUS.map((d) => bowVector(d.text));
  return async (req) => {
    log?.push(req);
    const lexTerms = new Set(contentTokens(req.lexicalQuery ?? req.text));
    const qv = req.vector ?? (await req.pendingVector) ?? bowVector(req.text);
    return CORPUS.map((d, i) => {
      const toks = contentTokens(d.text);
      const lex = toks.filter((t) => lexTerms.has(t)).length / Math.max(1, lexTerms.size);
      return {
        id: d.id,
        text: d.text,
        score: lex + Math.max(0, cosine(qv, vecs[i] as Int16Array)),
      };
    })
      .filter((h) => h.score > 0)
      .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1))
      .slice(0, req.limit);
  };
}

/** A clock tests advance by hand. */
export function manualClock(start = 1_000_000) {
  let t = start;
  return {
    now: () => t,
    advance: (ms: number) => {
      t += ms;
    },
  };
}
