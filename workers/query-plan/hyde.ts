// HyDE (WSOP spec section 1, arXiv:2212.10496): generate hypothetical document(s) for the query,
// embed them on the canonical path (NOT the query), optionally average N samples with the query
// vector as in the paper, re-normalise and re-quantise (S = 32767). Falls back to the raw query
// embedding on failure, timeout or no backend. Cached as `hyde:{query_hash}` for one hour.
// The search and embed implementations are injected.
import { createTtlCache, type TtlCache } from './cache';
import { runLlm } from './llm-step';
import { queryHash } from './text';
import type { Clock, EmbedFn, LlmDep, Timers } from './types';
import { averageUnit } from './vectors';

/** The spec's instruction, verbatim. */
export const HYDE_INSTRUCTION =
  'Write a passage that answers the question. Include specific facts and technical details.';
export const HYDE_TEMPERATURE = 0.7;
export const HYDE_MAX_TOKENS = 256;
export const HYDE_CACHE_TTL_MS = 3600 * 1000;

export function hydePrompt(query: string): string {
  return `${HYDE_INSTRUCTION}\n\nQuestion: ${query}`;
}

export interface HydeConfig {
  /** Hypothetical documents generated and averaged. Default 1 (the spec); the paper uses 8. */
  samples?: number;
  /** Average the query vector in too (the paper's f(q) term). Default false. */
  includeQuery?: boolean;
  timeoutMs?: number;
}

export interface HydeOutcome {
  vector: Int16Array;
  documents: string[];
  source: 'hyde' | 'cache' | 'fallback';
  /** Why HyDE fell back: NO_BACKEND, EMPTY, TIMEOUT, PROVIDER_ERROR, ... */
  fallbackCode: string | null;
  cacheKey: string;
}

interface CachedHyde {
  vector: Int16Array;
  documents: string[];
}

export interface HydeDeps {
  llm?: LlmDep | null;
  embed: EmbedFn;
  clock: Clock;
  cache?: TtlCache<CachedHyde>;
  timers?: Timers;
}

export function createHyde(deps: HydeDeps) {
  const cache = deps.cache ?? createTtlCache<CachedHyde>(deps.clock);
  return {
    /**
     * Expands a query into a HyDE vector.
     * @throws AppError ABORTED when cancelled; embedding errors propagate (no fallback exists for them).
     */
    async expand(
      query: string,
      config: HydeConfig = {},
      signal?: AbortSignal,
    ): Promise<HydeOutcome> {
      const samples = Math.max(1, Math.floor(config.samples ?? 1));
      const includeQuery = config.includeQuery ?? false;
      // The key carries the sample settings too: a 1-sample vector is not an 8-sample one.
      const cacheKey =
        `hyde:${queryHash(query)}` +
        (samples === 1 && !includeQuery ? '' : `:n${samples}${includeQuery ? 'q' : ''}`);
      const hit = cache.get(cacheKey);
      if (hit) return { ...hit, source: 'cache', fallbackCode: null, cacheKey };
      const outcomes = await Promise.all(
        Array.from({ length: samples }, () =>
          runLlm(
            deps.llm,
            {
              prompt: hydePrompt(query),
              temperature: HYDE_TEMPERATURE,
              maxTokens: HYDE_MAX_TOKENS,
            },
            { signal, timeoutMs: config.timeoutMs, timers: deps.timers },
          ),
        ),
      );
      const documents = outcomes.flatMap((o) => (o.ok ? [o.text] : []));
      if (documents.length === 0) {
        const first = outcomes[0];
        const [vector] = await deps.embed([query], signal ? { signal } : undefined);
        if (!vector) throw new Error('embed returned no vector');
        return {
          vector,
          documents: [],
          source: 'fallback',
          fallbackCode: first && !first.ok ? first.code : 'EMPTY',
          cacheKey,
        };
      }
      const texts = includeQuery ? [...documents, query] : documents;
      const vectors = await deps.embed(texts, signal ? { signal } : undefined);
      const vector = vectors.length === 1 && vectors[0] ? vectors[0] : averageUnit(vectors);
      cache.set(cacheKey, { vector, documents }, HYDE_CACHE_TTL_MS);
      return { vector, documents, source: 'hyde', fallbackCode: null, cacheKey };
    },
  };
}
