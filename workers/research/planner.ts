// The query planner (WSOP section 5): routes a query by complexity, applies the enabled
// techniques for that route, retrieves (in parallel), fuses with RRF, and records a QueryPlan
// (route, generated texts, time per step, which results each retrieval contributed) for the UI.
//   simple   -> one retrieval of the query, no expansion (WSOP-001)
//   moderate -> HyDE (+ RM3 / WordNet on the lexical side) and a single retrieval
//   complex  -> rewrite + HyDE + multi-query (+ keyphrase variants) retrieved in parallel, RRF (WSOP-002)
// Routing switched off = the complex route with whatever techniques are on. Every dependency is
// injected (search, embed, generate, fuse, lexical top-k, synonyms, clock).
import { createError, isAppError } from '../shared/errors';
import {
  DEFAULT_TECHNIQUES,
  type Complexity,
  type PlanOptions,
  type PlanStep,
  type PlanStepKind,
  type QueryPlan,
  type TechniqueSwitches,
} from '../shared/research-api';
import type { TtlCache } from './cache';
import { createMultiQuery } from './fusion';
import { createHyde } from './hyde';
import { keyphraseVariants } from './keyphrases';
import { createRewriter } from './rewrite';
import { createRm3, type Rm3Config } from './rm3';
import { routeQuery } from './routing';
import { rrf } from './rrf';
import type {
  Clock,
  EmbedFn,
  FuseFn,
  LexicalTopKFn,
  LlmDep,
  RankedHit,
  RetrievalRequest,
  SearchFn,
  Timers,
} from './types';
import { expandWithSynonyms, type SynonymIndex } from './wordnet';

export interface PlannerDeps<H extends RankedHit> {
  search: SearchFn<H>;
  embed: EmbedFn;
  llm?: LlmDep | null;
  /** Defaults to the local RRF (k = 60); inject workers/search's RRF to share one implementation. */
  fuse?: FuseFn;
  /** Needed by RM3 (first-pass lexical documents with text). */
  lexicalTopK?: LexicalTopKFn;
  /** Needed by WordNet expansion: the index or a lazy loader (the JSON is fetched on first use). */
  synonyms?: SynonymIndex | (() => Promise<SynonymIndex>);
  clock: Clock;
  timers?: Timers;
  hydeCache?: TtlCache<{ vector: Int16Array; documents: string[] }>;
  /** Per LLM step. Default 30 s. */
  stepTimeoutMs?: number;
  /**
   * RM3 parameters. Default fbDocs 5, fbTerms 5, originalWeight 0.8: of the settings tried on
   * SciFact (lexical; Anserini's 10/10/0.5 lost 3 nDCG@10 points) this one lost least (-0.2)
   * while raising Recall@100 (+0.7).
   */
  rm3?: Rm3Config;
}

export interface PlanOutput<H extends RankedHit> {
  plan: QueryPlan;
  hits: H[];
}

interface Retrieval {
  id: string;
  label: string;
  request: Omit<RetrievalRequest, 'limit' | 'signal'>;
  inputFrom: string | null;
  essential: boolean;
}

