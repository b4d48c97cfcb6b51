import { describe, expect, it } from 'vitest';
import { createScriptedGenerator } from '../llm/scripted';
import { createError } from '../shared/errors';
import { createQueryPlanner } from './planner';
import { rrf } from './rrf';
import { createBowEmbed, createToySearch, manualClock } from './doubles.testkit';
import type { FuseFn, LlmDep, RankedHit, RetrievalRequest } from './types';
import { loadSynonymIndex } from './wordnet-node';

/** The LLM techniques the defaults leave off (technique-evidence.ts), switched on to test them. */
const ON = { techniques: { rewrite: true, hyde: true, fusion: true, keyphrases: true } };

function setup(opts: { llm?: 'scripted' | 'none' | 'failing'; clockStepPerCall?: number } = {}) {
  const clock = manualClock();
  const g = createScriptedGenerator(
    opts.llm === 'failing' ? { rules: [{ match: /./, fail: 'PROVIDER_ERROR' }] } : {},
  );
  const llm: LlmDep | null =
    opts.llm === 'none'
      ? null
      : {
          kind: 'scripted',
          generate: async (r, o) => {
            clock.advance(opts.clockStepPerCall ?? 100); // each generation "takes" 100 ms of injected time
            return g.generate(r, o);
          },
        };
  const searches: RetrievalRequest[] = [];
  const embedded: string[][] = [];
  const planner = createQueryPlanner({
    search: createToySearch(searches),
    embed: createBowEmbed(embedded),
    llm,
    clock,
    lexicalTopK: async (q, k) =>
      (await createToySearch()({ text: q, limit: k })).map((h) => ({
        id: h.id,
        text: h.text,
        score: h.score,
      })),
    synonyms: async () => loadSynonymIndex(),
  });
  return { planner, g, searches, embedded, clock };
}

