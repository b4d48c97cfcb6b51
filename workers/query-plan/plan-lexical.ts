// The planner's first steps: complexity routing, then the LLM-free lexical expansions (RM3
// feedback and WordNet synonyms) that rewrite the lexical side of the original retrieval on the
// moderate and complex routes.
import { isAppError } from '../shared/errors';
import {
  checkAbort,
  notInMode,
  notOnRoute,
  OFF,
  record,
  skip,
  type PlanContext,
} from './plan-context';
import { createRm3, type Rm3Config } from './rm3';
import { routeQuery } from './routing';
import type { LexicalTopKFn, LlmDep, Timers } from './types';
import { expandWithSynonyms, type SynonymIndex } from './wordnet';

/** Step 1: classify the query (or take the caller's route, or "complex" with routing off). */
export async function routeStep(
  ctx: PlanContext,
  llm: LlmDep | null,
  timers: Timers | undefined,
): Promise<void> {
  const start = ctx.clock.now();
  if (ctx.options.complexity) {
    ctx.complexity = ctx.options.complexity;
    ctx.routeReason = `${ctx.complexity} (chosen by the caller)`;
    ctx.routeSource = 'forced';
  } else if (!ctx.techniques.routing) {
    ctx.complexity = 'complex';
    ctx.routeReason = 'routing off: every enabled technique runs';
    ctx.routeSource = 'off';
  } else {
    const d = await routeQuery(ctx.q, {
      llm,
      useLlm: ctx.techniques.llmRouting,
      ...(ctx.signal ? { signal: ctx.signal } : {}),
      ...(ctx.timeoutMs ? { timeoutMs: ctx.timeoutMs } : {}),
      ...(timers ? { timers } : {}),
    });
    ctx.complexity = d.complexity;
    ctx.routeReason = d.reason + (d.llmCode ? ` (model check failed: ${d.llmCode})` : '');
    ctx.routeSource = d.source;
  }
  record(ctx, 'route', 'route', 'Complexity routing', start, {
    texts: [ctx.complexity],
    note: ctx.routeReason,
  });
  checkAbort(ctx);
}

/** Step 2a: RM3 pseudo-relevance feedback (moderate and complex routes). */
export async function rm3Step(
  ctx: PlanContext,
  lexicalTopK: LexicalTopKFn | undefined,
  rm3: Rm3Config | undefined,
): Promise<void> {
  const label = 'RM3 feedback';
  if (!ctx.techniques.rm3) return void skip(ctx, 'rm3', 'rm3', label, OFF);
  if (ctx.complexity === 'simple') return void skip(ctx, 'rm3', 'rm3', label, notOnRoute(ctx));
  const wrongMode = notInMode(ctx, 'lexical');
  if (wrongMode) return void skip(ctx, 'rm3', 'rm3', label, wrongMode);
  if (!lexicalTopK) return void skip(ctx, 'rm3', 'rm3', label, 'no lexical search was provided');
  const start = ctx.clock.now();
  try {
    const filters = ctx.scope.filters;
    const scoped: LexicalTopKFn = (q, k, signal) => lexicalTopK(q, k, signal, filters);
    const r = await createRm3({ lexicalTopK: scoped }).expand(
      ctx.q,
      { fbDocs: 5, fbTerms: 5, originalWeight: 0.8, ...rm3 },
      ctx.signal,
    );
    // The weighted form keeps the original terms dominant (plain appending lost 8 nDCG points).
    ctx.lexicalQuery = r.weightedQuery;
    record(ctx, 'rm3', 'rm3', label, start, {
      texts: r.added,
      note: `${r.feedbackDocs} feedback documents`,
    });
  } catch (err) {
    checkAbort(ctx);
    record(ctx, 'rm3', 'rm3', label, start, {
      status: 'fallback',
      errorCode: isAppError(err) ? err.code : 'INTERNAL',
      note: 'first-pass search failed: query used as is',
    });
  }
}

/** Step 2b: WordNet synonyms appended to the lexical side (moderate and complex routes). */
export async function wordnetStep(
  ctx: PlanContext,
  synonyms: () => Promise<SynonymIndex> | null,
): Promise<void> {
  const label = 'WordNet synonyms';
  if (!ctx.techniques.wordnet) skip(ctx, 'wordnet', 'wordnet', label, OFF);
  else if (ctx.complexity === 'simple') skip(ctx, 'wordnet', 'wordnet', label, notOnRoute(ctx));
  else if (notInMode(ctx, 'lexical'))
    skip(ctx, 'wordnet', 'wordnet', label, notInMode(ctx, 'lexical') ?? '');
  else {
    const load = synonyms();
    if (!load) skip(ctx, 'wordnet', 'wordnet', label, 'no synonym index was provided');
    else {
      const start = ctx.clock.now();
      try {
        const index = await load;
        // One synonym per word, and the original doubled so synonyms weigh half (on SciFact,
        // 2 synonyms appended at full weight lost 3 nDCG@10 points; this setting lost 0.5).
        const r = expandWithSynonyms(ctx.q, index, { maxPerTerm: 1 });
        const extra = r.added.flatMap((a) => a.synonyms);
        if (extra.length)
          ctx.lexicalQuery = `${ctx.lexicalQuery ?? `${ctx.q} ${ctx.q}`} ${extra.join(' ')}`;
        record(ctx, 'wordnet', 'wordnet', label, start, {
          texts: r.added.map((a) => `${a.term}: ${a.synonyms.join(', ')}`),
          note: extra.length ? null : 'no synonyms for these words',
        });
      } catch (err) {
        record(ctx, 'wordnet', 'wordnet', label, start, {
          status: 'fallback',
          errorCode: isAppError(err) ? err.code : 'INTERNAL',
          note: 'synonym index unavailable',
        });
      }
    }
  }
  checkAbort(ctx);
}
