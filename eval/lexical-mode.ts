// The `lexical` eval mode: the app's own store + lexical search on wa-sqlite in Node, with the
// ingest chunker. Chunk hits become document hits by document-level evidence (best chunk plus a
// damped sum of the next ones; --docDecay 0 = best chunk only; see document-evidence.ts).
import { createLexicalSearch, type Bm25Params } from '../workers/store/lexical-search';
import { openNodeDatabase } from '../workers/store/open-database-node';
import { createStore } from '../workers/store/store';
import type { Retriever, RetrieverFactory } from './retriever';
import { storeBeirDoc } from './store-beir-doc';
import {
  DEFAULT_DOCUMENT_EVIDENCE,
  evidenceFrom,
  groupByDocument,
} from '../workers/search/document-evidence';

/** How many chunks are ranked per query before aggregating to documents. */
const CHUNK_DEPTH = 1000;

function bm25Overrides(options: Record<string, string>): Partial<Bm25Params> {
  const out: Partial<Bm25Params> = {};
  for (const key of ['k1', 'b', 'titleWeight', 'bodyWeight'] as const) {
    if (options[key] !== undefined) out[key] = Number(options[key]);
  }
  if (options.idfUnit === 'chunk' || options.idfUnit === 'document') out.idfUnit = options.idfUnit;
  return out;
}

export const createLexicalRetriever: RetrieverFactory = async (options) => {
  const db = await openNodeDatabase();
  const store = await createStore(db, { clock: () => 0 });
  const search = await createLexicalSearch(db.sql, {
    bm25: bm25Overrides(options),
    version: store.version,
  });
  const evidence = evidenceFrom(options, DEFAULT_DOCUMENT_EVIDENCE);
  const retriever: Retriever = {
    async index(docs, onProgress) {
      let chunks = 0;
      let done = 0;
      for (const doc of docs) {
        chunks += (await storeBeirDoc(store, doc)).length;
        done++;
        if (onProgress && (done % 250 === 0 || done === docs.length)) onProgress(done, docs.length);
      }
      return { documents: done, chunks };
    },
    async search(query, k) {
      const chunks = await search.rankChunks(query, { limit: CHUNK_DEPTH });
      return groupByDocument(chunks, evidence)
        .slice(0, k)
        .map((g) => ({ docId: g.path, score: g.score }));
    },
    async close() {
      await db.close();
    },
  };
  return retriever;
};
