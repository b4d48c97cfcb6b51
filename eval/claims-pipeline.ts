// The full pipeline of `--task claims` (retrieve, select sentences, label) run through the app's
// own claim check (workers/projects/claim-check.ts `checkClaim`): the app's search over SciFact
// stored as a library (`--mode lexical`: the store's lexical search; `--mode hybrid`: the app's
// hybrid search over the cached canonical vectors), the same rationale picker, stance judgement
// and evidence gate as a user's check, only with `docs` sources per claim and every source's
// --candidates sentences (default 4) (the app: 8 sources sharing a budget of 12 sentences). A
// source's label is the check's stance for it. Node only; bench code, not shipped.
import { checkClaim, type ClaimCheckDeps } from '../workers/projects/claim-check';
import type { EvidenceJudge } from '../workers/projects/evidence';
import { provenanceOf } from '../workers/projects/provenance';
import type { SentenceSpan } from '../workers/projects/sentences';
import type { Stance, StanceProbabilities } from '../workers/projects/stance-model';
import { createLexicalSearch } from '../workers/store/lexical-search';
import { openNodeDatabase } from '../workers/store/open-database-node';
import { createStore } from '../workers/store/store';
import type { SearchRequest, SearchResponse } from '../workers/shared/types';
import type { BeirDoc } from './beir';
import type { ClaimRecord } from './claims-data';
import { originalSentences } from './claims-data';
import { createHybridCore } from './hybrid-mode';
import { loadFittedModel, type FittedModel } from '../workers/answer/fitted';
import { libraryRetrievalDeps } from '../workers/db/answers';
import { createPassageScores, type PassageScores } from '../workers/projects/passage-scores';
import { storeBeirDoc } from './store-beir-doc';

export interface PipelineResult {
  tp: number;
  predicted: number;
  gold: number;
  sentTp: number;
  sentPred: number;
  sentGold: number;
  goldRetrieved: number;
  labelledNotGold: number;
  labelledGoldWrong: number;
  /** Every judged (claim, source), for `--sweep`. */
  judged: Array<{ rank: number; gold: Stance | null; probs: StanceProbabilities[] }>;
  /** One row per judged (claim, source) for the gate's fit (`--dumpPipeline`). */
  dump: unknown[];
}

/**
 * Passage models each fitted without one fold of the train claims, for `--passageRecords`
 * (ml/eval-fits.ts; the eval CLI passes them in, so eval/ does not import ml/).
 */
export interface OutOfFold {
  models(recordsFile: string, fitted: FittedModel, log: (m: string) => void): FittedModel[];
  foldOf(claimId: string): number;
}

/** The app's search over the corpus stored as a library: lexical or hybrid. */
async function librarySearch(
  mode: string,
  args: Record<string, string>,
  corpus: BeirDoc[],
  claimIds: Map<string, string>,
  outOfFold: OutOfFold | undefined,
): Promise<{
  search(r: SearchRequest): Promise<SearchResponse>;
  passageScores?: PassageScores;
  /** How the train claims' passage scores were made: by the shipped model or out of fold. */
  passageFit?: 'in-sample' | 'out-of-fold';
  close(): Promise<void>;
}> {
  if (mode === 'hybrid') {
    const core = await createHybridCore({ ...args, threads: args.threads ?? '2' });
    await core.index(corpus);
    const { hybrid } = core.appSearch();
    const { store, lexical } = core.parts();
    // The app's retrieval deps (workers/db/answers.ts), the vectors from the eval's index
    // instead of the store's vector table.
    const retrieval = await libraryRetrievalDeps({ store, lexical, hybrid });
    const deps = { ...retrieval, chunkVectors: core.chunkVectors };
    const fitted = await loadFittedModel(args.model ?? 'use-lite');
    let passageScores = createPassageScores(deps, fitted);
    // --passageRecords FILE (train only): each claim scored by a passage model fitted without its
    // fold (passage-folds.ts), so the gate's fit sees scores as honest as a new claim's.
    if (args.passageRecords) {
      if (args.split !== 'train') throw new Error('--passageRecords: train split only');
      if (!outOfFold) throw new Error('--passageRecords: run it through `npm run eval`');
      const folds = outOfFold
        .models(args.passageRecords, fitted, (m) => process.stderr.write(`${m}\n`))
        .map((f) => createPassageScores(deps, f));
      passageScores = (claim, filters) => {
        const id = claimIds.get(claim);
        if (id === undefined) throw new Error(`--passageRecords: unknown claim ${claim}`);
        return folds[outOfFold.foldOf(id)]!(claim, filters);
      };
    }
    return {
      search: (r) => hybrid.search({ ...r, mode: 'hybrid' }),
      ...(args.noPassageScores
        ? {}
        : { passageScores, passageFit: args.passageRecords ? 'out-of-fold' : 'in-sample' }),
      close: () => core.close(),
    };
  }
  if (mode !== 'lexical') throw new Error('--task claims: --mode lexical or hybrid');
  const db = await openNodeDatabase();
  const store = await createStore(db, { clock: () => 0 });
  const lexical = await createLexicalSearch(db.sql, { version: store.version });
  for (const d of corpus) await storeBeirDoc(store, d);
  return { search: (r) => lexical.search(r), close: () => db.close() };
}

type PipelineOptions = {
  claims: ClaimRecord[];
  corpus: BeirDoc[];
  starts: Record<string, number[]>;
  judge: EvidenceJudge;
  /** The judge of one claim (out-of-fold stance models on train); default `judge`. */
  judgeFor?: (claimId: string) => EvidenceJudge;
  mode: string;
  docs: number;
  /** Sentences judged per source (the judge's own count). */
  candidates: number;
  args: Record<string, string>;
  dim: number;
  outOfFold?: OutOfFold;
};

