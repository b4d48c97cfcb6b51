// A claim check on a real in-memory library with the shipped stance model on real USE-lite.
import { readFileSync } from 'node:fs';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createNodeKernel, readUseLiteFile } from '../embed/node-kernel';
import { loadUseLite } from '../embed/use-lite';
import { doc, openTestLibrary, put, type TestLibrary } from '../store/store.testkit';
import type { SearchHit } from '../shared/types';
import { checkClaim, retrievalContexts, shareBudget, type ClaimCheckDeps } from './claim-check';
import type { EvidenceGate } from './evidence-gate';
import { createEvidenceJudge, type EvidenceJudge } from './evidence';
import { createProjectStore } from './project-store';
import { provenanceOf } from './provenance';
import { createStanceModel, type FittedStanceModel } from './stance-model';

let judge: EvidenceJudge;
let judgeModel: ReturnType<typeof createStanceModel>;
let embed: (t: string[]) => Promise<Int16Array[]>;
let lib: TestLibrary;
let deps: ClaimCheckDeps;
const ids: number[] = [];

beforeAll(async () => {
  const fitted = JSON.parse(
    readFileSync(new URL('../fitted/stance-use-lite.json', import.meta.url), 'utf8'),
  ) as FittedStanceModel;
  const m = await loadUseLite(await createNodeKernel(), readUseLiteFile);
  embed = async (t: string[]) => t.map((x) => m.embedInt16(x));
  judgeModel = createStanceModel(fitted, m.dim);
  judge = createEvidenceJudge({ model: judgeModel, embed: { claims: embed, sentences: embed } });
});

beforeEach(async () => {
  lib = await openTestLibrary();
  ids.length = 0;
  for (const [path, text] of [
    [
      'https://journal.example.org/a',
      'In a trial of 2,000 adults, vitamin D supplementation reduced hip fracture risk by 30%.',
    ],
    [
      'https://news.example.com/b',
      'Vitamin D supplementation did not reduce hip fracture risk in older women.',
    ],
    ['notes/bridge.txt', 'The bridge was opened in 1932 and spans 503 metres.'],
  ] as const) {
    ids.push((await put(lib.store, doc(path, text))).documentId);
  }
  deps = {
    judge,
    search: (r) => lib.search.search(r),
    async documentText(id) {
      const d = (await lib.store.listDocuments()).find((x) => x.id === id);
      return d ? (await lib.store.getDocument(id)).text : null;
    },
    async provenance(id) {
      const d = (await lib.store.listDocuments()).find((x) => x.id === id);
      return d
        ? provenanceOf({ location: d.path, title: d.title, date: d.importedAt }, undefined)
        : null;
    },
    now: () => 0,
  };
});

afterEach(() => lib.close());

