// The corrective web step's glue (CRAG-002/006, WSOP-003/004): asks the enabled web providers
// through the web worker's API and turns ranked hits into labelled web strips (url, credibility
// tier). No provider enabled -> no hook; every provider failing -> an AppError the service records
// as a failed step while the library answer stands.
import { createError, type ErrorCode, ERROR_CODES } from '../shared/errors';
import type { Strip } from '../shared/answer-api';
import type { Complexity } from '../shared/research-api';
import type { RankedWebHit, WebApi } from '../shared/web-api';
import { shapeWebSearch } from '../shared/web-route';
import type { WebSearchFn } from './types';

export interface WebStripDeps {
  api: Pick<WebApi, 'search' | 'listProviders'>;
  /** Results per provider (default 5, as the CRAG spec's AMBIGUOUS branch). */
  limit?: number;
  /** Deadline for the whole web search in ms (default 8000: an answer must not wait long). */
  deadlineMs?: number;
  /**
   * The question's route: its providers come from the route table (shared/web-route.ts) and its
   * depth is the smaller of the route's and `limit`.
   */
  route?: (query: string) => Complexity | null;
}

/** Web strips keep the snippet only; the page itself is fetched when the user imports it. */
export function hitToStrip(hit: RankedWebHit, n: number): Strip {
  const text = (hit.snippet || hit.title).replace(/\s+/g, ' ').trim();
  return {
    id: `w${n}`,
    source: 'web',
    documentId: null,
    chunkId: null,
    path: hit.url,
    title: hit.title || hit.url,
    start: 0,
    end: text.length,
    text,
    score: hit.score,
    url: hit.url,
    tier: String(hit.tier),
  };
}

/** True when at least one provider is enabled (else the web step is skipped, not failed). */
export async function webEnabled(api: Pick<WebApi, 'listProviders'>): Promise<boolean> {
  return (await api.listProviders()).some((p) => p.enabled);
}

/**
 * Creates the answer service's `web` hook.
 * @throws AppError with the first provider's code (OFFLINE, CIRCUIT_OPEN, ...) when none answered
 */
export function createWebStrips(deps: WebStripDeps): WebSearchFn {
  return async (query, signal) => {
    if (signal?.aborted) throw createError('ABORTED');
    const limit = deps.limit ?? 5;
    const route = deps.route?.(query) ?? null;
    const shaped = route ? shapeWebSearch(query, route) : null;
    const result = await deps.api.search({
      ...(shaped?.request ?? { query }),
      limit: Math.min(limit, shaped?.request.limit ?? limit),
      deadlineMs: deps.deadlineMs ?? 8000,
    });
    if (signal?.aborted) throw createError('ABORTED');
    if (result.succeeded.length === 0 && result.failures.length > 0) {
      const first = result.failures[0]!;
      const code: ErrorCode =
        first.code in ERROR_CODES ? (first.code as ErrorCode) : 'PROVIDER_ERROR';
      throw createError(code, {
        reason: result.failures.map((f) => `${f.provider}: ${f.message}`).join('; '),
        failures: result.failures.map((f) => ({ provider: f.provider, code: f.code })),
      });
    }
    // Blocked sources (tier 5) never enter an answer's context. Providers that failed while others
    // answered (an error or the deadline half way) are reported beside what arrived.
    return {
      strips: result.hits.filter((h) => h.tier < 5).map((h, i) => hitToStrip(h, i + 1)),
      failures: result.failures.map((f) => ({ provider: f.provider, code: f.code })),
      ...(shaped ? { shaped: shaped.note } : {}),
    };
  };
}
