// A claim check (issue 17 item 4+5): search the library (optionally one project, optionally a
// minimum grade — B or better for key claims), judge the distinct sources of the hits with the
// stance model, and triangulate. Search, document text and provenance are injected, so the same
// check runs on the lexical, hybrid or planned search. Cancellable between stages; a source that
// disappears mid-check is skipped and reported, never thrown.
//
// Cost: embedding sentences is nearly all of a check (about 20 ms per sentence for USE-lite on
// one core), so the sentences of all sources are picked first (BM25 against the claim), capped
// by a budget shared by the sources (each source's best sentence first, then the second best of
// each, ...), and embedded in one call the embedder can batch.
import { createError } from '../shared/errors';
import type { PairJudgement } from '../shared/pair-verifier';
import type { QualityGrade, SearchHit, SearchRequest } from '../shared/types';
import type { EvidenceJudge, SourceJudgement } from './evidence';
import type { RetrievalContext } from './evidence-gate';
import type { PassageScores } from './passage-scores';
import type { Provenance } from './provenance';
import { splitSentences, type SentenceSpan } from './sentences';
import { triangulate, type JudgedSource, type Triangulation } from './triangulation';

export interface ClaimCheckDeps {
  judge: EvidenceJudge;
  search(request: SearchRequest): Promise<{ hits: SearchHit[] }>;
  /** The document's text, or null when it was deleted meanwhile. */
  documentText(documentId: number): Promise<string | null>;
  provenance(documentId: number): Promise<Provenance | null>;
  /**
   * The answer evaluator's P(relevant) per document for the claim (passage-scores.ts), read by the
   * evidence gate; absent: not scored.
   */
  passageScores?: PassageScores;
  /** The document's sentences (a cache may serve them); default: the rule-based splitter. */
  sentences?(documentId: number, text: string): SentenceSpan[];
  now?: () => number;
}

/** Sentences embedded per claim check across all its sources (8 sources: 1-2 each). */
export const SENTENCE_BUDGET = 12;
/** Distinct sources judged per claim check. */
export const SOURCES_PER_CHECK = 8;
/** Sentences embedded per call, so a cancel is seen between calls. */
const EMBED_BATCH = 8;

export interface ClaimCheckOptions {
  project?: number;
  minGrade?: QualityGrade;
  /** How many distinct sources to judge (default 8). */
  sources?: number;
  /** How many sentences to embed over all sources (default `SENTENCE_BUDGET`). */
  sentenceBudget?: number;
  signal?: { aborted: boolean };
}

export interface ClaimEvidence extends JudgedSource {
  documentId: number;
  judgement: SourceJudgement;
  /** Where the search ranked the source: what the judge's evidence gate read with the judgement. */
  retrieval: RetrievalContext;
}

export interface ClaimCheck {
  claim: string;
  triangulation: Triangulation;
  evidence: ClaimEvidence[];
  /** Sources that vanished between search and judgement. */
  skipped: number[];
  tookMs: number;
}

