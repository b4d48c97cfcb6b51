// The library's answers (issue 16): builds the answer service's deps from the opened library
// (hybrid search's fused lists with each retriever's signals, chunk rows, term statistics, stored
// vectors, the active model), adds the LLM tier when a backend is active and the web step when a
// provider is enabled (the web worker arrives through a port), keeps every answer in the history
// and serves the history and diagnostics. The pair verifier (over the embed workers) reads the
// answer's best sentences.
import type { Answer, AnswerRequest } from '../shared/answer-api';
import type { AnswerWorkerApi, StoredAnswer } from '../shared/answer-history-api';
import { createError, isAppError } from '../shared/errors';
import type { WebApi } from '../shared/web-api';
import { pagesOf, parsePageStarts } from '../shared/pages';
import { parseSections, sectionAt } from '../shared/sections';
import type { Sql } from '../store/sql';
import { createAnswerService } from '../answer/service';
import { createExpansion } from '../answer/corrective';
import { loadFittedModel } from '../answer/fitted';
import { answerDiagnostics } from '../answer/diagnostics';
import { createGenerateAnswer } from '../answer/generate';
import { applyEntailment, createLlmEntail, createLlmGrade } from '../answer/llm-judge';
import { supportLabelFor } from '../answer/checker';
import { createWebStrips, webEnabled } from '../answer/web-strips';
import type {
  AnswerDeps,
  AnswerDocument,
  AnswerHooks,
  RetrievedChunk,
  Retrieval,
} from '../answer/types';
import { createPromiseMemo } from '../shared/promise-memo';
import type { LexicalTopKFn, LlmDep } from '../query-plan/types';
import type { SynonymIndex } from '../query-plan/wordnet';
import { classifyComplexity } from '../query-plan/routing';
import { createAnswerHistory } from '../store/answer-history';
import { createChunkLookup } from '../store/chunk-lookup';
import { createTermStats } from '../store/term-stats';
import type { LexicalSearch } from '../store/lexical-search';
import type { Store } from '../store/store';
import type { HybridSearch } from '../search/hybrid';
import type { SemanticSync } from './semantic-sync';

/** What the web step needs of the web worker. */
export type WebWorker = Pick<WebApi, 'search' | 'listProviders'>;

export interface AnswerLinkDeps {
  parts(): Promise<{
    store: Store;
    lexical: LexicalSearch;
    hybrid: HybridSearch;
    lexicalTopK: LexicalTopKFn;
  }>;
  semantic: SemanticSync;
  /** The active LLM backend as a generator (null: none), after following the user's choice. */
  llm(): Promise<LlmDep | null>;
  wrapWeb(port: MessagePort): WebWorker;
  synonyms(): Promise<SynonymIndex>;
  /** Monotonic ms (latencies) and ms since epoch (createdAt). */
  now(): number;
  wallNow(): number;
}

/**
 * The retrieval side of the answer service's deps over an opened library: the fused lists with
 * each retriever's signals, term statistics, documents and the chunk vectors of the model the hybrid
 * search runs on (none without one). The answer service and the claim check's passage scores
 * (projects-link.ts) both read it.
 */