describe('query planner', () => {
  it('WSOP-001: a simple query skips expansion (HyDE never called) and runs one retrieval', async () => {
    const { planner, g, searches, embedded } = setup();
    const { plan, hits } = await planner.plan('What year was Python created?', ON);
    expect(plan.complexity).toBe('simple');
    expect(g.calls).toHaveLength(0);
    expect(embedded).toHaveLength(0);
    expect(searches).toHaveLength(1);
    expect(searches[0]).toMatchObject({ text: 'What year was Python created?' });
    expect(searches[0]?.vector).toBeUndefined();
    for (const k of ['hyde', 'rewrite', 'multi-query', 'rm3', 'wordnet'] as const) {
      expect(plan.steps.find((s) => s.kind === k)?.status).toBe('skipped');
    }
    expect(hits[0]?.id).toBe('d9');
    expect(plan.results[0]).toMatchObject({ id: 'd9', contributedBy: ['retrieve:original'] });
  });

  it('moderate: HyDE + a single retrieval with the hypothetical document vector', async () => {
    const { planner, g, searches } = setup();
    const { plan } = await planner.plan('What is RAG in NLP?', ON);
    expect(plan.complexity).toBe('moderate');
    expect(g.calls).toHaveLength(1);
    expect(g.calls[0]?.messages?.[0]?.content).toContain(
      'Write a passage that answers the question.',
    );
    expect(searches).toHaveLength(1);
    expect(searches[0]?.vector).toBeInstanceOf(Int16Array);
    expect(plan.steps.find((s) => s.id === 'hyde')).toMatchObject({
      status: 'ok',
      durationMs: 100,
    });
    expect(plan.steps.find((s) => s.id === 'retrieve:original')?.inputFrom).toBe('hyde');
  });

  it('WSOP-002 / WSOP-008: a complex query engages rewrite, HyDE, multi-query and RRF fusion', async () => {
    const { planner, g, searches } = setup();
    const { plan, hits } = await planner.plan(
      'Compare RAPTOR and HyDE for multi-hop reasoning',
      ON,
    );
    expect(plan.complexity).toBe('complex');
    for (const id of ['rewrite', 'hyde', 'multi-query', 'fuse'])
      expect(plan.steps.find((s) => s.id === id)?.status).toBe('ok');
    expect(g.calls.map((c) => c.temperature)).toEqual([0, 0.7, 0.8]);
    // original + rewrite + hyde + 4 generated + 1 keyphrase variant, all retrieved
    expect(searches.map((s) => s.text)[0]).toBe('Compare RAPTOR and HyDE for multi-hop reasoning');
    expect(searches).toHaveLength(8);
    expect(plan.steps.find((s) => s.id === 'fuse')?.label).toBe('RRF over 8 lists (k = 60)');
    const retrieveSteps = plan.steps.filter((s) => s.kind === 'retrieve');
    const expected = rrf(
      retrieveSteps.map((s) => s.resultIds.map((id) => ({ id, score: 0 }))),
    ).slice(0, 10);
    expect(hits.map((h) => h.id)).toEqual(expected.map((e) => e.id));
    for (const r of plan.results) {
      expect(r.contributedBy.length).toBeGreaterThan(0);
      for (const s of r.contributedBy)
        expect(retrieveSteps.find((x) => x.id === s)?.resultIds).toContain(r.id);
    }
    expect(plan.steps.find((s) => s.id === 'multi-query')?.texts).toHaveLength(4);
  });

  it('retrieves in parallel: every search starts before any finishes', async () => {
    const clock = manualClock();
    let started = 0;
    const release: Array<() => void> = [];
    let maxConcurrent = 0;
    const planner = createQueryPlanner({
      search: (req) =>
        new Promise<RankedHit[]>((resolve) => {
          started++;
          maxConcurrent = Math.max(maxConcurrent, started);
          release.push(() => resolve([{ id: req.text.slice(0, 8), score: 1 }]));
          if (release.length === 8) release.forEach((r) => r());
        }),
      embed: createBowEmbed(),
      llm: { kind: 'scripted', generate: createScriptedGenerator().generate },
      clock,
    });
    await planner.plan('Compare RAPTOR and HyDE for multi-hop reasoning', ON);
    expect(maxConcurrent).toBe(8);
  });

  it('uses an injected fuse function', async () => {
    const { g } = setup();
    let called = 0;
    const fuse: FuseFn = (lists, k) => {
      called++;
      return rrf(lists, k);
    };
    const planner = createQueryPlanner({
      search: createToySearch(),
      embed: createBowEmbed(),
      llm: { kind: 'scripted', generate: g.generate },
      clock: manualClock(),
      fuse,
    });
    await planner.plan('Compare RAPTOR and HyDE for multi-hop reasoning', ON);
    expect(called).toBe(1);
  });

  it('works with no LLM at all: fallbacks, keyphrase variants and LLM-free rewrite still fuse', async () => {
    const { planner, searches } = setup({ llm: 'none' });
    const { plan, hits } = await planner.plan(
      'Compare RAPTOR and HyDE for multi-hop reasoning',
      ON,
    );
    expect(plan.backend).toBe('none');
    expect(plan.steps.find((s) => s.id === 'hyde')).toMatchObject({
      status: 'fallback',
      errorCode: 'NO_BACKEND',
    });
    expect(plan.steps.find((s) => s.id === 'multi-query')).toMatchObject({
      status: 'fallback',
      errorCode: 'NO_BACKEND',
    });
    expect(plan.steps.find((s) => s.id === 'rewrite')).toMatchObject({
      status: 'fallback',
      texts: ['raptor hyde multi-hop reasoning'],
    });
    expect(plan.steps.find((s) => s.id === 'keyphrases')?.texts.length).toBeGreaterThan(1);
    expect(searches.length).toBeGreaterThan(2);
    expect(hits.map((h) => h.id)).toContain('d7');
  });

  it('falls back on backend errors without failing the search', async () => {
    const { planner } = setup({ llm: 'failing' });
    const { plan, hits } = await planner.plan(
      'Compare RAPTOR and HyDE for multi-hop reasoning',
      ON,
    );
    expect(plan.steps.find((s) => s.id === 'hyde')?.errorCode).toBe('PROVIDER_ERROR');
    expect(hits.length).toBeGreaterThan(0);
  });

  it('switches: techniques off are skipped; routing off runs every enabled technique', async () => {
    const { planner, g } = setup();
    const { plan } = await planner.plan('What year was Python created?', {
      techniques: { routing: false, hyde: false, fusion: false, rewrite: true },
    });
    expect(plan.complexity).toBe('complex');
    expect(plan.routeSource).toBe('off');
    expect(plan.steps.find((s) => s.id === 'hyde')).toMatchObject({
      status: 'skipped',
      note: 'switched off',
    });
    expect(g.calls).toHaveLength(1); // the rewrite only
  });

  it('RM3 and WordNet expand the lexical side of the original retrieval', async () => {
    const { planner, searches } = setup({ llm: 'none' });
    const { plan } = await planner.plan('How does aspirin prevent a tumor?', {
      techniques: { rm3: true, wordnet: true, hyde: false },
      complexity: 'moderate',
    });
    expect(plan.steps.find((s) => s.id === 'rm3')?.status).toBe('ok');
    expect(plan.steps.find((s) => s.id === 'wordnet')?.texts.join(' ')).toContain('tumor: tumour');
    expect(searches[0]?.lexicalQuery).toMatch(/ tumour$/);
    // RM3's weighted query repeats the original content words (weight 0.7) before feedback terms
    expect(searches[0]?.lexicalQuery?.startsWith('aspirin aspirin')).toBe(true);
  });

  it('records time per step from the injected clock', async () => {
    const { planner } = setup({ clockStepPerCall: 250 });
    const { plan } = await planner.plan('Compare RAPTOR and HyDE for multi-hop reasoning', ON);
    expect(
      plan.steps
        .filter((s) => ['rewrite', 'hyde', 'multi-query'].includes(s.id))
        .map((s) => s.durationMs),
    ).toEqual([250, 250, 250]);
    expect(plan.totalMs).toBe(750);
  });

  it('a cancelled plan throws ABORTED; an empty query is INVALID_QUERY', async () => {
    const ctrl = new AbortController();
    const planner = createQueryPlanner({
      search: createToySearch(),
      embed: createBowEmbed(),
      llm: {
        kind: 'scripted',
        generate: createScriptedGenerator({ rules: [{ match: /./, hang: true }] }).generate,
      },
      clock: manualClock(),
    });
    const p = planner.plan('Compare RAPTOR and HyDE for multi-hop reasoning', ON, ctrl.signal);
    setTimeout(() => ctrl.abort(), 1);
    await expect(p).rejects.toMatchObject({ code: 'ABORTED' });
    await expect(planner.plan('  ')).rejects.toMatchObject({ code: 'INVALID_QUERY' });
  });

  it('leaves a failing secondary retrieval out but fails when the original retrieval fails', async () => {
    const base = createToySearch();
    const flaky = createQueryPlanner({
      search: async (req) => {
        if (req.vector) throw new Error('vector index not ready');
        return base(req);
      },
      embed: createBowEmbed(),
      llm: { kind: 'scripted', generate: createScriptedGenerator().generate },
      clock: manualClock(),
    });
    const { plan } = await flaky.plan('Compare RAPTOR and HyDE for multi-hop reasoning', ON);
    expect(plan.steps.find((s) => s.id === 'retrieve:hyde')?.status).toBe('fallback');
    const broken = createQueryPlanner({
      search: async () => Promise.reject(new Error('db')),
      embed: createBowEmbed(),
      clock: manualClock(),
    });
    await expect(broken.plan('vitamin D', ON)).rejects.toThrow('db');
  });
});