type Library = Awaited<ReturnType<typeof librarySearch>>;
type CheckOptions = { sources: number; sentenceBudget: number };
type CheckedEvidence = Awaited<ReturnType<typeof checkClaim>>['evidence'][number];

export async function runClaimsPipeline(opts: PipelineOptions): Promise<PipelineResult> {
  const { claims, judge, docs } = opts;
  const byId = new Map(opts.corpus.map((d) => [d.id, d]));
  const claimIds = new Map(claims.map((c) => [c.claim, c.id]));
  const lib = await librarySearch(opts.mode, opts.args, opts.corpus, claimIds, opts.outOfFold);
  const paths = new Map<number, string>();
  const deps = checkDeps(opts, byId, lib, paths);
  const options = { sources: docs, sentenceBudget: docs * opts.candidates };
  const out: PipelineResult = {
    tp: 0,
    predicted: 0,
    gold: 0,
    sentTp: 0,
    sentPred: 0,
    sentGold: 0,
    goldRetrieved: 0,
    labelledNotGold: 0,
    labelledGoldWrong: 0,
    judged: [],
    dump: [],
  };
  try {
    await embedWantedSentences(opts, deps, options);
    let done = 0;
    for (const c of claims) {
      for (const e of c.evidence.values()) {
        out.gold++;
        out.sentGold += e.sentences.length;
      }
      const check = await checkClaim(
        { ...deps, judge: opts.judgeFor?.(c.id) ?? judge },
        c.claim,
        options,
      );
      for (const ev of check.evidence) {
        const docId = paths.get(ev.documentId)!;
        tallyEvidence(out, opts, lib, c, docId, byId.get(docId)!, ev);
      }
      if (++done % 25 === 0) process.stderr.write(`\r[claims] pipeline ${done}/${claims.length}`);
    }
  } finally {
    await lib.close();
  }
  return out;
}

/** The claim check's deps over the library; `paths` learns each hit's BEIR id (its path). */
function checkDeps(
  opts: PipelineOptions,
  byId: Map<string, BeirDoc>,
  lib: Library,
  paths: Map<number, string>,
): ClaimCheckDeps {
  return {
    judge: opts.judge,
    async search(r) {
      const res = await lib.search(r);
      for (const h of res.hits) paths.set(h.documentId, h.path);
      return res;
    },
    ...(lib.passageScores ? { passageScores: lib.passageScores } : {}),
    documentText: async (id) => byId.get(paths.get(id)!)?.text ?? null,
    provenance: async (id) =>
      provenanceOf({ location: paths.get(id)!, title: paths.get(id)!, date: 0 }, undefined),
  };
}

/**
 * First pass: which sentences the checks will embed (zero vectors, labels discarded), so that
 * they are embedded in one batch over the thread pool; the second pass reads the cache.
 */
async function embedWantedSentences(
  opts: PipelineOptions,
  deps: ClaimCheckDeps,
  options: CheckOptions,
): Promise<void> {
  const { judge } = opts;
  const wanted = new Set<string>();
  const collecting: EvidenceJudge = {
    ...judge,
    embedSentences: async (texts) => {
      for (const t of texts) wanted.add(t);
      return texts.map(() => new Int16Array(opts.dim));
    },
    readPairs: async () => null, // the pair model reads on the real pass (its own cache)
  };
  for (const c of opts.claims) await checkClaim({ ...deps, judge: collecting }, c.claim, options);
  await judge.embedSentences([...wanted]);
}

/** Counts one judged (claim, source) into `out`: label, sentence selection, sweep and dump rows. */
function tallyEvidence(
  out: PipelineResult,
  opts: PipelineOptions,
  lib: Library,
  c: ClaimRecord,
  docId: string,
  doc: BeirDoc,
  ev: CheckedEvidence,
): void {
  const goldEv = c.evidence.get(docId);
  if (goldEv) out.goldRetrieved++;
  const j = ev.judgement;
  const rank = ev.retrieval.rank ?? 0;
  out.judged.push({
    rank,
    gold: goldEv?.label ?? null,
    probs: j.sentences.map((s) => s.probs),
  });
  if (j.stance !== 'NEUTRAL') {
    out.predicted++;
    if (goldEv && goldEv.label === j.stance) out.tp++;
    else if (goldEv) out.labelledGoldWrong++;
    else out.labelledNotGold++;
  }
  out.dump.push({
    claim: c.id,
    docId,
    rank,
    gold: goldEv?.label ?? null,
    nei: c.evidence.size === 0,
    stance: j.stance,
    gate: j.gate ?? null,
    retrieval: ev.retrieval,
    ...(lib.passageFit ? { passageFit: lib.passageFit } : {}),
    supportScore: j.supportScore,
    maxCosine: j.maxCosine,
    maxOverlap: j.maxOverlap,
    probs: j.sentences.map((s) => s.probs),
    ...(opts.judgeFor ? { stanceFit: 'out-of-fold' } : {}),
  });
  const selected: SentenceSpan[] =
    j.stance === 'NEUTRAL' ? [] : j.sentences.filter((s) => s.evidence);
  out.sentPred += selected.length;
  if (goldEv && opts.starts[docId]) {
    const spans = originalSentences(doc.text, opts.starts[docId]);
    const goldSpans = goldEv.sentences.map((i) => spans[i]!).filter(Boolean);
    out.sentTp += goldSpans.filter((g) => selected.some((s) => overlaps(s, g))).length;
  }
}

function overlaps(a: { start: number; end: number }, b: { start: number; end: number }): boolean {
  const inter = Math.min(a.end, b.end) - Math.max(a.start, b.start);
  return inter > 0.5 * Math.min(a.end - a.start, b.end - b.start);
}
