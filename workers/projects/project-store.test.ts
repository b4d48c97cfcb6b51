// Projects on a real in-memory library: membership (a document in several projects), search
// scoped to a project and to a minimum grade, stats, claims, and what deletion does.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OWN_DOCUMENT_GRADE } from '../shared/types';
import { createChunkLookup } from '../store/chunk-lookup';
import { doc, openTestLibrary, put, type TestLibrary } from '../store/store.testkit';
import { GRADE_TABLE } from './provenance';
import { createProjectStore, type ProjectStore } from './project-store';

let lib: TestLibrary;
let projects: ProjectStore;
let ids: number[];

beforeEach(async () => {
  lib = await openTestLibrary();
  let t = 5_000;
  projects = createProjectStore(lib.db.sql, { clock: () => t++ });
  ids = [];
  for (const [path, text, grade] of [
    ['a.txt', 'Vitamin D lowers fracture risk in older adults.', 'A'],
    ['b.txt', 'Vitamin D had no effect on fracture risk.', 'C'],
    ['c.txt', 'Vitamin C and the common cold.', null],
  ] as const) {
    ids.push((await put(lib.store, doc(path, text, { qualityGrade: grade }))).documentId);
  }
});

afterEach(() => lib.close());

describe('project store', () => {
  it('creates, renames and refuses empty or duplicate names', async () => {
    const p = await projects.create('  Vitamin D  ', 'Does vitamin D prevent fractures?');
    expect(p).toMatchObject({ name: 'Vitamin D', question: 'Does vitamin D prevent fractures?' });
    await expect(projects.create('Vitamin D')).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(projects.create('  ')).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    const q = await projects.update(p.id, { name: 'Bones' });
    expect(q.name).toBe('Bones');
    expect((await projects.list()).map((x) => x.name)).toEqual(['Bones']);
    await expect(projects.get(999)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('lets a document belong to several projects and scopes search to one', async () => {
    const bones = await projects.create('Bones');
    const colds = await projects.create('Colds');
    expect(await projects.addDocuments(bones.id, [ids[0]!, ids[1]!, 4242])).toBe(2);
    expect(await projects.addDocuments(bones.id, [ids[0]!])).toBe(0);
    await projects.addDocuments(colds.id, [ids[1]!, ids[2]!]);
    expect((await projects.projectsOf(ids[1]!)).map((p) => p.name)).toEqual(['Bones', 'Colds']);

    const all = await lib.search.search({ query: 'vitamin' });
    expect(all.hits).toHaveLength(3);
    const scoped = await lib.search.search({ query: 'vitamin', filters: { project: colds.id } });
    expect(scoped.hits.map((h) => h.path).sort()).toEqual(['b.txt', 'c.txt']);
    const graded = await lib.search.search({
      query: 'vitamin',
      filters: { project: bones.id, minGrade: 'B' },
    });
    expect(graded.hits.map((h) => h.path)).toEqual(['a.txt']);
    await expect(
      lib.search.search({ query: 'vitamin', filters: { minGrade: 'Z' as never } }),
    ).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  it('grades an ungraded local file as an own document, until the user sets its grade', async () => {
    expect(GRADE_TABLE.own.own).toBe(OWN_DOCUMENT_GRADE);
    const paths = async (minGrade: 'A' | 'B' | 'C') =>
      (await lib.search.search({ query: 'vitamin', filters: { minGrade } })).hits
        .map((h) => h.path)
        .sort();
    const lookup = createChunkLookup(lib.db.sql);
    // c.txt is ungraded: it counts as C (own document) on the lexical and semantic sides alike.
    expect(await paths('C')).toEqual(['a.txt', 'b.txt', 'c.txt']);
    expect(await paths('B')).toEqual(['a.txt']);
    const chunksOf = async (id: number) =>
      (await lib.store.getDocument(id)).chunks.map((c) => c.id);
    const allowedB = await lookup.allowedChunkIds({ minGrade: 'B' });
    expect([...allowedB!].sort()).toEqual((await chunksOf(ids[0]!)).sort());
    const allowedC = await lookup.allowedChunkIds({ minGrade: 'C' });
    expect(allowedC!.size).toBe(3);

    const before = lib.store.version();
    expect(await lib.store.setDocumentGrade([ids[2]!, 4242], 'A')).toBe(1);
    expect(lib.store.version()).toBeGreaterThan(before);
    expect(await paths('B')).toEqual(['a.txt', 'c.txt']);
    expect((await lib.store.getDocument(ids[2]!)).qualityGrade).toBe('A');
    await lib.store.setDocumentGrade([ids[2]!], null);
    expect(await paths('B')).toEqual(['a.txt']);
    await expect(lib.store.setDocumentGrade([ids[2]!], 'Z' as never)).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
  });

  it('reports per-project stats and keeps claims in order', async () => {
    const p = await projects.create('Bones');
    await projects.addDocuments(p.id, [ids[0]!, ids[1]!]);
    const claims = await projects.setClaims(p.id, [
      { text: 'Vitamin D lowers fracture risk.', keyClaim: true },
      { text: '  ' },
      { text: 'Vitamin D has no effect.' },
    ]);
    expect(claims.map((c) => [c.seq, c.text, c.keyClaim])).toEqual([
      [0, 'Vitamin D lowers fracture risk.', true],
      [1, 'Vitamin D has no effect.', false],
    ]);
    expect(await projects.saveClaimResult(claims[0]!.id, { status: 'LIKELY' })).toBe(true);
    expect((await projects.claims(p.id))[0]!.result).toEqual({ status: 'LIKELY' });
    const s = await projects.stats(p.id);
    expect(s).toMatchObject({ documents: 2, claims: 2, grades: { A: 1, C: 1 } });
    expect(s.chunks).toBeGreaterThanOrEqual(2);
    // c.txt is ungraded: it counts as an own document, never as a grade of its own.
    await projects.addDocuments(p.id, [ids[2]!]);
    expect((await projects.stats(p.id)).grades).toEqual({ A: 1, [OWN_DOCUMENT_GRADE]: 2 });
  });

  it('drops memberships with a deleted document and claims with a deleted project', async () => {
    const p = await projects.create('Bones');
    await projects.addDocuments(p.id, [ids[0]!, ids[1]!]);
    const [claim] = await projects.setClaims(p.id, [{ text: 'x' }]);
    await lib.store.deleteDocument(ids[0]!);
    expect(await projects.documentIds(p.id)).toEqual([ids[1]]);
    await projects.remove(p.id);
    // A claim check that finishes after its project was deleted stores nothing and does not throw.
    expect(await projects.saveClaimResult(claim!.id, { status: 'VERIFIED' })).toBe(false);
    expect(await lib.db.sql.get('SELECT count(*) AS n FROM project_documents')).toEqual({ n: 0 });
    expect((await lib.store.listDocuments()).length).toBe(2);
  });
});