describe('checkClaim', () => {
  it('judges the sources the search finds and triangulates them, the same way twice', async () => {
    const a = await checkClaim(deps, 'Vitamin D reduces hip fracture risk.');
    expect(a.evidence.map((e) => e.documentId).sort()).toEqual([ids[0], ids[1]].sort());
    expect(['VERIFIED', 'LIKELY', 'UNVERIFIED', 'CONTESTED']).toContain(a.triangulation.status);
    for (const s of a.triangulation.supporting) expect(s.stance).toBe('SUPPORT');
    for (const s of a.triangulation.contradicting) expect(s.stance).toBe('CONTRADICT');
    expect(await checkClaim(deps, 'Vitamin D reduces hip fracture risk.')).toEqual(a);
  });

  it('scopes to a project and skips a source deleted mid-check', async () => {
    const projects = createProjectStore(lib.db.sql);
    const p = await projects.create('Bones');
    await projects.addDocuments(p.id, [ids[1]!]);
    const scoped = await checkClaim(deps, 'Vitamin D reduces hip fracture risk.', {
      project: p.id,
    });
    expect(scoped.evidence.map((e) => e.documentId)).toEqual([ids[1]]);

    const vanishing: ClaimCheckDeps = {
      ...deps,
      async documentText(id) {
        if (id === ids[0]) await lib.store.deleteDocument(id);
        return deps.documentText(id);
      },
    };
    const r = await checkClaim(vanishing, 'Vitamin D reduces hip fracture risk.');
    expect(r.skipped).toEqual([ids[0]]);
    expect(r.evidence.map((e) => e.documentId)).toEqual([ids[1]]);
  });

  it('stops with ABORTED when cancelled', async () => {
    await expect(
      checkClaim(deps, 'Vitamin D reduces hip fracture risk.', { signal: { aborted: true } }),
    ).rejects.toMatchObject({ code: 'ABORTED' });
  });

  it('embeds at most the sentence budget, in one call, and judges like the unbudgeted check', async () => {
    const calls: number[] = [];
    const counting: ClaimCheckDeps = {
      ...deps,
      judge: {
        ...judge,
        async embedSentences(texts) {
          calls.push(texts.length);
          return judge.embedSentences(texts);
        },
      },
    };
    const claim = 'Vitamin D reduces hip fracture risk.';
    const capped = await checkClaim(counting, claim, { sentenceBudget: 1 });
    expect(calls).toEqual([1]);
    expect(capped.evidence.map((e) => e.judgement.sentences.length).sort()).toEqual([0, 1]);
    calls.length = 0;
    const full = await checkClaim(counting, claim, { sentenceBudget: Infinity });
    expect(calls).toHaveLength(1);
    // One sentence per source here: the default budget judges exactly what judge() judges.
    for (const e of full.evidence) {
      const text = await deps.documentText(e.documentId);
      const alone = await judge.judge(await judge.claimView(claim), text!);
      expect(e.judgement).toEqual(alone);
    }
  });

  it("passes each source's search position to the judge's evidence gate", async () => {
    const claim = 'Vitamin D reduces hip fracture risk.';
    const plain = await checkClaim(deps, claim);
    expect(plain.evidence.map((e) => e.retrieval.rank)).toEqual([0, 1]);
    // A gate that reads only the rank: the first source keeps its label, the second is NEUTRAL.
    const firstOnly: EvidenceGate = {
      features: ['rankInv'],
      weights: [4],
      bias: 0,
      mean: [0.75],
      scale: [1],
      threshold: 0.5,
    };
    const gated = await checkClaim(
      {
        ...deps,
        judge: createEvidenceJudge({
          model: judgeModel,
          embed: { claims: embed, sentences: embed },
          gate: firstOnly,
        }),
      },
      claim,
    );
    // Both sources get a label without the gate, so the gate is what turns the second NEUTRAL.
    expect(plain.evidence.map((e) => e.stance)).not.toContain('NEUTRAL');
    expect(gated.evidence[0]!.stance).toBe(plain.evidence[0]!.stance);
    expect(gated.evidence[1]!.stance).toBe('NEUTRAL');
    expect(gated.evidence[1]!.judgement.sentences).toEqual(plain.evidence[1]!.judgement.sentences);
  });

  it("gives each source the evaluator's passage score (0 when it did not reach it)", async () => {
    const asked: string[] = [];
    const r = await checkClaim(
      {
        ...deps,
        passageScores: async (claim) => {
          asked.push(claim);
          return new Map([[ids[0]!, 0.9]]);
        },
      },
      'Vitamin D reduces hip fracture risk.',
    );
    expect(asked).toEqual(['Vitamin D reduces hip fracture risk.']);
    const score = new Map(r.evidence.map((e) => [e.documentId, e.retrieval.passageScore]));
    expect(score.get(ids[0]!)).toBe(0.9);
    expect(score.get(ids[1]!)).toBe(0);
    const none = await checkClaim(deps, 'Vitamin D reduces hip fracture risk.');
    expect(none.evidence.every((e) => e.retrieval.passageScore === undefined)).toBe(true);
  });

  it('reads sentences from the injected cache instead of splitting', async () => {
    const seen: number[] = [];
    const r = await checkClaim(
      {
        ...deps,
        sentences(id, text) {
          seen.push(id);
          return [{ text, start: 0, end: text.length }];
        },
      },
      'Vitamin D reduces hip fracture risk.',
    );
    expect(seen.sort()).toEqual(r.evidence.map((e) => e.documentId).sort());
  });
});

describe('retrievalContexts', () => {
  const hit = (documentId: number, score: number, ranks: SearchHit['ranks']) =>
    ({ documentId, score, ranks }) as SearchHit;

  it("gives each document its rank, the next document's score ratio and its best list ranks", () => {
    const ctx = retrievalContexts([
      hit(7, 1, { lexical: 3, semantic: 1 }),
      hit(9, 0.8, { semantic: 2 }),
      hit(7, 0.5, { lexical: 1 }),
      hit(4, 0.4, { lexical: 2 }),
    ]);
    expect([...ctx.keys()]).toEqual([7, 9, 4]);
    expect(ctx.get(7)).toEqual({ rank: 0, nextRatio: 0.8, lexicalRank: 1, semanticRank: 1 });
    expect(ctx.get(9)).toEqual({ rank: 1, nextRatio: 0.5, lexicalRank: null, semanticRank: 2 });
    expect(ctx.get(4)).toEqual({ rank: 2, nextRatio: 0, lexicalRank: 2, semanticRank: null });
  });

  it('leaves a list out when no hit carries its rank (a lexical-only search)', () => {
    const ctx = retrievalContexts([hit(1, 2, { lexical: 1 }), hit(2, 1, { lexical: 2 })]);
    expect(ctx.get(1)).toEqual({ rank: 0, nextRatio: 0.5, lexicalRank: 1 });
  });

  it("keeps the best relevance band's precision among a document's hits", () => {
    const rated = (documentId: number, score: number, precision: number) =>
      ({
        ...hit(documentId, score, { lexical: 1 }),
        relevance: { band: 'high', basis: 'keywords', precision },
      }) as SearchHit;
    const ctx = retrievalContexts([rated(1, 1, 0.2), rated(1, 0.9, 0.6), hit(2, 0.5, {})]);
    expect(ctx.get(1)!.relevance).toBe(0.6);
    expect(ctx.get(2)!.relevance).toBeUndefined();
  });
});

describe('shareBudget', () => {
  it("takes every source's best first, then the second best, in source order", () => {
    const ranked = [['a1', 'a2', 'a3'], ['b1'], [], ['d1', 'd2']];
    expect(shareBudget(ranked, 0)).toEqual([[], [], [], []]);
    expect(shareBudget(ranked, 2)).toEqual([['a1'], ['b1'], [], []]);
    expect(shareBudget(ranked, 4)).toEqual([['a1', 'a2'], ['b1'], [], ['d1']]);
    expect(shareBudget(ranked, 100)).toEqual([['a1', 'a2', 'a3'], ['b1'], [], ['d1', 'd2']]);
  });
});