export async function libraryRetrievalDeps(parts: {
  store: Store;
  lexical: Pick<LexicalSearch, 'stems'>;
  hybrid: HybridSearch;
}): Promise<Pick<AnswerDeps, 'retrieve' | 'lexicalStats' | 'document' | 'chunkVectors'>> {
  const { store, lexical, hybrid } = parts;
  const lookup = createChunkLookup(store.sql);
  const terms = await createTermStats(store.sql, lexical.stems);
  return {
    async retrieve(req) {
      const { fused, queryVector } = await hybrid.fusedLists(
        { query: req.query, ...(req.filters ? { filters: req.filters } : {}) },
        req.lexicalQuery ? { lexicalQuery: req.lexicalQuery } : {},
      );
      const top = fused.slice(0, req.limit);
      const rows = await lookup.chunkRows(top.map((f) => f.chunkId));
      const chunks: RetrievedChunk[] = [];
      top.forEach((f, i) => {
        const row = rows.get(f.chunkId);
        if (!row) return; // deleted since the index last synced
        chunks.push({
          ...row,
          fusedRank: i + 1,
          fusedScore: f.score,
          lexicalScore: f.listScores.lexical ?? null,
          lexicalRank: f.ranks.lexical ?? null,
          cosine: f.listScores.semantic ?? null,
          semanticRank: f.ranks.semantic ?? null,
        });
      });
      return { chunks, queryVector };
    },
    lexicalStats: terms,
    async document(documentId) {
      try {
        const d = await store.getDocument(documentId);
        return { documentId: d.id, path: d.path, title: d.title, text: d.text, chunks: d.chunks };
      } catch (err) {
        if (isAppError(err) && err.code === 'NOT_FOUND') return null;
        throw err;
      }
    },
    // The semantic index's own rows (the vectors the retrieval just searched; SQLite only for
    // chunks it does not hold yet), none without a model.
    chunkVectors: (ids) => hybrid.storedVectors(ids),
  };
}

/**
 * The library reads of one ask (retrievals, documents, chunk vectors, embeddings), remembered while
 * it runs: a request is read once however many passes of the pipeline make it.
 */
export function readOncePerAsk<
  D extends Pick<AnswerDeps, 'retrieve' | 'document' | 'chunkVectors' | 'embed'>,
>(deps: D): D {
  const retrievals = createPromiseMemo<string, Retrieval>();
  const documents = createPromiseMemo<number, AnswerDocument | null>();
  const vectors = createPromiseMemo<string, Map<number, Int16Array>>();
  const embeddings = createPromiseMemo<string, Int16Array[]>();
  return {
    ...deps,
    retrieve: async (req) => {
      const r = await retrievals(JSON.stringify(req), () => deps.retrieve(req));
      return { ...r, chunks: [...r.chunks] };
    },
    document: (id) => documents(id, () => deps.document(id)),
    chunkVectors: (ids) => vectors(JSON.stringify(ids), () => deps.chunkVectors(ids)),
    embed: (texts, kind) =>
      embeddings(JSON.stringify([kind, texts]), () => deps.embed(texts, kind)),
  };
}

/** Builds the answer service's deps over the opened library for the active model. */
async function libraryAnswerDeps(
  deps: AnswerLinkDeps,
): Promise<Omit<AnswerDeps, 'hooks' | 'expand'>> {
  const parts = await deps.parts();
  const model = deps.semantic.status().model;
  return {
    ...(await libraryRetrievalDeps(parts)),
    // Before a model is loaded the checker still runs, on lexical evidence only (cosine 0).
    embed: (texts, kind) =>
      model
        ? deps.semantic.embed(texts, { role: kind })
        : Promise.resolve(texts.map(() => new Int16Array(1))),
    modelId: model?.id ?? 'use-lite',
    pairVerifier: deps.semantic.pairVerifier(),
    clock: { now: deps.now, wallNow: deps.wallNow },
  };
}

