// The search contract (issue 15): every search path (plain lexical / semantic / hybrid, the
// optimised plan with every technique, find related from a passage, a document and selected text)
// runs against the same filtered library — real wa-sqlite, the real USE-lite on the canonical
// runtime, HNSW — and no path returns a hit outside the user's filters.
// (Answers: the answer pipeline builds on the same SearchQuery; its test belongs to its room.)
import { beforeAll, describe, expect, it } from 'vitest';
import { createEmbedder } from '../embed/embedder';
import { createNodeKernel, readUseLiteFile } from '../embed/node-kernel';
import { chunkText } from '../ingest/chunk';
import { sha256Hex } from '../ingest/hash';
import { createScriptedGenerator } from '../llm/scripted';
import { createResearchService } from '../query-plan/service';
import type { SearchScope } from '../shared/search-contract';
import type { SearchFilters, SearchHit, SearchMode } from '../shared/types';
import { compileGlob } from '../store/glob';
import { openNodeDatabase } from '../store/open-database-node';
import { createStore, type Store } from '../store/store';
import { openTestLibrary } from './node-library.testkit';
import { planSearchDeps, relatedSearch } from './search-paths';

const embedder = createEmbedder({
  loadKernel: createNodeKernel,
  fetchModelFile: readUseLiteFile,
  loadGolden: async () => ({ modelId: '', modelVersion: '', texts: [], sha256: [] }) as never,
});

const DAY = 86_400_000;
// The same topics in both folders, so an unfiltered search would find hits in each.
const TOPICS = [
  'The coastal pelican colony nests on the cliffs every spring and feeds on fish in the bay.',
  'Seabirds such as gulls and pelicans breed on rocky sea cliffs and dive for fish.',
  'Aspirin lowers the risk of heart attack by inhibiting platelet aggregation in the blood.',
  'Vitamin D deficiency is linked to bone loss and fractures in older adults.',
];
const DOCS = ['notes', 'archive'].flatMap((folder, f) =>
  TOPICS.map((text, i) => ({
    path: `${folder}/topic-${i}.${i % 2 ? 'md' : 'txt'}`,
    mime: i % 2 ? 'text/markdown' : 'text/plain',
    modified: (10 + f * 10 + i) * DAY,
    text: `${text} ${folder === 'notes' ? 'Field notes.' : 'Archived report.'}`,
  })),
);

async function put(store: Store, d: (typeof DOCS)[number]) {
  const input = { ...d, title: d.path, size: d.text.length };
  return store.putDocument(input, chunkText(d.text), await sha256Hex(d.text));
}

async function library() {
  const db = await openNodeDatabase();
  const store = await createStore(db);
  const info = await embedder.init();
  const { hybrid, lexical, lookup, semantic } = await openTestLibrary(store, {
    model: info,
    embed: (texts, signal) => embedder.embedTexts(texts, { signal }),
  });
  for (const d of DOCS) await put(store, d);
  await semantic.start();
  const paths = { hybrid, lexical, lookup, store };
  const g = createScriptedGenerator({ yieldBetweenPieces: false });
  const research = createResearchService({
    ...planSearchDeps(paths),
    embed: (texts) => embedder.embedTexts(texts),
    llm: { kind: 'scripted', generate: g.generate },
    clock: { now: () => performance.now() },
    synonyms: new Map([['pelican', ['seabird']]]),
  });
  return { store, hybrid, research, related: relatedSearch(paths) };
}

/** The filter rule every hit must pass, written independently of the SQL that applies it. */
function passes(hit: SearchHit, f: SearchFilters): boolean {
  const doc = DOCS.find((d) => d.path === hit.path)!;
  if (f.pathGlob && !compileGlob(f.pathGlob).test(hit.path)) return false;
  if (f.mime && !f.mime.includes(doc.mime)) return false;
  if (f.modifiedAfter !== undefined && doc.modified < f.modifiedAfter) return false;
  if (f.modifiedBefore !== undefined && doc.modified >= f.modifiedBefore) return false;
  if (f.contains && !hit.snippet.text.toLowerCase().includes(f.contains.toLowerCase()))
    return false;
  return true;
}

