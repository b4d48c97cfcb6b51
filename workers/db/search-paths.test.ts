// The planned search's depth (issue 15): a plan of documents reads as deep as a plain search's
// page, so it shows 10 distinct documents even when one long document holds the first 40 chunks
// of every ranking. Real wa-sqlite, the real USE-lite on the canonical runtime, HNSW.
import { beforeAll, describe, expect, it } from 'vitest';
import { createEmbedder } from '../embed/embedder';
import { createNodeKernel, readUseLiteFile } from '../embed/node-kernel';
import { chunkText } from '../ingest/chunk';
import { sha256Hex } from '../ingest/hash';
import { createScriptedGenerator } from '../llm/scripted';
import { createResearchService, type ResearchService } from '../query-plan/service';
import { documentResults, MORE_PASSAGES } from '../shared/document-results';
import type { SearchMode } from '../shared/types';
import type { HybridSearch } from '../search/hybrid';
import { HARBOUR_REPORTS, PELICAN_SURVEY } from '../search/pelican-page.testkit';
import { openNodeDatabase } from '../store/open-database-node';
import { createStore } from '../store/store';
import { planSearchDeps } from './search-paths';
import { openTestLibrary } from './node-library.testkit';

const embedder = createEmbedder({
  loadKernel: createNodeKernel,
  fetchModelFile: readUseLiteFile,
  loadGolden: async () => ({ modelId: '', modelVersion: '', texts: [], sha256: [] }) as never,
});

let hybrid: HybridSearch;
let research: ResearchService;
beforeAll(async () => {
  const store = await createStore(await openNodeDatabase());
  const info = await embedder.init();
  const lib = await openTestLibrary(store, {
    model: info,
    embed: (texts, signal) => embedder.embedTexts(texts, { signal }),
  });
  for (const { path, text } of [PELICAN_SURVEY, ...HARBOUR_REPORTS]) {
    const input = { path, title: path, mime: 'text/plain', size: text.length, modified: 1, text };
    await store.putDocument(input, chunkText(text), await sha256Hex(text));
  }
  await lib.semantic.start();
  hybrid = lib.hybrid;
  const g = createScriptedGenerator({ yieldBetweenPieces: false });
  research = createResearchService({
    ...planSearchDeps({ ...lib, store }),
    embed: (texts) => embedder.embedTexts(texts),
    llm: { kind: 'scripted', generate: g.generate },
    clock: { now: () => performance.now() },
  });
}, 120_000);

const FUSION = { routing: false, fusion: true, rewrite: false, hyde: false, keyphrases: false };

describe('a plan of documents', () => {
  it('shows 10 distinct documents where 40 chunks would show one', async () => {
    // The case under test: the former page (40 chunks) of a keyword plan is one document.
    const chunks = await research.planQuery({ query: 'pelican', mode: 'lexical' }, { limit: 40 });
    expect(new Set(chunks.hits.map((h) => h.documentId)).size).toBe(1);
    for (const mode of ['lexical', 'semantic', 'hybrid'] as SearchMode[]) {
      for (const techniques of [{}, FUSION]) {
        const label = `${mode} ${JSON.stringify(techniques)}`;
        const { hits } = await research.planQuery(
          { query: 'pelican', mode },
          { techniques, documents: 10 },
        );
        const docs = documentResults(hits);
        expect(docs, label).toHaveLength(10);
        for (const d of docs) expect(d.passages.length).toBeLessThanOrEqual(1 + MORE_PASSAGES);
      }
    }
  });

  it('with the default techniques, shows the page a plain search shows', async () => {
    for (const mode of ['lexical', 'semantic', 'hybrid'] as SearchMode[]) {
      const plain = await hybrid.search({ query: 'pelican on the pier', mode, documents: 10 });
      const { hits } = await research.planQuery(
        { query: 'pelican on the pier', mode },
        { documents: 10 },
      );
      expect(
        hits.map((h) => h.chunkId),
        mode,
      ).toEqual(plain.hits.map((h) => h.chunkId));
    }
  });
});
