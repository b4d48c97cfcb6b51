// Claim checks, citation audits and exports through the library's projects link, on a real
// in-memory library with the shipped stance model on real USE-lite and the e2e claim fixtures.
import { readFileSync } from 'node:fs';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createNodeKernel,
  loadBertFolder,
  MINILM_DIR,
  readUseLiteFile,
} from '../embed/node-kernel';
import { haveRealWeights } from '../embed/real-weights.testkit';
import { loadUseLite } from '../embed/use-lite';
import { createHybridSearch } from '../search/hybrid';
import { startingStatus } from '../search/semantic-index';
import { createChunkLookup } from '../store/chunk-lookup';
import { doc, openTestLibrary, put, type TestLibrary } from '../store/store.testkit';
import { replaceCitation } from '../projects/draft-references';
import { createProjectStore, type ProjectStore } from '../projects/project-store';
import type { HybridSearch } from '../search/hybrid';
import type { ClaimCheckView } from '../shared/projects-api';
import type { SemanticStatus } from '../shared/semantic-api';
import { createScriptedGenerator } from '../llm/scripted';
import type { LlmDep } from '../query-plan/types';
import { createProjectsLink, type ProjectChecksApi } from './projects-link';

const fixture = (name: string) =>
  readFileSync(new URL(`../../e2e/fixtures/claims/${name}`, import.meta.url), 'utf8');
const SUPPORTED = 'Smoking increases the risk of lung cancer.';
const CONTRADICTED = 'Green tea consumption increases bone density.';
const SMOKING_PAGES = (text: string): Array<[number, number]> => [
  [7, 0],
  [8, text.indexOf('Smoking')],
];
const READY: SemanticStatus = {
  ...startingStatus({ id: 'use-lite', version: 'test', dim: 512 }, 1),
  phase: 'ready',
};

let embed: (texts: string[]) => Promise<Int16Array[]>;
let lib: TestLibrary;
let projects: ProjectStore;
let status: SemanticStatus;
let link: ProjectChecksApi;
let ids: number[];

beforeAll(async () => {
  const m = await loadUseLite(await createNodeKernel(), readUseLiteFile);
  embed = async (t) => t.map((x) => m.embedInt16(x));
});

beforeEach(async () => {
  lib = await openTestLibrary();
  projects = createProjectStore(lib.db.sql);
  status = READY;
  link = createProjectsLink({
    // The app's hybrid search over the test library, lexical side only (no vector index here):
    // the claim check's passage scores read its fused lists.
    parts: async () => {
      const lookup = createChunkLookup(lib.store.sql);
      const hybrid = createHybridSearch({
        lexical: lib.search,
        semantic: null,
        allowedChunkIds: lookup.allowedChunkIds,
        chunkKeys: lookup.chunkKeys,
        buildHits: lib.search.buildHits,
        version: () => lib.store.version(),
      });
      return { store: lib.store, hybrid, projects, lexical: lib.search };
    },
    semantic: { status: () => status, embed: (texts) => embed(texts) },
    getAnswer: () => Promise.reject(new Error('no answers in this test')),
  });
  ids = [];
  for (const name of ['smoking-cohort.txt', 'green-tea-trial.txt', 'unrelated.txt']) {
    const text = name === 'unrelated.txt' ? 'The bridge opened in 1932.' : fixture(name);
    // The cohort as a two-page PDF would store it: its finding opens page 8.
    const extra = name === 'smoking-cohort.txt' ? { pageStarts: SMOKING_PAGES(text) } : undefined;
    ids.push((await put(lib.store, doc(`claims/${name}`, text, extra))).documentId);
  }
});

afterEach(() => lib.close());

async function project() {
  const p = await projects.create('Lungs and bones', 'What do the sources say?');
  await projects.addDocuments(p.id, [ids[0]!, ids[1]!]);
  const claims = await projects.setClaims(p.id, [{ text: SUPPORTED }, { text: CONTRADICTED }]);
  return { p, claims };
}