const FILTERS: Array<[string, SearchFilters]> = [
  ['one folder', { pathGlob: 'notes/**' }],
  ['one type', { mime: ['text/markdown'] }],
  ['a date range', { modifiedAfter: 20 * DAY, modifiedBefore: 22 * DAY }],
  ['contained text', { contains: 'archived' }],
  ['folder and type', { pathGlob: 'archive/*', mime: ['text/plain'] }],
];
const MODES: SearchMode[] = ['lexical', 'semantic', 'hybrid'];
const ALL_TECHNIQUES = {
  routing: false,
  rewrite: true,
  hyde: true,
  fusion: true,
  rm3: true,
  wordnet: true,
  keyphrases: true,
};

type Lib = Awaited<ReturnType<typeof library>>;
let lib: Lib;
beforeAll(async () => {
  lib = await library();
}, 120_000);

/** Every path's hits for one scope (query: a question that matches both folders). */
async function everyPath(scope: SearchScope): Promise<Array<[string, SearchHit[]]>> {
  const query = 'Where do pelicans nest and what do seabirds eat?';
  const out: Array<[string, SearchHit[]]> = [];
  out.push(['search', (await lib.hybrid.search({ query, ...scope, limit: 20 })).hits]);
  // The app's results page: read deeper until it covers the documents, filter kept throughout.
  out.push(['search (page)', (await lib.hybrid.search({ query, ...scope, documents: 10 })).hits]);
  const plain = await lib.research.planQuery({ query, ...scope }, { limit: 20 });
  out.push(['plan (defaults)', plain.hits]);
  const full = await lib.research.planQuery(
    { query, ...scope },
    { limit: 20, techniques: ALL_TECHNIQUES },
  );
  expect(full.plan.steps.filter((s) => s.kind === 'retrieve').length).toBeGreaterThan(2);
  out.push(['plan (every technique)', full.hits]);
  const docs = await lib.store.listDocuments();
  const source = docs.find((d) => d.path === 'notes/topic-0.txt')!;
  const detail = await lib.store.getDocument(source.id);
  const related = async (s: Parameters<Lib['related']['find']>[0]['source']) =>
    (await lib.related.find({ source: s, ...scope, limit: 20 })).hits;
  out.push(['related (passage)', await related({ kind: 'chunk', chunkId: detail.chunks[0]!.id })]);
  out.push(['related (document)', await related({ kind: 'document', documentId: source.id })]);
  const page = await lib.related.find({
    source: { kind: 'chunk', chunkId: detail.chunks[0]!.id },
    ...scope,
    documents: 10,
  });
  out.push(['related (page)', page.hits]);
  out.push([
    'related (selection)',
    await related({ kind: 'text', text: 'pelican colony cliffs', documentId: source.id }),
  ]);
  return out;
}

describe('one search contract for every path', () => {
  it.each(FILTERS)(
    'no path returns a hit outside the filter: %s',
    async (_name, filters) => {
      for (const mode of MODES) {
        const results = await everyPath({ mode, filters });
        for (const [path, hits] of results) {
          const outside = hits.filter((h) => !passes(h, filters)).map((h) => h.path);
          expect({ path, mode, outside }).toEqual({ path, mode, outside: [] });
        }
        // The page, the plan and find related rate their hits (a band, or null: no fit).
        for (const name of ['search (page)', 'plan (defaults)', 'related (page)'])
          for (const h of results.find(([p]) => p === name)![1])
            expect({ name, rated: h.relevance !== undefined }).toEqual({ name, rated: true });
        // With the default techniques (all off) the plan ranks exactly as plain search.
        const ids = (name: string) => results.find(([p]) => p === name)![1].map((h) => h.chunkId);
        expect(ids('plan (defaults)')).toEqual(ids('search'));
        // The filter really narrows: the plain search without it finds hits it excludes.
        const unfiltered = await lib.hybrid.search({
          query: 'Where do pelicans nest and what do seabirds eat?',
          mode,
          limit: 20,
        });
        expect(unfiltered.hits.some((h) => !passes(h, filters))).toBe(true);
      }
    },
    120_000,
  );

  it('the plan searches in the user mode: keyword mode skips HyDE, semantic mode RM3/WordNet', async () => {
    const q = { query: 'Where do pelicans nest?' };
    const lexical = await lib.research.planQuery(
      { ...q, mode: 'lexical' },
      { techniques: ALL_TECHNIQUES },
    );
    expect(lexical.plan.steps.find((s) => s.id === 'hyde')?.note).toBe(
      'keyword mode has no semantic side',
    );
    expect(lexical.hits.every((h) => h.ranks.semantic === undefined)).toBe(true);
    const semantic = await lib.research.planQuery(
      { ...q, mode: 'semantic' },
      { techniques: ALL_TECHNIQUES },
    );
    for (const id of ['rm3', 'wordnet'])
      expect(semantic.plan.steps.find((s) => s.id === id)?.status).toBe('skipped');
    expect(semantic.hits.every((h) => h.ranks.lexical === undefined)).toBe(true);
  }, 60_000);

  it('filters that match nothing give an empty list on every path, not an error', async () => {
    const results = await everyPath({ filters: { pathGlob: 'nowhere/**' } });
    for (const [path, hits] of results) expect({ path, hits }).toEqual({ path, hits: [] });
  }, 60_000);

  it('accepts a project and ignores it until projects are wired', async () => {
    const query = 'pelican colony';
    const a = await lib.hybrid.search({ query, project: 'p1' });
    const b = await lib.hybrid.search({ query });
    expect(a.hits.map((h) => h.chunkId)).toEqual(b.hits.map((h) => h.chunkId));
  });
});

