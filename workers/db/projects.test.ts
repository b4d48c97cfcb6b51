// Research projects through the library service (what the db worker exposes): membership scopes
// search, and a membership change drops cached answers even though the store did not change.
import { describe, expect, it } from 'vitest';
import { openNodeDatabase } from '../store/open-database-node';
import { jsDotKernel } from '../vector';
import { createLibraryService } from './service';

function library() {
  return createLibraryService({
    openDatabase: () => openNodeDatabase(),
    dotKernel: async () => jsDotKernel,
    synonyms: async () => new Map(),
    wrapEmbedder: () => {
      throw new Error('no embedder in this test');
    },
    wrapLlm: () => {
      throw new Error('no LLM in this test');
    },
  });
}

describe('library service: projects', () => {
  it('scopes search to a project and sees membership changes at once', async () => {
    const lib = library();
    await lib.init();
    for (const [path, text] of [
      ['a.txt', 'Vitamin D lowers fracture risk.'],
      ['b.txt', 'Vitamin D had no effect on fractures.'],
    ] as const) {
      await lib.importText({
        path,
        title: path,
        mime: 'text/plain',
        size: text.length,
        modified: 0,
        text,
      });
    }
    const docs = await lib.listDocuments();
    const p = await lib.createProject('Bones', 'Does vitamin D prevent fractures?');
    const scoped = () =>
      lib.search({ query: 'vitamin', mode: 'lexical', filters: { project: p.id } });
    expect((await scoped()).hits).toEqual([]);
    expect(await lib.addToProject(p.id, [docs[0]!.id])).toBe(1);
    expect((await scoped()).hits.map((h) => h.path)).toEqual(['a.txt']);
    await lib.addToProject(p.id, [docs[1]!.id]);
    expect((await scoped()).hits).toHaveLength(2);
    await lib.removeFromProject(p.id, [docs[0]!.id]);
    expect((await scoped()).hits.map((h) => h.path)).toEqual(['b.txt']);
    expect(await lib.projectStats(p.id)).toMatchObject({ documents: 1, claims: 0 });
    await lib.setProjectClaims(p.id, [{ text: 'Vitamin D lowers fracture risk.', keyClaim: true }]);
    expect((await lib.projectClaims(p.id)).map((c) => c.text)).toEqual([
      'Vitamin D lowers fracture risk.',
    ]);
    expect((await lib.projectsOfDocument(docs[1]!.id)).map((x) => x.name)).toEqual(['Bones']);
    await lib.deleteProject(p.id);
    expect(await lib.listProjects()).toEqual([]);
    expect((await lib.search({ query: 'vitamin', mode: 'lexical' })).hits).toHaveLength(2);
  });
});
