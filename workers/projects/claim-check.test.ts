// A claim check on a real in-memory library with the shipped stance model on real USE-lite.
import { readFileSync } from 'node:fs';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createNodeKernel, readUseLiteFile } from '../embed/node-kernel';
import { loadUseLite } from '../embed/use-lite';
import { doc, openTestLibrary, put, type TestLibrary } from '../store/test-fixtures';
import { checkClaim, type ClaimCheckDeps } from './claim-check';
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
});