export function createAnswerLink(deps: AnswerLinkDeps): AnswerWorkerApi {
  let web: WebWorker | null = null;
  /** Per request: the whole answer, and the generation alone (Stop while it writes). */
  const inflight = new Map<
    string,
    { ask: AbortController; write: AbortController; writing: boolean }
  >();
  const history = async () => createAnswerHistory((await deps.parts()).store.sql);

  /** The LLM and web hooks for one answer: only what is active and allowed. */
  async function hooks(request: AnswerRequest): Promise<AnswerHooks> {
    const out: AnswerHooks = {};
    const llm = request.allowLlm === false ? null : await deps.llm();
    if (llm) {
      out.llmGrade = createLlmGrade(llm);
      out.llmEntail = createLlmEntail(llm);
      out.generate = createGenerateAnswer({ llm, now: deps.now });
      out.llmBackend = llm.kind;
    }
    if (web && request.allowWeb !== false && (await webEnabled(web).catch(() => false))) {
      // The router shapes the web step: the question's route picks providers and depth.
      out.web = createWebStrips({ api: web, route: (q) => classifyComplexity(q).complexity });
    }
    return out;
  }

  return {
    async ask(request, requestId, onToken) {
      if (!request.question?.trim())
        throw createError('INVALID_QUERY', { reason: 'Type a question to answer.' });
      const run = { ask: new AbortController(), write: new AbortController(), writing: false };
      if (requestId) inflight.set(requestId, run);
      try {
        const base = await libraryAnswerDeps(deps);
        const fitted = await loadFittedModel(base.modelId);
        const { lexicalTopK } = await deps.parts();
        const expand = createExpansion(fitted.corrective.technique, {
          lexicalTopK,
          synonyms: deps.synonyms,
        });
        const h = await hooks(request);
        const generate = h.generate;
        if (generate) {
          // Stop while the model writes ends the writing only: the partial answer is kept.
          h.generate = async (question, strips, token) => {
            run.writing = true;
            try {
              return await generate(question, strips, token, run.write.signal);
            } finally {
              run.writing = false;
            }
          };
        }
        // One reading of the library per ask: a partial answer's extractive companion below
        // re-runs the pipeline on the same retrievals, documents and vectors.
        const withDeps = { ...readOncePerAsk(base), ...(expand ? { expand } : {}) };
        let answer: Answer = await createAnswerService({ ...withDeps, hooks: h }, fitted).ask(
          { ...request, mode: request.mode ?? (h.generate ? 'generated' : 'extractive') },
          { signal: run.ask.signal, ...(onToken ? { onToken } : {}) },
        );
        if (h.llmEntail && answer.mode === 'generated') {
          answer = await applyEntailment(answer, h.llmEntail, supportLabelFor(fitted), {
            signal: run.ask.signal,
            now: deps.now,
          });
        }
        // A partial generated answer comes with the extractive one (no LLM, deterministic).
        const extractive = answer.partial
          ? await createAnswerService(withDeps, fitted).ask(
              { ...request, mode: 'extractive', allowLlm: false, allowWeb: false },
              { signal: run.ask.signal },
            )
          : undefined;
        const { sql } = (await deps.parts()).store;
        answer = await withPages(answer, sql);
        const id = await (await history()).save(answer);
        const extra = extractive ? { extractive: await withPages(extractive, sql) } : {};
        return { ...answer, id, ...extra } satisfies StoredAnswer;
      } finally {
        if (requestId) inflight.delete(requestId);
      }
    },
    cancelAnswer: async (requestId) => {
      const run = inflight.get(requestId);
      if (run?.writing) run.write.abort();
      else run?.ask.abort();
    },
    listAnswers: async (limit) => (await history()).list(limit),
    getAnswer: async (id) => (await history()).get(id),
    deleteAnswer: async (id) => (await history()).remove(id),
    exportAnswers: async () => (await history()).exportJson(deps.wallNow()),
    answerDiagnostics: async () => answerDiagnostics(await (await history()).records()),
    connectWeb: async (port) => {
      web = deps.wrapWeb(port);
    },
  };
}

/**
 * The answer with each library reference's PDF pages and outline section (documents without
 * them: unchanged).
 */
async function withPages<A extends Answer>(answer: A, sql: Sql): Promise<A> {
  const ids = [
    ...new Set(
      answer.references.map((r) => r.documentId).filter((id): id is number => id !== null),
    ),
  ];
  if (!ids.length) return answer;
  const rows = await sql.all<{ id: number; page_starts: string | null; sections: string | null }>(
    'SELECT id, page_starts, sections FROM documents WHERE id IN (SELECT value FROM json_each(?))',
    [JSON.stringify(ids)],
  );
  const maps = new Map(rows.map((r) => [Number(r.id), parsePageStarts(r.page_starts)]));
  const sections = new Map(rows.map((r) => [Number(r.id), parseSections(r.sections)]));
  const references = answer.references.map((r) => {
    if (r.documentId === null) return r;
    const pages = pagesOf(maps.get(r.documentId), r.start, r.end);
    const section = sectionAt(sections.get(r.documentId), r.start);
    return { ...r, ...(pages ? { pages } : {}), ...(section ? { section } : {}) };
  });
  return { ...answer, references };
}
