// The answer room's deps (workers/answer/types.ts) built on the hybrid eval core: the same store,
// chunker, embedding cache, HNSW and fusion as `--mode hybrid`, so the crag task measures the
// pipeline on what users' searches return. Documents and chunk texts are kept in memory (the
// app reads them from SQLite); chunk ids are the store's (checked against every retrieved chunk).
// Ablation ("library without these documents"): both lists are read deeper and the excluded
// documents' chunks removed before fusion (BM25's IDF still counts them: a close approximation).
import { chunkText } from '../workers/ingest/chunk';
import { fuseHybrid } from '../workers/search/rrf';
import { contentStems } from '../workers/answer/text';
import type {
  AnswerDeps,
  AnswerDocument,
  Retrieval,
  RetrievedChunk,
} from '../workers/answer/types';
import { loadSynonymIndex } from '../workers/query-plan/wordnet-node';
import type { BeirDoc } from './beir';
import {
  createHybridCore,
  fuseToDocs,
  hybridSettings,
  type HybridCore,
  type HybridLists,
} from './hybrid-mode';
import type { RankedDoc } from './modes';

export interface CragHarness {
  deps: Omit<AnswerDeps, 'modelId' | 'clock'>;
  retrieve(
    query: string,
    opts?: { lexicalQuery?: string; exclude?: Set<string> },
  ): Promise<Retrieval & { docs: RankedDoc[] }>;
  /** BEIR id <-> the harness's document ids (corpus order). */
  idOf(path: string): number | undefined;
  pathOf(documentId: number): string;
  doc(documentId: number): AnswerDocument;
  lexicalTopK(
    query: string,
    k: number,
  ): Promise<Array<{ id: string; text: string; score: number }>>;
  synonyms: () => Promise<ReturnType<typeof loadSynonymIndex>>;
  modelId: string;
  /**
   * Lexical-only retrieval from now on (on) or hybrid again (off): no semantic list and no query
   * vector, as a library without vectors retrieves (no semantic index yet, USE-lite not loaded).
   */
  setLexicalOnly(on: boolean): void;
  close(): Promise<void>;
}