describe('planner defaults, scope and batching (issue 15)', () => {
  it('with the measured defaults every route is one plain retrieval: nothing generated', async () => {
    for (const q of [
      'What year was Python created?',
      'What is RAG in NLP?',
      'Compare RAPTOR and HyDE for multi-hop reasoning',
    ]) {
      const { planner, g, searches, embedded } = setup();
      const { plan } = await planner.plan(q);
      expect(g.calls).toHaveLength(0);
      expect(embedded).toHaveLength(0);
      expect(searches).toEqual([{ text: q, limit: 10 }]);
      for (const k of ['rewrite', 'hyde', 'multi-query', 'keyphrases', 'rm3', 'wordnet'])
        expect(plan.steps.find((s) => s.kind === k)?.note).toBe('switched off');
    }
  });

  it('every retrieval and the RM3 first pass search in the request mode and filters', async () => {
    const feedback: unknown[] = [];
    const searches: RetrievalRequest[] = [];
    const toy = createToySearch(searches);
    const planner = createQueryPlanner({
      search: toy,
      embed: createBowEmbed(),
      llm: { kind: 'scripted', generate: createScriptedGenerator().generate },
      clock: manualClock(),
      lexicalTopK: async (q, k, _signal, filters) => {
        feedback.push(filters);
        return (await toy({ text: q, limit: k })).map((h) => ({ ...h }));
      },
    });
    const filters = { pathGlob: 'notes/**' };
    await planner.plan(
      { query: 'Compare RAPTOR and HyDE for multi-hop reasoning', mode: 'hybrid', filters },
      { techniques: { ...ON.techniques, routing: false, rm3: true } },
    );
    expect(searches.length).toBeGreaterThan(4);
    for (const r of searches.slice(1)) expect(r).toMatchObject({ mode: 'hybrid', filters });
    expect(feedback).toEqual([filters]);
  });

  it('embeds the original before generating and the variants in one call; none in keyword mode', async () => {
    const batches: string[][] = [];
    const searches: RetrievalRequest[] = [];
    const order: string[] = [];
    const bow = createBowEmbed(batches);
    const generate = createScriptedGenerator().generate;
    const planner = createQueryPlanner({
      search: createToySearch(searches),
      embed: createBowEmbed(),
      embedQueries: (texts, o) => (order.push('embed'), bow(texts, o)),
      llm: { kind: 'scripted', generate: (r, o) => (order.push('generate'), generate(r, o)) },
      clock: manualClock(),
    });
    const opts = { techniques: { fusion: true, routing: false } };
    const { plan } = await planner.plan('Compare RAPTOR and HyDE for multi-hop reasoning', opts);
    // The original query's vector is started before the model writes the variants.
    expect(order.slice(0, 2)).toEqual(['embed', 'generate']);
    expect(batches).toEqual([[searches[0]!.text], searches.slice(1).map((r) => r.text)]);
    expect(searches[0]!.text).toBe('Compare RAPTOR and HyDE for multi-hop reasoning');
    expect(plan.steps.find((s) => s.id === 'embed:original')?.kind).toBe('embed');
    const vectors = await Promise.all(searches.map(async (r) => r.pendingVector));
    expect(vectors.every((v) => v instanceof Int16Array)).toBe(true);
    expect(plan.steps.find((s) => s.id === 'embed')?.note).toMatch(
      /^4 queries embedded in one call/,
    );
    searches.length = 0;
    await planner.plan({ query: 'Compare RAPTOR and HyDE', mode: 'lexical' }, opts);
    expect(batches).toHaveLength(2);
    expect(searches.every((r) => r.vector === undefined && !r.pendingVector)).toBe(true);
  });

  it('embeds a text two techniques produced once and gives both retrievals its vector', async () => {
    const batches: string[][] = [];
    const searches: RetrievalRequest[] = [];
    const bow = createBowEmbed(batches);
    const same = 'raptor hyde multi-hop comparison';
    const generate = createScriptedGenerator({
      rules: [
        { match: /Generate \d+ different search queries/, reply: `${same}\nraptor tree summaries` },
        { match: /rewrite/i, reply: same },
      ],
    }).generate;
    const planner = createQueryPlanner({
      search: createToySearch(searches),
      embed: createBowEmbed(),
      embedQueries: bow,
      llm: { kind: 'scripted', generate },
      clock: manualClock(),
    });
    const q = 'Compare RAPTOR and HyDE for multi-hop reasoning';
    const { plan } = await planner.plan(q, {
      techniques: { rewrite: true, fusion: true, routing: false },
    });
    const texts = searches.map((r) => r.text);
    expect(texts.filter((t) => t === same)).toHaveLength(2); // the rewrite and a generated query
    expect(batches).toEqual([[q], [same, 'raptor tree summaries']]);
    const vectors = await Promise.all(searches.map(async (r) => r.pendingVector));
    const [sameVector] = await createBowEmbed()([same]);
    searches.forEach((r, i) => {
      if (r.text === same) expect(vectors[i]).toEqual(sameVector);
    });
    expect(plan.steps.find((s) => s.id === 'embed')?.note).toMatch(
      /^2 queries embedded in one call.*1 repeated text embedded once$/,
    );
  });

  it('starts every retrieval while the query embedding batch is still running', async () => {
    const searches: RetrievalRequest[] = [];
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => (release = r));
    const bow = createBowEmbed();
    const planner = createQueryPlanner({
      search: createToySearch(searches),
      embed: bow,
      // The embed worker: answers only when the test lets it.
      embedQueries: async (texts) => (await held, bow(texts)),
      llm: { kind: 'scripted', generate: createScriptedGenerator().generate },
      clock: manualClock(),
    });
    let done = false;
    const planned = planner
      .plan('Compare RAPTOR and HyDE for multi-hop reasoning', {
        techniques: { fusion: true, routing: false },
      })
      .then((out) => ((done = true), out));
    for (let i = 0; i < 20 && searches.length < 5; i++) await new Promise((r) => setTimeout(r, 0));
    // All five retrievals were called (their keyword sides can run) before any vector exists.
    expect(searches).toHaveLength(5);
    expect(done).toBe(false);
    release();
    const { plan } = await planned;
    const vectors = await Promise.all(searches.map(async (r) => r.pendingVector));
    expect(vectors).toEqual(await bow(searches.map((r) => r.text)));
    const embedStep = plan.steps.findIndex((s) => s.id === 'embed');
    expect(embedStep).toBeGreaterThan(-1);
    expect(embedStep).toBeLessThan(plan.steps.findIndex((s) => s.kind === 'retrieve'));
  });

  it('a failed embedding batch leaves each retrieval to embed its own query', async () => {
    const searches: RetrievalRequest[] = [];
    const planner = createQueryPlanner({
      search: createToySearch(searches),
      embed: createBowEmbed(),
      embedQueries: async () => {
        throw createError('MODEL_LOAD_FAILED', { reason: 'not yet' });
      },
      llm: { kind: 'scripted', generate: createScriptedGenerator().generate },
      clock: manualClock(),
    });
    const { plan, hits } = await planner.plan('Compare RAPTOR and HyDE for multi-hop reasoning', {
      techniques: { fusion: true, routing: false },
    });
    expect(await Promise.all(searches.map(async (r) => r.pendingVector))).toEqual(
      searches.map(() => null),
    );
    expect(plan.steps.find((s) => s.id === 'embed')).toMatchObject({
      status: 'fallback',
      errorCode: 'MODEL_LOAD_FAILED',
    });
    expect(hits.length).toBeGreaterThan(0);
  });
});