export function createQueryPlanner<H extends RankedHit>(deps: PlannerDeps<H>) {
  const timers = deps.timers;
  const hyde = createHyde({
    llm: deps.llm ?? null,
    embed: deps.embed,
    clock: deps.clock,
    ...(deps.hydeCache ? { cache: deps.hydeCache } : {}),
    ...(timers ? { timers } : {}),
  });
  const rewriter = createRewriter({ llm: deps.llm ?? null, ...(timers ? { timers } : {}) });
  const multi = createMultiQuery({ llm: deps.llm ?? null, ...(timers ? { timers } : {}) });
  const fuse: FuseFn = deps.fuse ?? rrf;
  let synonymIndex: SynonymIndex | null = deps.synonyms instanceof Map ? deps.synonyms : null;

  /**
   * Plans and runs a query.
   * @throws AppError ABORTED when `signal` fires; search errors of the original-query retrieval.
   */
  async function plan(
    query: string,
    options: PlanOptions = {},
    signal?: AbortSignal,
  ): Promise<PlanOutput<H>> {
    const q = query.trim();
    if (!q) throw createError('INVALID_QUERY', { reason: 'The query is empty.' });
    const techniques: TechniqueSwitches = { ...DEFAULT_TECHNIQUES, ...options.techniques };
    const limit = options.limit ?? 10;
    const perQuery = Math.max(limit, 10);
    const timeoutMs = deps.stepTimeoutMs;
    const t0 = deps.clock.now();
    const steps: PlanStep[] = [];
    const checkAbort = () => {
      if (signal?.aborted) throw createError('ABORTED');
    };

    function record(
      id: string,
      kind: PlanStepKind,
      label: string,
      start: number,
      fields: Partial<PlanStep> = {},
    ): PlanStep {
      const step: PlanStep = {
        id,
        kind,
        label,
        status: 'ok',
        startMs: start - t0,
        durationMs: deps.clock.now() - start,
        texts: [],
        resultIds: [],
        uniqueIds: [],
        inputFrom: null,
        note: null,
        errorCode: null,
        ...fields,
      };
      steps.push(step);
      return step;
    }
    const skip = (id: string, kind: PlanStepKind, label: string, note: string) =>
      record(id, kind, label, deps.clock.now(), { status: 'skipped', note });

    // 1. Route.
    let start = deps.clock.now();
    let complexity: Complexity;
    let routeReason: string;
    let routeSource: QueryPlan['routeSource'];
    if (options.complexity) {
      complexity = options.complexity;
      routeReason = `${complexity} (chosen by the caller)`;
      routeSource = 'forced';
    } else if (!techniques.routing) {
      complexity = 'complex';
      routeReason = 'routing off: every enabled technique runs';
      routeSource = 'off';
    } else {
      const d = await routeQuery(q, {
        llm: deps.llm ?? null,
        useLlm: techniques.llmRouting,
        ...(signal ? { signal } : {}),
        ...(timeoutMs ? { timeoutMs } : {}),
        ...(timers ? { timers } : {}),
      });
      complexity = d.complexity;
      routeReason = d.reason + (d.llmCode ? ` (model check failed: ${d.llmCode})` : '');
      routeSource = d.source;
    }
    record('route', 'route', 'Complexity routing', start, {
      texts: [complexity],
      note: routeReason,
    });
    checkAbort();

    const notOnRoute = `the ${complexity} route does not use it`;
    const off = 'switched off';

    // 2. LLM-free lexical expansion (moderate and complex routes).
    let lexicalQuery: string | undefined;
    const expand = complexity !== 'simple';
    if (!techniques.rm3) skip('rm3', 'rm3', 'RM3 feedback', off);
    else if (!expand) skip('rm3', 'rm3', 'RM3 feedback', notOnRoute);
    else if (!deps.lexicalTopK)
      skip('rm3', 'rm3', 'RM3 feedback', 'no lexical search was provided');
    else {
      start = deps.clock.now();
      try {
        const r = await createRm3({ lexicalTopK: deps.lexicalTopK }).expand(
          q,
          { fbDocs: 5, fbTerms: 5, originalWeight: 0.8, ...deps.rm3 },
          signal,
        );
        // The weighted form keeps the original terms dominant (plain appending lost 8 nDCG points).
        lexicalQuery = r.weightedQuery;
        record('rm3', 'rm3', 'RM3 feedback', start, {
          texts: r.added,
          note: `${r.feedbackDocs} feedback documents`,
        });
      } catch (err) {
        checkAbort();
        record('rm3', 'rm3', 'RM3 feedback', start, {
          status: 'fallback',
          errorCode: isAppError(err) ? err.code : 'INTERNAL',
          note: 'first-pass search failed: query used as is',
        });
      }
    }
    if (!techniques.wordnet) skip('wordnet', 'wordnet', 'WordNet synonyms', off);
    else if (!expand) skip('wordnet', 'wordnet', 'WordNet synonyms', notOnRoute);
    else if (!deps.synonyms)
      skip('wordnet', 'wordnet', 'WordNet synonyms', 'no synonym index was provided');
    else {
      start = deps.clock.now();
      try {
        if (!synonymIndex && typeof deps.synonyms === 'function')
          synonymIndex = await deps.synonyms();
        // One synonym per word, and the original doubled so synonyms weigh half (on SciFact,
        // 2 synonyms appended at full weight lost 3 nDCG@10 points; this setting lost 0.5).
        const r = expandWithSynonyms(q, synonymIndex ?? new Map<string, string[]>(), {
          maxPerTerm: 1,
        });
        const extra = r.added.flatMap((a) => a.synonyms);
        if (extra.length) lexicalQuery = `${lexicalQuery ?? `${q} ${q}`} ${extra.join(' ')}`;
        record('wordnet', 'wordnet', 'WordNet synonyms', start, {
          texts: r.added.map((a) => `${a.term}: ${a.synonyms.join(', ')}`),
          note: extra.length ? null : 'no synonyms for these words',
        });
      } catch (err) {
        record('wordnet', 'wordnet', 'WordNet synonyms', start, {
          status: 'fallback',
          errorCode: isAppError(err) ? err.code : 'INTERNAL',
          note: 'synonym index unavailable',
        });
      }
    }
    checkAbort();

    const retrievals: Retrieval[] = [
      {
        id: 'retrieve:original',
        label: 'Original query',
        request: { text: q, ...(lexicalQuery ? { lexicalQuery } : {}) },
        inputFrom: lexicalQuery ? 'rm3/wordnet' : null,
        essential: true,
      },
    ];

    // 3. Rewrite (complex only).
    let base = q;
    if (!techniques.rewrite) skip('rewrite', 'rewrite', 'Query rewrite', off);
    else if (complexity !== 'complex') skip('rewrite', 'rewrite', 'Query rewrite', notOnRoute);
    else {
      start = deps.clock.now();
      const r = await rewriter.rewrite(q, {
        ...(signal ? { signal } : {}),
        ...(timeoutMs ? { timeoutMs } : {}),
      });
      const fellBack = r.source !== 'llm';
      record('rewrite', 'rewrite', 'Query rewrite', start, {
        status: fellBack ? 'fallback' : 'ok',
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
        base = r.rewritten;
        retrievals.push({
          id: 'retrieve:rewrite',
          label: 'Rewritten query',
          request: { text: base },
          inputFrom: 'rewrite',
          essential: false,
        });
      }
    }
    checkAbort();

    // 4. HyDE (moderate and complex).
    if (!techniques.hyde) skip('hyde', 'hyde', 'HyDE', off);
    else if (complexity === 'simple') skip('hyde', 'hyde', 'HyDE', notOnRoute);
    else {
      start = deps.clock.now();
      const h = await hyde.expand(
        base,
        {
          samples: options.hydeSamples ?? 1,
          includeQuery: options.hydeIncludeQuery ?? false,
          ...(timeoutMs ? { timeoutMs } : {}),
        },
        signal,
      );
      const ok = h.source !== 'fallback';
      record('hyde', 'hyde', 'HyDE hypothetical document', start, {
        status: ok ? 'ok' : 'fallback',
        texts: h.documents,
        errorCode: ok ? null : h.fallbackCode,
        note: ok
          ? h.source === 'cache'
            ? `from cache (${h.cacheKey})`
            : `${h.documents.length} sample(s) embedded`
          : 'raw query embedding used',
      });
      if (complexity === 'moderate') {
        const original = retrievals[0];
        // Moderate = HyDE + single retrieval: the hypothetical document's vector replaces the query's.
        if (original && ok) {
          original.request = { ...original.request, vector: h.vector };
          original.inputFrom = 'hyde';
        }
      } else if (ok) {
        retrievals.push({
          id: 'retrieve:hyde',
          label: 'HyDE vector',
          request: { text: base, vector: h.vector },
          inputFrom: 'hyde',
          essential: false,
        });
      }
    }
    checkAbort();

    // 5. Multi-query and keyphrase variants (complex).
    let generatedCount = 0;
    if (!techniques.fusion) skip('multi-query', 'multi-query', 'RAG-Fusion queries', off);
    else if (complexity !== 'complex')
      skip('multi-query', 'multi-query', 'RAG-Fusion queries', notOnRoute);
    else {
      start = deps.clock.now();
      const m = await multi.generate(q, {
        numQueries: options.fusionQueries ?? 4,
        ...(signal ? { signal } : {}),
        ...(timeoutMs ? { timeoutMs } : {}),
      });
      generatedCount = m.generated.length;
      record('multi-query', 'multi-query', 'RAG-Fusion queries', start, {
        status: m.fallbackCode ? 'fallback' : 'ok',
        texts: m.generated,
        errorCode: m.fallbackCode,
        note: m.fallbackCode ? 'original query only' : null,
      });
      m.generated.forEach((text, i) =>
        retrievals.push({
          id: `retrieve:q${i + 1}`,
          label: `Generated query ${i + 1}`,
          request: { text },
          inputFrom: 'multi-query',
          essential: false,
        }),
      );
    }
    if (!techniques.keyphrases) skip('keyphrases', 'keyphrases', 'Keyphrase variants', off);
    else if (complexity !== 'complex')
      skip('keyphrases', 'keyphrases', 'Keyphrase variants', notOnRoute);
    else {
      start = deps.clock.now();
      // With generated queries one variant is enough; without an LLM they carry the fusion.
      const variants = keyphraseVariants(q, generatedCount > 0 ? 1 : 3);
      record('keyphrases', 'keyphrases', 'Keyphrase variants', start, {
        texts: variants,
        note: variants.length ? null : 'no keyphrases found',
      });
      variants.forEach((text, i) =>
        retrievals.push({
          id: `retrieve:kp${i + 1}`,
          label: `Keyphrase variant ${i + 1}`,
          request: { text },
          inputFrom: 'keyphrases',
          essential: false,
        }),
      );
    }
    checkAbort();

    // 6. Retrieve in parallel.
    const settled = await Promise.allSettled(
      retrievals.map(async (r) => {
        const s = deps.clock.now();
        const hits = await deps.search({
          ...r.request,
          limit: perQuery,
          ...(signal ? { signal } : {}),
        });
        return { hits, start: s, end: deps.clock.now() };
      }),
    );
    checkAbort();
    const lists: Array<{ r: Retrieval; hits: H[]; step: PlanStep }> = [];
    settled.forEach((res, i) => {
      const r = retrievals[i] as Retrieval;
      if (res.status === 'rejected') {
        if (r.essential) throw res.reason;
        const now = deps.clock.now();
        record(r.id, 'retrieve', r.label, now, {
          status: 'fallback',
          inputFrom: r.inputFrom,
          texts: [r.request.text],
          errorCode: isAppError(res.reason) ? res.reason.code : 'INTERNAL',
          note: 'retrieval failed: left out of the fusion',
        });
        return;
      }
      const step: PlanStep = {
        id: r.id,
        kind: 'retrieve',
        label: r.label,
        status: 'ok',
        startMs: res.value.start - t0,
        durationMs: res.value.end - res.value.start,
        texts: [
          r.request.lexicalQuery && r.request.lexicalQuery !== r.request.text
            ? r.request.lexicalQuery
            : r.request.text,
        ],
        resultIds: res.value.hits.map((h) => h.id),
        uniqueIds: [],
        inputFrom: r.inputFrom,
        note: r.request.vector ? 'semantic side searched with the HyDE vector' : null,
        errorCode: null,
      };
      steps.push(step);
      lists.push({ r, hits: res.value.hits, step });
    });
    for (const l of lists) {
      const others = new Set(lists.filter((o) => o !== l).flatMap((o) => o.step.resultIds));
      l.step.uniqueIds = l.step.resultIds.filter((id) => !others.has(id));
    }

    // 7. Fuse.
    let finalHits: Array<{ id: string; score: number; hit: H }>;
    if (lists.length > 1) {
      start = deps.clock.now();
      finalHits = fuse(
        lists.map((l) => l.hits),
        60,
      ).slice(0, limit);
      record('fuse', 'fuse', `RRF over ${lists.length} lists (k = 60)`, start, {
        resultIds: finalHits.map((h) => h.id),
      });
    } else {
      finalHits = (lists[0]?.hits ?? [])
        .slice(0, limit)
        .map((hit) => ({ id: hit.id, score: hit.score, hit }));
      skip('fuse', 'fuse', 'RRF fusion', 'a single retrieval: nothing to fuse');
    }
    const results = finalHits.map((h) => ({
      id: h.id,
      score: h.score,
      contributedBy: lists.filter((l) => l.step.resultIds.includes(h.id)).map((l) => l.r.id),
    }));
    return {
      plan: {
        query: q,
        complexity,
        routeReason,
        routeSource,
        techniques,
        backend: deps.llm?.kind ?? 'none',
        steps,
        results,
        totalMs: deps.clock.now() - t0,
      },
      hits: finalHits.map((h) => h.hit),
    };
  }

  return { plan };
}