export async function createCragHarness(
  docs: BeirDoc[],
  options: Record<string, string>,
  onProgress?: (done: number, total: number) => void,
): Promise<CragHarness> {
  const core: HybridCore = await createHybridCore(options);
  await core.index(docs, onProgress);
  const { method, lexicalK, semanticK, exact } = hybridSettings(options);
  const documents: AnswerDocument[] = [];
  const byPath = new Map<string, number>();
  const chunkInfo = new Map<
    number,
    { documentId: number; seq: number; start: number; end: number; text: string }
  >();
  const df = new Map<string, number>();
  let nextChunk = 1;
  docs.forEach((d, i) => {
    const text = d.text.trim().length > 0 ? d.text : d.title;
    const parts = chunkText(text);
    const chunks = parts.map((p) => ({ id: nextChunk++, seq: p.seq, start: p.start, end: p.end }));
    documents.push({ documentId: i, path: d.id, title: d.title, text, chunks });
    byPath.set(d.id, i);
    parts.forEach((p, j) => {
      chunkInfo.set(chunks[j]!.id, {
        documentId: i,
        seq: p.seq,
        start: p.start,
        end: p.end,
        text: p.text,
      });
      for (const s of new Set(contentStems(`${d.title} ${p.text}`)))
        df.set(s, (df.get(s) ?? 0) + 1);
    });
  });
  const totalChunks = nextChunk - 1;

  const toChunks = (lists: HybridLists): RetrievedChunk[] => {
    const fused = fuseHybrid(lists.semantic, lists.lexical, method).items;
    const lex = new Map(lists.lexical.map((c, i) => [c.chunkId, { score: c.score, rank: i + 1 }]));
    const sem = new Map(lists.semantic.map((c, i) => [c.chunkId, { score: c.score, rank: i + 1 }]));
    return fused.map((f, i) => {
      const info = chunkInfo.get(f.chunkId);
      const doc = info ? documents[info.documentId] : undefined;
      if (!info || !doc || doc.path !== f.path || info.seq !== f.seq)
        throw new Error(`chunk ${f.chunkId} (${f.path}#${f.seq}) does not match the store's ids`);
      return {
        chunkId: f.chunkId,
        documentId: info.documentId,
        path: doc.path,
        title: doc.title,
        seq: info.seq,
        start: info.start,
        end: info.end,
        text: info.text,
        fusedRank: i + 1,
        fusedScore: f.score,
        lexicalScore: lex.get(f.chunkId)?.score ?? null,
        lexicalRank: lex.get(f.chunkId)?.rank ?? null,
        cosine: sem.get(f.chunkId)?.score ?? null,
        semanticRank: sem.get(f.chunkId)?.rank ?? null,
      };
    });
  };

  let lexicalOnly = false;
  async function lists(
    query: string,
    exclude?: Set<string>,
    lexicalQuery?: string,
  ): Promise<HybridLists> {
    if (lexicalOnly) {
      const extra = exclude && exclude.size ? 60 : 0;
      const side = await core.lists(lexicalQuery ?? query, {
        lexicalK: lexicalK + extra,
        semanticK: 1,
        exact,
      });
      const lexical = (
        exclude ? side.lexical.filter((c) => !exclude.has(c.path)) : side.lexical
      ).slice(0, lexicalK);
      return { semantic: [], lexical };
    }
    const extra = exclude && exclude.size ? 60 : 0;
    const opts = { lexicalK: lexicalK + extra, semanticK: semanticK + extra, exact };
    const semSide = await core.lists(query, opts);
    const lexSide =
      lexicalQuery && lexicalQuery !== query ? await core.lists(lexicalQuery, opts) : semSide;
    const keep = <T extends { path: string }>(l: T[], k: number) =>
      (exclude ? l.filter((c) => !exclude.has(c.path)) : l).slice(0, k);
    return {
      semantic: keep(semSide.semantic, semanticK),
      lexical: keep(lexSide.lexical, lexicalK),
      ...(semSide.queryVector ? { queryVector: semSide.queryVector } : {}),
    };
  }

  const harness: CragHarness = {
    deps: {
      async retrieve(req) {
        const l = await lists(req.query, undefined, req.lexicalQuery);
        return { chunks: toChunks(l).slice(0, req.limit), queryVector: l.queryVector ?? null };
      },
      embed: async () => {
        throw new Error('the crag harness embeds sentences through the checker encoder');
      },
      lexicalStats: {
        async docFreq(words) {
          return { total: totalChunks, df: words.map((w) => df.get(contentStems(w)[0] ?? w) ?? 0) };
        },
      },
      document: async (id) => documents[id] ?? null,
      chunkVectors: core.chunkVectors,
    },
    async retrieve(query, opts = {}) {
      const l = await lists(query, opts.exclude, opts.lexicalQuery);
      return {
        chunks: toChunks(l).slice(0, 40),
        queryVector: l.queryVector ?? null,
        docs: fuseToDocs(l, method, 10),
      };
    },
    idOf: (p) => byPath.get(p),
    pathOf: (id) => documents[id]!.path,
    doc: (id) => documents[id]!,
    async lexicalTopK(query, k) {
      const l = await core.lists(query, {
        lexicalK: Math.max(k * 4, lexicalK),
        semanticK: 1,
        exact,
      });
      const best = new Map<string, number>();
      for (const c of l.lexical) if (!best.has(c.path)) best.set(c.path, c.score);
      return [...best].slice(0, k).map(([id, score]) => {
        const d = documents[byPath.get(id)!]!;
        return { id, score, text: `${d.title} ${d.text}` };
      });
    },
    synonyms: async () => loadSynonymIndex(),
    modelId: options.model ?? 'use-lite',
    setLexicalOnly: (on) => {
      lexicalOnly = on;
    },
    close: () => core.close(),
  };
  return harness;
}
