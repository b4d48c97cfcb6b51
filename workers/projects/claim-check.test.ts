// A claim check on a real in-memory library with the shipped stance model on real USE-lite.
import { readFileSync } from 'node:fs';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createNodeKernel, readUseLiteFile } from '../embed/node-kernel';
import { loadUseLite } from '../embed/use-lite';
import { doc, openTestLibrary, put, type TestLibrary } from '../store/test-fixtures';
import { checkClaim, shareBudget, type ClaimCheckDeps } from './claim-check';
import { createEvidenceJudge, type EvidenceJudge } from './evidence';
import { createProjectStore } from './project-store';
import { provenanceOf } from './provenance';
import { createStanceModel, type FittedStanceModel } from './stance-model';

let judge: EvidenceJudge;
let lib: TestLibrary;
let deps: ClaimCheckDeps;
const ids: number[] = [];

beforeAll(async () => {
  const fitted = JSON.parse(
    readFileSync(new URL('./fitted/stance-use-lite.json', import.meta.url), 'utf8'),
  ) as FittedStanceModel;
  const m = await loadUseLite(await createNodeKernel(), readUseLiteFile);
  const embed = async (t: string[]) => t.map((x) => m.embedInt16(x));
  judge = createEvidenceJudge({
    model: createStanceModel(fitted, m.dim),
    embed: { claims: embed, sentences: embed },
  });
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

describe('shareBudget', () => {
  it("takes every source's best first, then the second best, in source order", () => {
    const ranked = [['a1', 'a2', 'a3'], ['b1'], [], ['d1', 'd2']];
    expect(shareBudget(ranked, 0)).toEqual([[], [], [], []]);
    expect(shareBudget(ranked, 2)).toEqual([['a1'], ['b1'], [], []]);
    expect(shareBudget(ranked, 4)).toEqual([['a1', 'a2'], ['b1'], [], ['d1']]);
    expect(shareBudget(ranked, 100)).toEqual([['a1', 'a2', 'a3'], ['b1'], [], ['d1', 'd2']]);
  });
});