/** @throws AppError ABORTED when `signal.aborted` turns true. */
export async function checkClaim(
  deps: ClaimCheckDeps,
  claim: string,
  options: ClaimCheckOptions = {},
): Promise<ClaimCheck> {
  const now = deps.now ?? (() => performance.now());
  const t0 = now();
  const limit = options.sources ?? SOURCES_PER_CHECK;
  const checkAbort = () => {
    if (options.signal?.aborted) throw createError('ABORTED', { reason: 'Claim check cancelled.' });
  };
  const filters = {
    ...(options.project !== undefined ? { project: options.project } : {}),
    ...(options.minGrade ? { minGrade: options.minGrade } : {}),
  };
  checkAbort();
  // The same search depth whatever `sources` is, so a source's retrieval context (the next
  // source's score) does not depend on how many are judged.
  const [{ hits }, scores] = await Promise.all([
    deps.search({ query: claim, limit: Math.max(limit, SOURCES_PER_CHECK) * 4, filters }),
    deps.passageScores?.(claim, filters) ?? Promise.resolve(null),
  ]);
  const contexts = retrievalContexts(hits, scores);
  const docIds = [...contexts.keys()].slice(0, limit);
  checkAbort();
  const [view, fetched] = await Promise.all([
    deps.judge.claimView(claim),
    Promise.all(
      docIds.map(async (id) => {
        const [text, provenance] = await Promise.all([deps.documentText(id), deps.provenance(id)]);
        return { id, text, provenance };
      }),
    ),
  ]);
  const skipped: number[] = [];
  const sources: Array<{ id: number; provenance: Provenance; ranked: SentenceSpan[] }> = [];
  for (const f of fetched) {
    if (f.text === null || f.provenance === null) {
      skipped.push(f.id);
      continue;
    }
    const all = deps.sentences?.(f.id, f.text) ?? splitSentences(f.text);
    sources.push({ id: f.id, provenance: f.provenance, ranked: deps.judge.pick(view, all) });
  }
  const chosen = shareBudget(
    sources.map((s) => s.ranked),
    options.sentenceBudget ?? SENTENCE_BUDGET,
  );
  const texts = [...new Set(chosen.flat().map((s) => s.text))];
  const vectors = new Map<string, Int16Array>();
  const read = new Map<string, PairJudgement>();
  for (let i = 0; i < texts.length; i += EMBED_BATCH) {
    checkAbort();
    const batch = texts.slice(i, i + EMBED_BATCH);
    const [got, pairs] = await Promise.all([
      deps.judge.embedSentences(batch),
      deps.judge.readPairs(view, batch),
    ]);
    batch.forEach((t, k) => {
      vectors.set(t, got[k]!);
      if (pairs) read.set(t, pairs[k]!);
    });
  }
  checkAbort();
  const evidence = sources.map((s, i): ClaimEvidence => {
    const picked = [...chosen[i]!].sort((a, b) => a.start - b.start);
    const retrieval = contexts.get(s.id)!;
    const judgement = deps.judge.judgePicked(
      view,
      picked,
      picked.map((p) => vectors.get(p.text)!),
      retrieval,
      read.size > 0 ? picked.map((p) => read.get(p.text)!) : null,
    );
    return {
      id: String(s.id),
      documentId: s.id,
      provenance: s.provenance,
      stance: judgement.stance,
      supportScore: judgement.supportScore,
      judgement,
      retrieval,
    };
  });
  const tri = triangulate(evidence, options.minGrade ? { minGrade: options.minGrade } : {});
  return { claim, triangulation: tri, evidence, skipped, tookMs: now() - t0 };
}

/**
 * Per distinct document of a ranked hit list (in first-seen order): its rank among the documents,
 * the next document's best score over its own, and the best lexical / semantic rank of its chunks
 * (null when that list did not find it; absent when no hit carries that list's rank at all, as in
 * a lexical-only search).
 */
export function retrievalContexts(
  hits: SearchHit[],
  passageScores: Map<number, number> | null = null,
): Map<number, RetrievalContext> {
  const best = new Map<number, number>();
  const lexical = new Map<number, number>();
  const semantic = new Map<number, number>();
  const relevance = new Map<number, number>();
  let anyLexical = false;
  let anySemantic = false;
  for (const h of hits) {
    if (!best.has(h.documentId)) best.set(h.documentId, h.score);
    if (h.relevance)
      relevance.set(
        h.documentId,
        Math.max(h.relevance.precision, relevance.get(h.documentId) ?? 0),
      );
    const l = h.ranks.lexical;
    const m = h.ranks.semantic;
    if (l !== undefined) {
      anyLexical = true;
      lexical.set(h.documentId, Math.min(l, lexical.get(h.documentId) ?? Infinity));
    }
    if (m !== undefined) {
      anySemantic = true;
      semantic.set(h.documentId, Math.min(m, semantic.get(h.documentId) ?? Infinity));
    }
  }
  const ids = [...best.keys()];
  const out = new Map<number, RetrievalContext>();
  ids.forEach((id, rank) => {
    const score = best.get(id)!;
    const next = rank + 1 < ids.length ? best.get(ids[rank + 1]!)! : 0;
    out.set(id, {
      rank,
      nextRatio: score > 0 ? next / score : 0,
      ...(anyLexical ? { lexicalRank: lexical.get(id) ?? null } : {}),
      ...(anySemantic ? { semanticRank: semantic.get(id) ?? null } : {}),
      ...(relevance.has(id) ? { relevance: relevance.get(id)! } : {}),
      // A document the evaluator did not reach (past its top 10) scores 0.
      ...(passageScores ? { passageScore: passageScores.get(id) ?? 0 } : {}),
    });
  });
  return out;
}

/**
 * Spreads `budget` sentences over sources whose candidates are ranked best first: every
 * source's best, then every source's second best, and so on (sources in search order).
 */
export function shareBudget<T>(ranked: T[][], budget: number): T[][] {
  const out = ranked.map((): T[] => []);
  let left = budget;
  for (let rank = 0; left > 0; rank++) {
    let any = false;
    for (let s = 0; s < ranked.length && left > 0; s++) {
      const c = ranked[s]![rank];
      if (c === undefined) continue;
      out[s]!.push(c);
      left--;
      any = true;
    }
    if (!any) break;
  }
  return out;
}
