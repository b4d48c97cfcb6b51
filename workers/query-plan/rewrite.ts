// Query rewriting (Rewrite-Retrieve-Read, WSOP spec section 4, arXiv:2305.14283) with a prompted
// LLM instead of a trained T5 (no training happens in the browser). The rewrite must be
// non-empty, under 64 tokens (QRW-001) and differ from the input (QRW-002); otherwise an
// LLM-free keyword rewrite is used.
import { runLlm } from './llm-step';
import { approxTokenCount, contentTokens, editDistance, normaliseQuery } from './text';
import type { LlmDep, Timers } from './types';

export const REWRITE_MAX_TOKENS = 64;

/** Instruction + the spec's T5 input format ("Query: ...\nRewrite:"). */
export function rewritePrompt(query: string, context?: string): string {
  const head =
    'Rewrite the query into a better search query for finding relevant documents: keep the key terms, add precise terminology, drop filler words. Answer with the rewritten query only, on one line.';
  return context
    ? `${head}\n\nContext: ${context}\nQuery: ${query}\nRewrite:`
    : `${head}\n\nQuery: ${query}\nRewrite:`;
}

/** First meaningful line, labels and quotes removed, cut to stay under 64 tokens. */
export function cleanRewrite(raw: string): string {
  const line =
    raw
      .split(/\r?\n/)
      .map((l) => l.trim())
      .find((l) => l.length > 0) ?? '';
  let q = line
    .replace(/^(?:rewritten query|rewrite|query|search query)\s*:\s*/i, '')
    .replace(/^["'“”`]+|["'“”`]+$/g, '')
    .trim();
  while (q && approxTokenCount(q) >= REWRITE_MAX_TOKENS) q = q.split(/\s+/).slice(0, -1).join(' ');
  return q;
}

/** LLM-free rewrite: the content words of the query (drops question words and stop words). */
export function keywordRewrite(query: string): string {
  return contentTokens(query).join(' ');
}

export interface RewriteOutcome {
  rewritten: string;
  source: 'llm' | 'keywords' | 'unchanged';
  fallbackCode: string | null;
  tokens: number;
}

export function isValidRewrite(original: string, rewritten: string): boolean {
  return (
    rewritten.trim().length > 0 &&
    approxTokenCount(rewritten) < REWRITE_MAX_TOKENS &&
    editDistance(normaliseQuery(original), normaliseQuery(rewritten)) > 0
  );
}

export function createRewriter(deps: { llm?: LlmDep | null; timers?: Timers }) {
  return {
    /** @throws AppError ABORTED when cancelled. */
    async rewrite(
      query: string,
      options: { context?: string; timeoutMs?: number; signal?: AbortSignal } = {},
    ): Promise<RewriteOutcome> {
      const out = await runLlm(
        deps.llm,
        {
          prompt: rewritePrompt(query, options.context),
          temperature: 0,
          maxTokens: REWRITE_MAX_TOKENS,
        },
        { signal: options.signal, timeoutMs: options.timeoutMs, timers: deps.timers },
      );
      const candidate = out.ok ? cleanRewrite(out.text) : '';
      if (out.ok && isValidRewrite(query, candidate))
        return {
          rewritten: candidate,
          source: 'llm',
          fallbackCode: null,
          tokens: approxTokenCount(candidate),
        };
      const fallbackCode = out.ok ? (candidate ? 'UNCHANGED' : 'EMPTY') : out.code;
      const kw = keywordRewrite(query);
      if (isValidRewrite(query, kw))
        return { rewritten: kw, source: 'keywords', fallbackCode, tokens: approxTokenCount(kw) };
      return {
        rewritten: query,
        source: 'unchanged',
        fallbackCode,
        tokens: approxTokenCount(query),
      };
    },
  };
}