describe('projects link: claim checks', () => {
  it('finds the supporting and the contradicting fixture and stores the statuses', async () => {
    const { p, claims } = await project();
    const a = (await link.checkProjectClaim(p.id, claims[0]!.id)).result as ClaimCheckView;
    const b = (await link.checkProjectClaim(p.id, claims[1]!.id)).result as ClaimCheckView;
    expect(a.status).toBe('LIKELY');
    expect(a.evidence.filter((e) => e.role === 'supporting').map((e) => e.documentId)).toEqual([
      ids[0],
    ]);
    // The supporting sentence says its page; a document without pages says none.
    const finding = a.evidence[0]!.sentences.find((x) => x.text.startsWith('Smoking'))!;
    expect(finding.pages).toEqual({ first: 8, last: 8 });
    expect(b.status).toBe('CONTESTED');
    expect(b.evidence.filter((e) => e.role === 'contradicting').map((e) => e.documentId)).toEqual([
      ids[1],
    ]);
    // The evidence sentence's offsets point into the document (the UI opens it there).
    const s = b.evidence
      .find((e) => e.role === 'contradicting')!
      .sentences.find((x) => x.evidence)!;
    expect(fixture('green-tea-trial.txt').slice(s.start, s.end)).toBe(s.text);
    expect((await projects.claims(p.id)).every((c) => c.checkedAt !== null)).toBe(true);
  });

  it.skipIf(!haveRealWeights())(
    'checks claims with the stance model fitted for MiniLM when the library runs MiniLM',
    async () => {
      const bert = loadBertFolder(await createNodeKernel(), MINILM_DIR);
      const useLite = embed;
      embed = async (t) => t.map((x) => bert.embedInt16(x));
      status = { ...READY, model: { id: 'all-MiniLM-L6-v2', version: 'test', dim: 384 } };
      try {
        const { p, claims } = await project();
        const a = (await link.checkProjectClaim(p.id, claims[0]!.id)).result as ClaimCheckView;
        expect(a.evidence.find((e) => e.role === 'supporting')?.documentId).toBe(ids[0]);
        expect(a.evidence.some((e) => e.documentId === ids[2] && e.role !== 'neutral')).toBe(false);
        // The evidence gate and its SUPPORT bias (fitted for MiniLM) keep the clear contradiction.
        const b = (await link.checkProjectClaim(p.id, claims[1]!.id)).result as ClaimCheckView;
        expect(b.status).toBe('CONTESTED');
      } finally {
        embed = useLite;
        status = READY;
      }
    },
  );

  it('says NOT_FOUND for a deleted project, ABORTED when cancelled, and needs a fitted model', async () => {
    const { p, claims } = await project();
    const slow = embed;
    embed = async (t) => {
      await link.cancelClaimCheck('r1');
      return slow(t);
    };
    await expect(link.checkProjectClaim(p.id, claims[0]!.id, {}, 'r1')).rejects.toMatchObject({
      code: 'ABORTED',
    });
    embed = slow;
    status = { ...READY, model: { id: 'bge-small-en-v1.5', version: 'x', dim: 384 } };
    await expect(link.checkProjectClaim(p.id, claims[0]!.id)).rejects.toMatchObject({
      code: 'MODEL_LOAD_FAILED',
    });
    status = READY;
    await projects.remove(p.id);
    await expect(link.checkProjectClaim(p.id, claims[0]!.id)).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });
});

describe('projects link: a project deleted while its claim is checked', () => {
  it('ends the check with NOT_FOUND, stores nothing, and the next check works', async () => {
    const { p, claims } = await project();
    const real = embed;
    let deleted = false;
    embed = async (t) => {
      if (!deleted) {
        deleted = true;
        await projects.remove(p.id); // mid-check: after the search, before the judgement
      }
      return real(t);
    };
    try {
      await expect(link.checkProjectClaim(p.id, claims[0]!.id)).rejects.toMatchObject({
        code: 'NOT_FOUND',
      });
    } finally {
      embed = real;
    }
    expect(deleted).toBe(true);
    expect(await projects.list()).toEqual([]);
    expect(await projects.claims(p.id)).toEqual([]);
    const again = await project();
    const ok = await link.checkProjectClaim(again.p.id, again.claims[0]!.id);
    expect(ok.checkedAt).not.toBeNull();
  });
});

