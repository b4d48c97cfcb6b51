// Eval modes for query optimisation (issue 5): wrap a base retriever (lexical now, hybrid when it
// exists) with the research query planner. One factory, one preset per mode:
//   <base>+rm3, <base>+wordnet, <base>+keyphrases  (LLM-free)
//   hyde, fusion, routed                           (with --llm none|scripted|http:<baseUrl> [--llm-model m] [--llm-key k])
// The base retriever is document-level (Retriever.search(text, k)); when it also offers
// `searchRequest` (text, vector, lexicalQuery) the planner's HyDE vector and lexical expansion go
// to the right side, otherwise HyDE searches with the hypothetical document's text.
import type { PlanOptions, TechniqueSwitches } from '../workers/shared/research-api';
import { createHttpGenerator } from '../workers/llm/http';
import { createScriptedGenerator } from '../workers/llm/scripted';
import { createQueryPlanner } from '../workers/query-plan/planner';
import type { EmbedFn, LlmDep, RetrievalRequest } from '../workers/query-plan/types';
import { loadSynonymIndex } from '../workers/query-plan/wordnet-node';
import type { RankedDoc, Retriever, RetrieverFactory } from './retriever';

/** A base retriever that can take the planner's full request (optional). */
export interface RequestRetriever extends Retriever {
  /** `semanticText`: the text to embed for the semantic side (HyDE's hypothetical document). */
  searchRequest?(
    request: Omit<RetrievalRequest, 'limit' | 'signal'> & { semanticText?: string },
    k: number,
  ): Promise<RankedDoc[]>;
  /** The canonical embedder, when the base has one (needed for HyDE vectors). */
  embed?: EmbedFn;
  /** Lexical-only ranking for RM3 feedback (default: `search`). */
  lexicalSearch?(query: string, k: number): Promise<RankedDoc[]>;
}

export type Preset = 'rm3' | 'wordnet' | 'keyphrases' | 'hyde' | 'fusion' | 'routed';

const NONE: Partial<TechniqueSwitches> = {
  routing: false,
  llmRouting: false,
  rewrite: false,
  hyde: false,
  fusion: false,
  rm3: false,
  wordnet: false,
  keyphrases: false,
};

export const PRESETS: Record<Preset, PlanOptions> = {
  rm3: { complexity: 'moderate', techniques: { ...NONE, rm3: true } },
  wordnet: { complexity: 'moderate', techniques: { ...NONE, wordnet: true } },
  keyphrases: { complexity: 'complex', techniques: { ...NONE, keyphrases: true } },
  hyde: { complexity: 'moderate', techniques: { ...NONE, hyde: true } },
  fusion: { complexity: 'complex', techniques: { ...NONE, fusion: true } },
  routed: {},
};

/** `--llm none|scripted|http:<baseUrl>` (+ `--llm-model`, `--llm-key`). */
export function llmFromOptions(options: Record<string, string>): LlmDep | null {
  const spec = options.llm ?? 'none';
  if (spec === 'none') return null;
  if (spec === 'scripted') {
    const g = createScriptedGenerator({ yieldBetweenPieces: false });
    return { kind: 'scripted', generate: g.generate };
  }
  if (spec.startsWith('http:') || spec.startsWith('https:')) {
    const baseUrl = spec.startsWith('http:http') ? spec.slice(5) : spec;
    const g = createHttpGenerator(
      {
        baseUrl,
        model: options['llm-model'] ?? 'default',
        ...(options['llm-key'] ? { apiKey: options['llm-key'] } : {}),
      },
      { fetch },
    );
    return { kind: 'http', generate: g.generate };
  }
  throw new Error(
    `--llm ${spec}: use none, scripted or http:<baseUrl> (wllama runs only in a browser)`,
  );
}

export function plannedMode(base: RetrieverFactory, preset: Preset): RetrieverFactory {
  return async (options) => {
    const inner = (await base(options)) as RequestRetriever;
    const texts = new Map<string, string>();
    const llm = llmFromOptions(options);
    const samples = options['hyde-samples'] ? Number(options['hyde-samples']) : undefined;
    // The planner retrieves in parallel, but one wa-sqlite connection must not run overlapping
    // statements (concurrent searches failed with SQLITE_BUSY on close): serialise them here.
    let queue: Promise<unknown> = Promise.resolve();
    const serial = <T>(fn: () => Promise<T>): Promise<T> => {
      const next = queue.then(fn, fn);
      queue = next.catch(() => undefined);
      return next;
    };
    type Req = RetrievalRequest & { semanticText?: string };
    const search = (req: Req) => serial(() => searchNow(req));
    const searchNow = async (req: Req) => {
      let docs: RankedDoc[];
      if (inner.searchRequest)
        docs = await inner.searchRequest(
          {
            text: req.text,
            ...(req.vector ? { vector: req.vector } : {}),
            ...(req.lexicalQuery ? { lexicalQuery: req.lexicalQuery } : {}),
            ...(req.semanticText ? { semanticText: req.semanticText } : {}),
          },
          req.limit,
        );
      else docs = await inner.search(req.semanticText ?? req.lexicalQuery ?? req.text, req.limit);
      return docs.map((d) => ({ id: d.docId, score: d.score }));
    };
    // Without a canonical embedder HyDE cannot make a vector: the planner then searches with the
    // hypothetical document's text (embed returns an empty vector the search ignores).
    let lastHyde: string | null = null;
    const embed: EmbedFn =
      inner.embed ??
      (async (t) => {
        lastHyde = t[0] ?? null;
        return t.map(() => new Int16Array(0));
      });
    const planner = createQueryPlanner({
      search: async (req) => {
        if (inner.embed || !req.vector || !lastHyde) return search(req);
        // HyDE without an injected embedder: the base embeds the hypothetical document itself.
        const { vector: _unused, ...rest } = req;
        return search({ ...rest, semanticText: lastHyde });
      },
      embed,
      llm,
      clock: { now: () => performance.now() },
      lexicalTopK: async (q, k) =>
        (
          await serial(() => (inner.lexicalSearch ? inner.lexicalSearch(q, k) : inner.search(q, k)))
        ).map((d) => ({
          id: d.docId,
          score: d.score,
          text: texts.get(d.docId) ?? '',
        })),
      synonyms: async () => loadSynonymIndex(),
    });
    const planOptions: PlanOptions = {
      ...PRESETS[preset],
      ...(samples ? { hydeSamples: samples } : {}),
    };
    return {
      async index(docs, onProgress) {
        for (const d of docs) texts.set(d.id, `${d.title} ${d.text}`);
        return inner.index(docs, onProgress);
      },
      async search(query, k) {
        lastHyde = null;
        const { plan } = await planner.plan(query, { ...planOptions, limit: k });
        // The plan's scores (RRF when lists were fused), not each hit's score in the list it
        // came from: metrics order a run by score, so list scores would undo the fusion.
        return plan.results.map((r) => ({ docId: r.id, score: r.score }));
      },
      close: () => inner.close(),
    };
  };
}
