// The hybrid eval mode made plannable for the research modes: the same core, fusion and
// document aggregation as `hybrid` (eval/hybrid-mode.ts), but each side can get its own
// text — the lexical side RM3/WordNet's expanded query, the semantic side HyDE's hypothetical
// document (HyDE embeds the document on the canonical path instead of the query).
import { createHybridCore, fuseToDocs, hybridSettings } from './hybrid-mode';
import type { RetrieverFactory } from './retriever';
import type { RequestRetriever } from './research-modes';

export const createPlannableHybrid: RetrieverFactory = async (options) => {
  const core = await createHybridCore(options);
  const { method, ...opts } = hybridSettings(options);
  const { lexicalK } = opts;
  const retriever: RequestRetriever = {
    index: (docs, onProgress) => core.index(docs, onProgress),
    async search(query, k) {
      return fuseToDocs(await core.lists(query, opts), method, k);
    },
    async searchRequest(req, k) {
      const lexicalText = req.lexicalQuery ?? req.text;
      const semanticText = req.semanticText ?? req.text;
      if (lexicalText === semanticText)
        return fuseToDocs(await core.lists(req.text, opts), method, k);
      const [lex, sem] = [
        await core.lists(lexicalText, opts),
        await core.lists(semanticText, opts),
      ];
      return fuseToDocs({ lexical: lex.lexical, semantic: sem.semantic }, method, k);
    },
    // RM3 feedback from the lexical list alone (the fused list's semantic half drifted: -2 nDCG).
    async lexicalSearch(query, k) {
      const { lexical } = await core.lists(query, { ...opts, lexicalK: Math.max(k, lexicalK) });
      const best = new Map<string, number>();
      for (const c of lexical) if (!best.has(c.path)) best.set(c.path, c.score);
      return [...best].slice(0, k).map(([docId, score]) => ({ docId, score }));
    },
    close: () => core.close(),
  };
  return retriever;
};
