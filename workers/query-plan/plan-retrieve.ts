// The planner's last steps: run the plan's retrievals concurrently, record what each found (and
// what it alone found), fuse the lists with RRF and assemble the QueryPlan the UI shows.
import { groupInOrder, MORE_PASSAGES } from '../shared/document-results';
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
 * One embedder call, started and not awaited: resolves to a vector per text, or nulls when the
 * call failed (recorded as a fallback: each retrieval then embeds its own query). Never rejects.
 */
function startEmbedding(
  ctx: PlanContext,
  embedQueries: EmbedFn,
  texts: string[],
  id: string,
  label: string,
  note: string,
): Promise<Array<Int16Array | null>> {
  const start = ctx.clock.now();
  return (async () => {
    try {
      const vectors = await embedQueries(texts, ctx.signal ? { signal: ctx.signal } : {});
      record(ctx, id, 'embed', label, start, { texts, note });
      return texts.map((_, i) => {
        const vector = vectors[i];
        return vector && vector.length > 0 ? vector : null;
      });
    } catch (err) {
      record(ctx, id, 'embed', label, start, {
        texts,
        status: 'fallback',
        errorCode: isAppError(err) ? err.code : 'INTERNAL',
        note: 'embedding failed: each retrieval embeds its own query',
      });
      return texts.map(() => null);
    }
  })();
}

/** A generating technique is on: the complex route will add retrievals to the original. */
const generates = (ctx: PlanContext) =>
  ctx.techniques.rewrite ||
  ctx.techniques.hyde ||
  ctx.techniques.fusion ||
  ctx.techniques.keyphrases;

/**
 * Step 1b (complex route, a generating technique on, not keyword mode): the original query's
 * vector is started before the LLM steps. It is needed whatever they generate, and the embed
 * worker would otherwise idle while the model writes the variants; on a device with two embed
 * workers the variants' batch then runs beside it. Not on the moderate route, where HyDE's vector
 * replaces the query's.
 */
export function embedOriginalEarlyStep(ctx: PlanContext, embedQueries?: EmbedFn): void {
  if (!embedQueries || ctx.scope.mode === 'lexical') return;
  if (ctx.complexity !== 'complex' || !generates(ctx)) return;
  ctx.originalVector = startEmbedding(
    ctx,
    embedQueries,
    [ctx.q],
    'embed:original',
    'Original query embedding',
    'started before the generating steps',
  ).then(([v]) => v ?? null);
}

/**
 * Step 6a: one embedder call for every retrieval that still needs a query vector (the rewrite,
 * generated and keyphrase variants; the original too unless step 1b started it) instead of one
 * call each. Not for a lone retrieval: it embeds exactly as a plain search does. The call is
 * started, not awaited: each retrieval gets its vector as `pendingVector`, so the retrievals rank
 * their keyword sides (FTS5, in this thread) while the embed worker computes the vectors, and
 * only their semantic sides wait for them. Each distinct text is embedded once.
 */
export function embedVariantsStep(ctx: PlanContext, embedQueries?: EmbedFn): void {
  if (!embedQueries || ctx.scope.mode === 'lexical') return;
  let need = ctx.retrievals.filter((r) => !r.request.vector);
  const early = ctx.originalVector;
  if (early) {
    // The original, and any variant whose text is the query itself, share the early vector.
    for (const r of need.filter((r) => r.request.text === ctx.q)) {
      r.request = { ...r.request, pendingVector: early };
    }
    need = need.filter((r) => r.request.text !== ctx.q);
  }
  // A text two techniques both produced (a rewrite equal to a generated query, a keyphrase
  // variant equal to one) is embedded once: a query's vector depends on its text alone.
  const texts = [...new Set(need.map((r) => r.request.text))];
  if (texts.length === 0 || (need.length < 2 && !early)) return;
  const dropped = need.length - texts.length;
  const batch = startEmbedding(
    ctx,
    embedQueries,
    texts,
    'embed',
    'Query embeddings (one batch)',
    `${texts.length} queries embedded in one call, keyword rankings run meanwhile` +
      (dropped > 0
        ? `; ${dropped} repeated ${dropped === 1 ? 'text' : 'texts'} embedded once`
        : ''),
  );
  need.forEach((r) => {
    const i = texts.indexOf(r.request.text);
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
  documents?: number,
): Promise<Array<RetrievedList<H>>> {
  const settled = await Promise.allSettled(
    ctx.retrievals.map(async (r) => {
      const s = ctx.clock.now();
      const hits = await search({
        ...r.request,
        ...(ctx.scope.mode ? { mode: ctx.scope.mode } : {}),
        ...(ctx.scope.filters ? { filters: ctx.scope.filters } : {}),
        limit: perQuery,
        ...(documents !== undefined ? { documents } : {}),
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

/**
 * Step 7: RRF over the lists (k = 60); a single list is passed through. Then the first `limit`
 * results, or with `documents` the first that many documents (grouped in fused order by
 * `group`, at most 1 + MORE_PASSAGES results each): a page of a plan always shows as many
 * documents as a plain search's page when the lists hold them.
 */
export function fuseStep<H extends RankedHit>(
  ctx: PlanContext,
  lists: Array<RetrievedList<H>>,
  fuse: FuseFn,
  limit: number,
  documents?: number,
): Array<{ id: string; score: number; hit: H }> {
  const cut = (all: Array<{ id: string; score: number; hit: H }>) =>
    documents === undefined
      ? all.slice(0, limit)
      : groupInOrder(all, (f) => f.hit.group ?? f.id, documents, 1 + MORE_PASSAGES).flat();
  if (lists.length > 1) {
    const start = ctx.clock.now();
    const fused = cut(
      fuse(
        lists.map((l) => l.hits),
        60,
      ),
    );
    record(ctx, 'fuse', 'fuse', `RRF over ${lists.length} lists (k = 60)`, start, {
      resultIds: fused.map((h) => h.id),
    });
    return fused;
  }
  skip(ctx, 'fuse', 'fuse', 'RRF fusion', 'a single retrieval: nothing to fuse');
  return cut((lists[0]?.hits ?? []).map((hit) => ({ id: hit.id, score: hit.score, hit })));
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
