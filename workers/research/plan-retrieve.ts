// The planner's last steps: run the plan's retrievals concurrently, record what each found (and
// what it alone found), fuse the lists with RRF and assemble the QueryPlan the UI shows.
// Imports only workers/shared and ./.
import { isAppError } from '../shared/errors';
import type { PlanStep, QueryPlan } from '../shared/research-api';
import type { LlmBackendKind } from '../shared/llm-api';
import { checkAbort, record, skip, type PlanContext, type Retrieval } from './plan-context';
import type { EmbedFn, FuseFn, RankedHit, SearchFn } from './types';

export interface RetrievedList<H extends RankedHit> {
  r: Retrieval;
  hits: H[];
  step: PlanStep;
}

/**
 * Step 6a: one embedder call for every retrieval that needs a query vector (the original, the
 * rewrite, generated and keyphrase variants) instead of one call each. Only with two or more:
 * a single retrieval embeds exactly as a plain search does. The call is started, not awaited:
 * each retrieval gets its share as `pendingVector`, so the retrievals rank their lexical sides
 * (FTS5, in this thread) while the embed worker computes the vectors, and only their semantic
 * sides wait for them. On failure (no model yet) each retrieval embeds for itself or answers
 * lexically, as a plain search would.
 */
export function embedVariantsStep(ctx: PlanContext, embedQueries?: EmbedFn): void {
  if (!embedQueries || ctx.scope.mode === 'lexical') return;
  const need = ctx.retrievals.filter((r) => !r.request.vector);
  if (need.length < 2) return;
  const start = ctx.clock.now();
  const texts = need.map((r) => r.request.text);
  const batch: Promise<Array<Int16Array | null>> = (async () => {
    try {
      const vectors = await embedQueries(texts, ctx.signal ? { signal: ctx.signal } : {});
      record(ctx, 'embed', 'embed', 'Query embeddings (one batch)', start, {
        texts,
        note: `${need.length} queries embedded in one call, keyword rankings run meanwhile`,
      });
      return need.map((_, i) => {
        const vector = vectors[i];
        return vector && vector.length > 0 ? vector : null;
      });
    } catch (err) {
      record(ctx, 'embed', 'embed', 'Query embeddings (one batch)', start, {
        status: 'fallback',
        errorCode: isAppError(err) ? err.code : 'INTERNAL',
        note: 'batch embedding failed: each retrieval embeds its own query',
      });
      return need.map(() => null);
    }
  })();
  need.forEach((r, i) => {
    r.request = { ...r.request, pendingVector: batch.then((vs) => vs[i] ?? null) };
  });
}

/**
 * Step 6b: every retrieval at once, in the user's mode and filters. A failed secondary retrieval is recorded and left out.
 * @throws the original retrieval's error; AppError ABORTED.
 */
export async function retrieveStep<H extends RankedHit>(
  ctx: PlanContext,
  search: SearchFn<H>,
  perQuery: number,
): Promise<Array<RetrievedList<H>>> {
  const settled = await Promise.allSettled(
    ctx.retrievals.map(async (r) => {
      const s = ctx.clock.now();
      const hits = await search({
        ...r.request,
        ...(ctx.scope.mode ? { mode: ctx.scope.mode } : {}),
        ...(ctx.scope.filters ? { filters: ctx.scope.filters } : {}),
        limit: perQuery,
        ...(ctx.signal ? { signal: ctx.signal } : {}),
      });
      return { hits, start: s, end: ctx.clock.now() };
    }),
  );
  checkAbort(ctx);
  const lists: Array<RetrievedList<H>> = [];
  settled.forEach((res, i) => {
    const r = ctx.retrievals[i] as Retrieval;
    if (res.status === 'rejected') {
      if (r.essential) throw res.reason;
      record(ctx, r.id, 'retrieve', r.label, ctx.clock.now(), {
        status: 'fallback',
        inputFrom: r.inputFrom,
        texts: [r.request.text],
        errorCode: isAppError(res.reason) ? res.reason.code : 'INTERNAL',
        note: 'retrieval failed: left out of the fusion',
      });
      return;
    }
    const step = retrievalStep(ctx, r, res.value);
    ctx.steps.push(step);
    lists.push({ r, hits: res.value.hits, step });
  });
  for (const l of lists) {
    const others = new Set(lists.filter((o) => o !== l).flatMap((o) => o.step.resultIds));
    l.step.uniqueIds = l.step.resultIds.filter((id) => !others.has(id));
  }
  return lists;
}

function retrievalStep(
  ctx: PlanContext,
  r: Retrieval,
  res: { hits: RankedHit[]; start: number; end: number },
): PlanStep {
  return {
    id: r.id,
    kind: 'retrieve',
    label: r.label,
    status: 'ok',
    startMs: res.start - ctx.t0,
    durationMs: res.end - res.start,
    texts: [
      r.request.lexicalQuery && r.request.lexicalQuery !== r.request.text
        ? r.request.lexicalQuery
        : r.request.text,
    ],
    resultIds: res.hits.map((h) => h.id),
    uniqueIds: [],
    inputFrom: r.inputFrom,
    note: r.inputFrom === 'hyde' ? 'semantic side searched with the HyDE vector' : null,
    errorCode: null,
  };
}

/** Step 7: RRF over the lists (k = 60); a single list is passed through. */
export function fuseStep<H extends RankedHit>(
  ctx: PlanContext,
  lists: Array<RetrievedList<H>>,
  fuse: FuseFn,
  limit: number,
): Array<{ id: string; score: number; hit: H }> {
  if (lists.length > 1) {
    const start = ctx.clock.now();
    const fused = fuse(
      lists.map((l) => l.hits),
      60,
    ).slice(0, limit);
    record(ctx, 'fuse', 'fuse', `RRF over ${lists.length} lists (k = 60)`, start, {
      resultIds: fused.map((h) => h.id),
    });
    return fused;
  }
  skip(ctx, 'fuse', 'fuse', 'RRF fusion', 'a single retrieval: nothing to fuse');
  return (lists[0]?.hits ?? [])
    .slice(0, limit)
    .map((hit) => ({ id: hit.id, score: hit.score, hit }));
}

/** The QueryPlan: route, switches, steps, and which retrievals found each final result. */
export function planRecord<H extends RankedHit>(
  ctx: PlanContext,
  lists: Array<RetrievedList<H>>,
  finalHits: Array<{ id: string; score: number }>,
  backend: LlmBackendKind,
): QueryPlan {
  return {
    query: ctx.q,
    complexity: ctx.complexity,
    routeReason: ctx.routeReason,
    routeSource: ctx.routeSource,
    techniques: ctx.techniques,
    backend,
    steps: ctx.steps,
    results: finalHits.map((h) => ({
      id: h.id,
      score: h.score,
      contributedBy: lists.filter((l) => l.step.resultIds.includes(h.id)).map((l) => l.r.id),
    })),
    totalMs: ctx.clock.now() - ctx.t0,
  };
}