describe('projects link: citation audit and exports', () => {
  const draft = [
    `${SUPPORTED} [1]`,
    `${CONTRADICTED} [2]`,
    'Bridges last a century [3].',
    '',
    'References',
    '[1] claims/smoking-cohort.txt',
    '[2] claims/smoking-cohort.txt',
    '[3] claims/gone.txt',
  ].join('\n');

  it('passes the right citation, flags the wrong one and a source not in the library', async () => {
    const rows = await link.auditDraft({ draft });
    expect(rows.map((r) => [r.n, r.documentId, r.status])).toEqual([
      ['1', ids[0], 'PASS'],
      ['2', ids[0], 'REVIEW'],
      ['3', null, 'SOURCE_NOT_INDEXED'],
    ]);
    expect(rows[0]!.passage?.text).toContain('Smoking significantly increases');
    expect(rows[0]!.passage?.pages).toEqual({ first: 8, last: 8 });
    expect(await link.extractDraftClaims(draft)).toEqual({
      claims: [SUPPORTED, CONTRADICTED, 'Bridges last a century.'],
      method: 'sentences',
      note: null,
    });
  });

  it('restates claims with the language model when asked and one is active', async () => {
    const llm = createScriptedGenerator();
    let active: LlmDep | null = null;
    const withLlm = createProjectsLink({
      parts: async () => ({
        store: lib.store,
        hybrid: { search: (r) => lib.search.search(r) } as HybridSearch,
        projects,
      }),
      semantic: { status: () => status, embed: (texts) => embed(texts) },
      getAnswer: () => Promise.reject(new Error('no answers in this test')),
      llm: async () => active,
    });
    const text = 'Smoking raises lung cancer risk, and it shortens life expectancy [1].';
    // The default stays the LLM-free split; asking without a backend says why.
    expect(await withLlm.extractDraftClaims(text)).toMatchObject({ method: 'sentences' });
    const none = await withLlm.extractDraftClaims(text, { useLlm: true });
    expect(none.method).toBe('sentences');
    expect(none.note).toMatch(/No language model is active/);
    expect(llm.calls).toHaveLength(0);
    active = { generate: (r, o) => llm.generate(r, o), kind: 'scripted' };
    expect(await withLlm.extractDraftClaims(text, { useLlm: true })).toEqual({
      claims: ['Smoking raises lung cancer risk.', 'it shortens life expectancy.'],
      method: 'llm',
      note: null,
    });
    expect(llm.calls).toHaveLength(1);
  });

  it('replaces a wrong citation: the row points at the new source and is audited again', async () => {
    const rows = await link.auditDraft({ draft });
    const wrong = rows[1]!;
    expect(draft.slice(wrong.at.start, wrong.at.end)).toBe(`${CONTRADICTED} [2]`);
    const fixed = replaceCitation(draft, wrong.at, wrong.n, 'claims/green-tea-trial.txt');
    const again = await link.auditDraft({ draft: fixed });
    expect(again.map((r) => [r.n, r.documentId])).toEqual([
      ['1', ids[0]],
      ['4', ids[1]],
      ['3', null],
    ]);
    // The green tea trial addresses the claim (it contradicts it): no longer the wrong source.
    expect(again[1]!.stance).toBe('CONTRADICT');
    expect(again[1]!.supportScore!).toBeGreaterThan(wrong.supportScore!);
  });

  it('says SOURCE_NOT_INDEXED for a source removed after it was cited, by path or by id', async () => {
    await lib.store.deleteDocument(ids[0]!);
    const rows = await link.auditDraft({ draft });
    expect(rows.map((r) => r.status)).toEqual([
      'SOURCE_NOT_INDEXED',
      'SOURCE_NOT_INDEXED',
      'SOURCE_NOT_INDEXED',
    ]);
    // An answer's reference still names the deleted document's id.
    const byId = await link.auditDraft({
      draft: `${SUPPORTED} [1]`,
      references: [{ n: 1, documentId: ids[0]!, label: 'claims/smoking-cohort.txt' }],
    });
    expect(byId.map((r) => [r.status, r.documentId, r.passage])).toEqual([
      ['SOURCE_NOT_INDEXED', null, null],
    ]);
  });

  it('exports the report and the two spec files in their shapes, from library data only', async () => {
    const { p, claims } = await project();
    await link.checkProjectClaim(p.id, claims[0]!.id);
    const audit = await link.auditDraft({ draft });
    const files = await link.projectExports(p.id, { audit });
    const meta = JSON.parse(files.indexMetadata.text) as Record<string, unknown>;
    expect(Object.keys(meta).sort()).toEqual(
      ['document_count', 'index_built', 'indexed_hashes', 'retrieval_stats', 'sources'].sort(),
    );
    expect(meta).toMatchObject({ index_built: true, document_count: 2 });
    expect(meta.retrieval_stats).toMatchObject({ total_queries: 1 });
    expect(files.retrievalAudit.text).toMatch(/^# Retrieval Quality Audit\n/);
    expect(files.retrievalAudit.text).toContain('| SOURCE_NOT_INDEXED |');
    // The audited passage of the paged cohort names its page in both files.
    expect(files.retrievalAudit.text).toMatch(/Smoking significantly increases[^|]* \(p\. 8\) \|/);
    expect(files.report.text).toMatch(/Smoking significantly increases[^|]* \(p\. 8\) \|/);
    expect(files.report.name).toBe('lungs-and-bones-report.md');
    expect(files.report.text).toMatch(/^# Lungs and bones\n/);
    expect(files.report.text).toContain(`| 1 | ${SUPPORTED} | LIKELY |`);
    expect(files.report.text).toContain('1 claim(s) not checked yet');
    await expect(link.projectExports(999)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
