// The planner's query-generating steps, each adding retrievals to the plan: rewrite (complex),
// HyDE (moderate: replaces the original's vector; complex: its own retrieval), RAG-Fusion's
// generated queries and keyphrase variants (complex).
import type { createMultiQuery } from './fusion';
import type { createHyde } from './hyde';
import { keyphraseVariants } from './keyphrases';
import {
  checkAbort,
  llmStepOptions,
  notInMode,
  notOnRoute,
  OFF,
  record,
  skip,
  type PlanContext,
} from './plan-context';
import type { createRewriter } from './rewrite';

/** Step 3: rewrite the query (complex route); later steps build on the rewrite. */
export async function rewriteStep(
  ctx: PlanContext,
  rewriter: ReturnType<typeof createRewriter>,
): Promise<void> {
  const label = 'Query rewrite';
  if (!ctx.techniques.rewrite) skip(ctx, 'rewrite', 'rewrite', label, OFF);
  else if (ctx.complexity !== 'complex') skip(ctx, 'rewrite', 'rewrite', label, notOnRoute(ctx));
  else {
    const start = ctx.clock.now();
    const r = await rewriter.rewrite(ctx.q, llmStepOptions(ctx));
    record(ctx, 'rewrite', 'rewrite', label, start, {
      status: r.source !== 'llm' ? 'fallback' : 'ok',
      texts: [r.rewritten],
      errorCode: r.fallbackCode,
      note:
        r.source === 'keywords'
          ? 'LLM-free keyword rewrite'
          : r.source === 'unchanged'
            ? 'no usable rewrite'
            : `${r.tokens} tokens (approx.)`,
    });
    if (r.source !== 'unchanged') {
      ctx.base = r.rewritten;
      ctx.retrievals.push({
        id: 'retrieve:rewrite',
        label: 'Rewritten query',
        request: { text: ctx.base },
        inputFrom: 'rewrite',
        essential: false,
      });
    }
  }
  checkAbort(ctx);
}

/** Step 4: HyDE (moderate and complex routes). */
export async function hydeStep(
  ctx: PlanContext,
  hyde: ReturnType<typeof createHyde>,
): Promise<void> {
  if (!ctx.techniques.hyde) skip(ctx, 'hyde', 'hyde', 'HyDE', OFF);
  else if (ctx.complexity === 'simple') skip(ctx, 'hyde', 'hyde', 'HyDE', notOnRoute(ctx));
  else if (notInMode(ctx, 'semantic'))
    skip(ctx, 'hyde', 'hyde', 'HyDE', notInMode(ctx, 'semantic') ?? '');
  else {
    const start = ctx.clock.now();
    const h = await hyde.expand(
      ctx.base,
      {
        samples: ctx.options.hydeSamples ?? 1,
        includeQuery: ctx.options.hydeIncludeQuery ?? false,
        ...(ctx.timeoutMs ? { timeoutMs: ctx.timeoutMs } : {}),
      },
      ctx.signal,
    );
    const ok = h.source !== 'fallback';
    record(ctx, 'hyde', 'hyde', 'HyDE hypothetical document', start, {
      status: ok ? 'ok' : 'fallback',
      texts: h.documents,
      errorCode: ok ? null : h.fallbackCode,
      note: ok
        ? h.source === 'cache'
          ? `from cache (${h.cacheKey})`
          : `${h.documents.length} sample(s) embedded`
        : 'raw query embedding used',
    });
    const original = ctx.retrievals[0];
    if (ctx.complexity === 'moderate') {
      // Moderate = HyDE + single retrieval: the hypothetical document's vector replaces the query's.
      if (original && ok) {
        original.request = { ...original.request, vector: h.vector };
        original.inputFrom = 'hyde';
      }
    } else if (ok) {
      ctx.retrievals.push({
        id: 'retrieve:hyde',
        label: 'HyDE vector',
        request: { text: ctx.base, vector: h.vector },
        inputFrom: 'hyde',
        essential: false,
      });
    }
  }
  checkAbort(ctx);
}

/** Step 5a: RAG-Fusion's generated queries (complex route), one retrieval each. */
export async function multiQueryStep(
  ctx: PlanContext,
  multi: ReturnType<typeof createMultiQuery>,
): Promise<void> {
  const label = 'RAG-Fusion queries';
  if (!ctx.techniques.fusion) return void skip(ctx, 'multi-query', 'multi-query', label, OFF);
  if (ctx.complexity !== 'complex')
    return void skip(ctx, 'multi-query', 'multi-query', label, notOnRoute(ctx));
  const start = ctx.clock.now();
  const m = await multi.generate(ctx.q, {
    numQueries: ctx.options.fusionQueries ?? 4,
    ...llmStepOptions(ctx),
  });
  ctx.generatedCount = m.generated.length;
  record(ctx, 'multi-query', 'multi-query', label, start, {
    status: m.fallbackCode ? 'fallback' : 'ok',
    texts: m.generated,
    errorCode: m.fallbackCode,
    note: m.fallbackCode ? 'original query only' : null,
  });
  m.generated.forEach((text, i) =>
    ctx.retrievals.push({
      id: `retrieve:q${i + 1}`,
      label: `Generated query ${i + 1}`,
      request: { text },
      inputFrom: 'multi-query',
      essential: false,
    }),
  );
}

/** Step 5b: keyphrase variants (complex route), one retrieval each. */
export function keyphraseStep(ctx: PlanContext): void {
  const label = 'Keyphrase variants';
  if (!ctx.techniques.keyphrases) skip(ctx, 'keyphrases', 'keyphrases', label, OFF);
  else if (ctx.complexity !== 'complex')
    skip(ctx, 'keyphrases', 'keyphrases', label, notOnRoute(ctx));
  else {
    const start = ctx.clock.now();
    // With generated queries one variant is enough; without an LLM they carry the fusion.
    const variants = keyphraseVariants(ctx.q, ctx.generatedCount > 0 ? 1 : 3);
    record(ctx, 'keyphrases', 'keyphrases', label, start, {
      texts: variants,
      note: variants.length ? null : 'no keyphrases found',
    });
    variants.forEach((text, i) =>
      ctx.retrievals.push({
        id: `retrieve:kp${i + 1}`,
        label: `Keyphrase variant ${i + 1}`,
        request: { text },
        inputFrom: 'keyphrases',
        essential: false,
      }),
    );
  }
  checkAbort(ctx);
}