describe('LLM worker adapter', () => {
  it('turns an abort into api.cancel(requestId) and passes the result through', async () => {
    const { llmDepFromApi } = await import('./llm-adapter');
    const { createLlmService } = await import('../llm/service');
    const svc = createLlmService({ env: {}, fetch });
    await svc.useScripted();
    const dep = llmDepFromApi(svc, 'scripted');
    expect((await dep.generate({ prompt: 'Question: x?' })).text.length).toBeGreaterThan(0);
    const ctrl = new AbortController();
    const cancelled: string[] = [];
    const spy = {
      generate: svc.generate,
      cancel: (id: string) => (cancelled.push(id), svc.cancel(id)),
    };
    const p = llmDepFromApi(spy, 'scripted').generate(
      { prompt: 'Question: y?', maxTokens: 200 },
      { signal: ctrl.signal },
    );
    ctrl.abort();
    await expect(p).rejects.toMatchObject({ code: 'ABORTED' });
    expect(cancelled).toHaveLength(1);
  });
});

describe('research service', () => {
  it('plans with SearchHit-shaped results, swaps the LLM, and cancels by request id', async () => {
    const { createResearchService } = await import('./service');
    const hit = (chunkId: number, path: string) => ({
      id: String(chunkId),
      chunkId,
      documentId: chunkId,
      path,
      title: path,
      mime: 'text/plain',
      seq: 0,
      start: 0,
      end: 1,
      score: 1 / chunkId,
      snippet: { text: path, highlights: [] },
      ranks: {},
    });
    const svc = createResearchService({
      search: async () => [hit(1, 'a.txt'), hit(2, 'b.txt')],
      present: async (_q, hits) => hits,
      embed: createBowEmbed(),
      clock: manualClock(),
    });
    const r1 = await svc.planQuery(
      { query: 'Compare RAPTOR and HyDE for multi-hop reasoning' },
      ON,
    );
    expect(r1.plan.backend).toBe('none');
    expect(r1.hits.map((h) => h.path)).toEqual(['a.txt', 'b.txt']);
    svc.setLlm({
      kind: 'scripted',
      generate: createScriptedGenerator({ rules: [{ match: /./, hang: true }] }).generate,
    });
    const p = svc.planQuery({ query: 'Compare RAPTOR and HyDE for multi-hop reasoning' }, ON, 'r2');
    setTimeout(() => void svc.cancel('r2'), 1);
    await expect(p).rejects.toMatchObject({ code: 'ABORTED' });
  });
});
