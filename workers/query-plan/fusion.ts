// RAG-Fusion (WSOP spec section 3, arXiv:2402.03367): generate 4 queries at temperature 0.8 with
// the spec's prompt, always keep the original (RAGF-005), retrieve for all in parallel and fuse
// with RRF k = 60 (RAGF-002). Also measures the pairwise Jaccard of generated queries (RAGF-001).
// Search and fusion are injected.
import { runLlm } from './llm-step';
import { jaccard, normaliseQuery } from './text';
import type { LlmDep, Timers } from './types';

export const FUSION_TEMPERATURE = 0.8;
export const FUSION_MAX_TOKENS = 200;
export const FUSION_NUM_QUERIES = 4;

/** The spec's multi-query prompt, verbatim. */
export function multiQueryPrompt(original: string, numQueries: number): string {
  return `Generate ${numQueries} different search queries that would
help answer this question. Each query should explore a different aspect
or use different terminology.
Original question: ${original}
Generated queries (one per line):`;
}

/**
 * Parses the model's answer: one query per line, numbering/bullets/quotes removed, duplicates
 * and copies of the original dropped; the original is put first; at most numQueries + 1.
 */
export function parseGeneratedQueries(
  response: string,
  original: string,
  numQueries: number,
): string[] {
  const orig = normaliseQuery(original);
  const seen = new Set([orig]);
  const generated: string[] = [];
  for (const raw of response.split(/\r?\n/)) {
    const q = raw
      .replace(/^[\s*_#>•-]+/, '') // markdown bullets, emphasis and headers
      .replace(/^(?:\d+[.):]|query\s*\d*:)\s*/i, '')
      .replace(/^[\s*_]+|[\s*_]+$/g, '')
      .replace(/^["'“”`]+|["'“”`]+$/g, '')
      .trim();
    if (q.length < 3 || /^(?:generated queries|here are)/i.test(q) || q.endsWith(':')) continue;
    const key = normaliseQuery(q);
    if (seen.has(key)) continue;
    seen.add(key);
    generated.push(q);
  }
  return [original, ...generated].slice(0, numQueries + 1);
}

/** RAGF-001: pairwise Jaccard of token sets over the generated queries (original excluded). */
export function pairwiseJaccard(queries: string[]): { mean: number; max: number; pairs: number } {
  let sum = 0;
  let max = 0;
  let pairs = 0;
  for (let i = 0; i < queries.length; i++) {
    for (let j = i + 1; j < queries.length; j++) {
      const s = jaccard(queries[i] ?? '', queries[j] ?? '');
      sum += s;
      max = Math.max(max, s);
      pairs++;
    }
  }
  return { mean: pairs ? sum / pairs : 0, max, pairs };
}

export interface MultiQueryOutcome {
  /** Original first, then generated queries. */
  queries: string[];
  generated: string[];
  fallbackCode: string | null;
}

export function createMultiQuery(deps: { llm?: LlmDep | null; timers?: Timers }) {
  return {
    /** @throws AppError ABORTED when cancelled. Falls back to [original] on any failure. */
    async generate(
      original: string,
      options: { numQueries?: number; timeoutMs?: number; signal?: AbortSignal } = {},
    ): Promise<MultiQueryOutcome> {
      const n = options.numQueries ?? FUSION_NUM_QUERIES;
      const out = await runLlm(
        deps.llm,
        {
          prompt: multiQueryPrompt(original, n),
          temperature: FUSION_TEMPERATURE,
          maxTokens: FUSION_MAX_TOKENS,
        },
        { signal: options.signal, timeoutMs: options.timeoutMs, timers: deps.timers },
      );
      if (!out.ok) return { queries: [original], generated: [], fallbackCode: out.code };
      const queries = parseGeneratedQueries(out.text, original, n);
      const generated = queries.slice(1);
      return { queries, generated, fallbackCode: generated.length === 0 ? 'EMPTY' : null };
    },
  };
}