describe('find related', () => {
  it('finds the same topic in other documents, never the source document', async () => {
    const docs = await lib.store.listDocuments();
    const source = docs.find((d) => d.path === 'notes/topic-2.txt')!;
    const chunk = (await lib.store.getDocument(source.id)).chunks[0]!;
    const r = await lib.related.find({ source: { kind: 'chunk', chunkId: chunk.id } });
    expect(r.hits.length).toBeGreaterThan(0);
    expect(r.hits.every((h) => h.documentId !== source.id)).toBe(true);
    // The archived copy of the aspirin passage is the most related passage.
    expect(r.hits[0]?.path).toBe('archive/topic-2.txt');
    expect(r.hits[0]?.ranks).toEqual({ lexical: 1, semantic: 1 });
    expect(r.sourceLabel).toBe('a passage of notes/topic-2.txt');
    expect(r.sourceNotice).toBeNull();
    const byDoc = await lib.related.find({ source: { kind: 'document', documentId: source.id } });
    expect(byDoc.hits[0]?.path).toBe('archive/topic-2.txt');
  });

  it('gives a page of documents like a search: one entry each, never the source', async () => {
    const docs = await lib.store.listDocuments();
    const source = docs.find((d) => d.path === 'notes/topic-2.txt')!;
    const chunk = (await lib.store.getDocument(source.id)).chunks[0]!;
    for (const mode of ['lexical', 'semantic', 'hybrid'] as const) {
      const r = await lib.related.find({
        source: { kind: 'chunk', chunkId: chunk.id },
        mode,
        documents: 3,
      });
      const ids = r.documents!.map((d) => d.documentId);
      expect(ids.length, mode).toBeGreaterThan(0);
      expect(ids.length, mode).toBeLessThanOrEqual(3);
      expect(new Set(ids).size, mode).toBe(ids.length);
      expect(ids, mode).not.toContain(source.id);
      expect(r.documents![0]!.path, mode).toBe('archive/topic-2.txt');
      // Filtered to nothing: an empty page, not an error.
      const none = await lib.related.find({
        source: { kind: 'chunk', chunkId: chunk.id },
        mode,
        documents: 3,
        filters: { pathGlob: 'nowhere/**' },
      });
      expect(none.documents, mode).toEqual([]);
    }
  });

  it('says clearly when the passage is empty or its document was deleted', async () => {
    const empty = lib.related.find({ source: { kind: 'text', text: '   ' } });
    await expect(empty).rejects.toMatchObject({ code: 'INVALID_QUERY' });
    await expect(empty).rejects.toThrow(/select some text/i);
    const docs = await lib.store.listDocuments();
    const gone = docs.find((d) => d.path === 'archive/topic-3.md')!;
    const chunkId = (await lib.store.getDocument(gone.id)).chunks[0]!.id;
    await lib.store.deleteDocument(gone.id);
    for (const source of [
      { kind: 'chunk', chunkId },
      { kind: 'document', documentId: gone.id },
    ] as const) {
      const found = lib.related.find({ source });
      await expect(found).rejects.toMatchObject({ code: 'NOT_FOUND' });
      await expect(found).rejects.toThrow(/deleted/);
    }
  });
});
