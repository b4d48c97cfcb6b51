// `npm run eval -- --dataset ../shared/datasets/scifact --task claims [--json FILE]`: the LLM-free
// claim verification of issue 17 on the SciFact dev claims (claims_validation.csv; never used for
// fitting). Prints one JSON report:
// - stance_macro_f1_oracle: 3-way label of each (claim, abstract) given the gold rationale
//   sentences (NEI: the 3 BM25-closest sentences of each cited abstract);
// - stance_sc_macro_f1: SUPPORT vs CONTRADICT on the SUPPORT/CONTRADICT instances alone;
// - abstract_label_f1 (+ P/R) and sentence selection P/R/F1 for the full pipeline: the app's claim
//   check (workers/projects/claim-check.ts, via claims-pipeline.ts) over the app's --mode search
//   (lexical or hybrid; default: the gate file's), --docs sources per claim, gated, labelled;
// - audit_right_pass / audit_wrong_flagged: the citation audit on each gold (claim, abstract)
//   citation and on the same claim citing a random other abstract.
// Options: --model all-MiniLM-L6-v2|use-lite  --split validation|train  --mode lexical|hybrid  --docs N  --sweep 1 (train only)
//          --candidates N (sentences per source)  --noPassageScores 1 (hybrid: no evaluator scores)
//          --passageRecords FILE (train: out-of-fold passage scores from the crag-fit records, passage-folds.ts)
//          --stanceFolds DIR (train: out-of-fold stances, the fold models stance-fit.ts --folds DIR writes)
//          --dumpPipeline FILE (ungated rows for ml/evidence-gate-fit.ts)  --skipAudit 1
//          --threads 2  --stance <fitted json>
//          --verifier DIR (a pair-verifier bundle, e.g. public/models/sift-verifier-v1: its stance
//          head judges every sentence, oracle and pipeline; the evidence gate is not applied).  Node only.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mulberry32 } from '../workers/embed/rng.testkit';
import { auditCitation } from '../workers/projects/audit';
import {
  CANDIDATES_PER_SOURCE,
  createEvidenceJudge,
  type ClaimView,
  type EvidenceJudge,
} from '../workers/projects/evidence';
import { evidenceGateFor, type EvidenceGate } from '../workers/projects/evidence-gate';
import { contentStems } from '../workers/text-features/stance-cues';
import { splitSentences } from '../workers/projects/sentences';
import { textView } from '../workers/text-features/stance-features';
import {
  createStanceModel,
  STANCE_LABELS,
  type FittedStanceModel,
  type Stance,
  type StanceModel,
  type StanceProbabilities,
} from '../workers/projects/stance-model';
import type { PairVerifier } from '../workers/shared/pair-verifier';
import { createFolderVerifier } from '../workers/verifier/node-bundle';
import { loadCorpus, type BeirDoc } from './beir';
import {
  loadClaims,
  loadSentenceStarts,
  oracleInstances,
  originalSentences,
  type ClaimRecord,
  type SentenceStarts,
} from './claims-data';
import { runClaimsPipeline, type OutOfFold, type PipelineResult } from './claims-pipeline';
import { createStanceEmbedder, type StanceEmbedder } from './stance-embed';
import { confusion, macroF1, prf } from './stance-metrics';

const round = (x: number) => Math.round(x * 10000) / 10000;

type ClaimViews = Map<string, ClaimView>;

/** Everything the three parts of the task share: data, embedder, stance model, judges. */
interface ClaimsSetup {
  dataset: string;
  model: string;
  split: 'validation' | 'train';
  topDocs: number;
  mode: string;
  fitted: FittedStanceModel;
  corpusList: BeirDoc[];
  corpus: Map<string, BeirDoc>;
  claims: ClaimRecord[];
  starts: SentenceStarts;
  embedder: StanceEmbedder;
  stance: StanceModel;
  gate: EvidenceGate | null;
  candidates: number;
  judge: EvidenceJudge;
  judgeFor: ((claimId: string) => EvidenceJudge) | undefined;
  claimViews: ClaimViews;
  pairs: PairVerifier | null;
}

export async function runClaimsTask(
  args: Record<string, string>,
  outOfFold?: OutOfFold,
): Promise<void> {
  const t0 = performance.now();
  const setup = await loadClaimsSetup(args);
  const oracle = await runOracle(setup);
  const tOracle = performance.now();
  const pipeline = await runPipelinePart(setup, args, outOfFold);
  const tPipeline = performance.now();
  const audit = await runAudit(setup, args);
  if (args.sweep) sweepThresholds(setup, pipeline);
  const seconds = {
    oracle: round((tOracle - t0) / 1000),
    pipeline: round((tPipeline - tOracle) / 1000),
    audit: round((performance.now() - tPipeline) / 1000),
  };
  const text = JSON.stringify(claimsReport(setup, oracle, pipeline, audit, seconds), null, 2);
  if (args.json) writeFileSync(args.json, `${text}\n`);
  console.log(text);
}

/** Reads the corpus, claims and fitted stance model; builds the embedder, gate and judges. */
async function loadClaimsSetup(args: Record<string, string>): Promise<ClaimsSetup> {
  const dataset = args.dataset!;
  const model = args.model ?? 'all-MiniLM-L6-v2';
  const split = (args.split ?? 'validation') as 'validation' | 'train';
  // One abstract per claim: on TRAIN (--split train --sweep 1, use-lite, lexical) the top hit
  // alone gives abstract label F1 0.389 against 0.252 for the top three (precision 0.35 vs 0.15).
  // With the evidence gate, the depth the gate's fit chose (train abstract F1).
  const topDocs = Number(args.docs ?? (args.noGate ? 1 : (evidenceGateFor(model)?.docs ?? 1)));
  const mode = args.mode ?? evidenceGateFor(model)?.mode ?? 'lexical';
  const fitted = JSON.parse(
    readFileSync(args.stance ?? `workers/fitted/stance-${model}.json`, 'utf8'),
  ) as FittedStanceModel;
  const corpusList = await loadCorpus(dataset);
  const corpus = new Map(corpusList.map((d) => [d.id, d]));
  const claims = loadClaims(dataset, split);
  const starts = loadSentenceStarts();
  const embedder = await createStanceEmbedder(model, Number(args.threads ?? 2));
  const stance = createStanceModel(fitted, embedder.dim);
  // The evidence gate (fitted on train by ml/evidence-gate-fit.ts); --noGate 1 leaves it out
  // (the dumps the fit reads are written without it).
  const gate = args.noGate || args.dumpPipeline ? null : evidenceGateFor(model);
  // --candidates N: sentences judged per source (default CANDIDATES_PER_SOURCE; train experiments).
  const candidates = Number(args.candidates ?? CANDIDATES_PER_SOURCE);
  const pairs = args.verifier ? createFolderVerifier(args.verifier) : null;
  const judge = createEvidenceJudge({ model: stance, embed: embedder, gate, candidates, pairs });
  const judgeFor = args.stanceFolds
    ? foldJudges(args.stanceFolds, split, model, fitted, embedder, gate, candidates)
    : undefined;
  const claimVectors = await embedder.claims(claims.map((c) => c.claim));
  const claimViews = new Map(
    claims.map((c, i) => [c.id, { ...textView(c.claim, claimVectors[i]!), text: c.claim }]),
  );
  return {
    dataset,
    model,
    split,
    topDocs,
    mode,
    fitted,
    corpusList,
    corpus,
    claims,
    starts,
    embedder,
    stance,
    gate,
    candidates,
    judge,
    judgeFor,
    claimViews,
    pairs,
  };
}

/**
 * --stanceFolds DIR (train only): each train claim's pipeline judged by the stance model fitted
 * without its fold (stance-fit.ts --folds DIR), so the gate's dump holds out-of-fold stances.
 */
function foldJudges(
  dir: string,
  split: string,
  model: string,
  fitted: FittedStanceModel,
  embedder: StanceEmbedder,
  gate: EvidenceGate | null,
  candidates: number,
): (claimId: string) => EvidenceJudge {
  if (split !== 'train') throw new Error('--stanceFolds: train split only');
  const folds = [0, 1, 2, 3, 4].map((k) => {
    const m = JSON.parse(
      readFileSync(join(dir, `stance-${model}-fold${k}.json`), 'utf8'),
    ) as FittedStanceModel;
    if (m.provenance.config !== fitted.provenance.config)
      throw new Error(`--stanceFolds: fold ${k} was fitted with another configuration`);
    const foldModel = createStanceModel(m, embedder.dim);
    return createEvidenceJudge({ model: foldModel, embed: embedder, gate, candidates });
  });
  return (id) => folds[Number(id) % 5]!;
}

interface OracleResult {
  instances: number;
  gold: Stance[];
  pred: Stance[];
  scGold: Stance[];
  scPred: Stance[];
}

/** 1. Oracle: the stance of each (claim, abstract) given its gold evidence sentences. */
async function runOracle(setup: ClaimsSetup): Promise<OracleResult> {
  const { claims, corpus, starts, embedder, stance, claimViews } = setup;
  const instances = oracleInstances(claims, corpus, starts);
  const evidenceTexts = instances.map((inst) => {
    const sents = originalSentences(corpus.get(inst.docId)!.text, starts[inst.docId]!);
    return inst.sentenceIdx.map((i) => sents[i]?.text ?? '').filter((s) => s);
  });
  const vecs = await embedder.sentences([...new Set(evidenceTexts.flat())]);
  const uniq = [...new Set(evidenceTexts.flat())];
  const vecOf = new Map(uniq.map((t, i) => [t, vecs[i]!]));
  const out: OracleResult = {
    instances: instances.length,
    gold: [],
    pred: [],
    scGold: [],
    scPred: [],
  };
  const pairLps = setup.pairs ? await pairLogProbs(setup.pairs, instances, evidenceTexts) : null;
  instances.forEach((inst, k) => {
    const claim = claimViews.get(inst.claimId)!;
    const lps =
      pairLps?.[k] ??
      evidenceTexts[k]!.map((t) => stance.logProbs(claim, textView(t, vecOf.get(t)!)));
    out.gold.push(inst.label);
    out.pred.push(combine(lps, false));
    if (inst.label !== 'NEUTRAL') {
      out.scGold.push(inst.label);
      out.scPred.push(combine(lps, true));
    }
  });
  return out;
}

/**
 * 2. Full pipeline: retrieve, select sentences, label, through the app's claim check
 * (eval/claims-pipeline.ts) with --docs sources per claim. Null with --skipPipeline 1.
 */
async function runPipelinePart(
  setup: ClaimsSetup,
  args: Record<string, string>,
  outOfFold: OutOfFold | undefined,
): Promise<PipelineResult | null> {
  const { corpusList, mode } = setup;
  process.stderr.write(`[claims] pipeline over ${corpusList.length} abstracts (${mode})\n`);
  const pipelineClaims = args.skipPipeline ? [] : setup.claims; // --skipPipeline 1: audit work only
  const pipeline = pipelineClaims.length
    ? await runClaimsPipeline({
        claims: pipelineClaims,
        corpus: corpusList,
        starts: setup.starts,
        judge: setup.judge,
        ...(setup.judgeFor ? { judgeFor: setup.judgeFor } : {}),
        mode,
        docs: setup.topDocs,
        candidates: setup.candidates,
        args: { ...args, model: setup.model },
        dim: setup.embedder.dim,
        ...(outOfFold ? { outOfFold } : {}),
      })
    : null;
  if (args.dumpPipeline && pipeline)
    writeFileSync(args.dumpPipeline, pipeline.dump.map((x) => JSON.stringify(x)).join('\n'));
  return pipeline;
}

interface AuditResult {
  right: number;
  rightPass: number;
  wrongFlagged: number;
}

/** 3. Citation audit: gold citations and random wrong ones (chosen first, embedded in one batch). */
async function runAudit(setup: ClaimsSetup, args: Record<string, string>): Promise<AuditResult> {
  const { corpus, judge, claimViews } = setup;
  // --skipAudit 1: pipeline work only (the gate's train dump).
  const auditClaims = args.skipAudit ? [] : setup.claims;
  const wrongOf = await chooseWrongCitations(setup, auditClaims);
  const auditFeatures = auditFeaturesFor(setup, Boolean(args.dumpAudit));
  // --dumpAudit FILE: per citation features for choosing the audit score on TRAIN (development).
  const auditDump: unknown[] = [];
  const out: AuditResult = { right: 0, rightPass: 0, wrongFlagged: 0 };
  for (const c of auditClaims) {
    const claim = claimViews.get(c.id)!;
    for (const docId of c.evidence.keys()) {
      out.right++;
      const r = await auditCitation(judge, claim, lookup(corpus, docId));
      if (r.status === 'PASS') out.rightPass++;
      auditDump.push(await auditFeatures(claim, corpus.get(docId)!.text, 1));
      const other = wrongOf.get(`${c.id}:${docId}`)!;
      const w = await auditCitation(judge, claim, lookup(corpus, other));
      if (w.status !== 'PASS') out.wrongFlagged++;
      auditDump.push(await auditFeatures(claim, corpus.get(other)!.text, 0));
    }
  }
  if (args.dumpAudit)
    writeFileSync(args.dumpAudit, auditDump.map((x) => JSON.stringify(x)).join('\n'));
  return out;
}

/**
 * A random other abstract for each gold citation (`claimId:docId` -> docId); the sentences the
 * audit will pick from both are embedded in one batch.
 */
async function chooseWrongCitations(
  setup: ClaimsSetup,
  auditClaims: ClaimRecord[],
): Promise<Map<string, string>> {
  const { corpusList, corpus, judge, claimViews } = setup;
  const rand = mulberry32(17);
  const wrongOf = new Map<string, string>();
  const auditTexts: string[] = [];
  for (const c of auditClaims) {
    for (const docId of c.evidence.keys()) {
      let other = docId;
      while (other === docId || c.evidence.has(other) || c.cited.includes(other)) {
        other = corpusList[Math.floor(rand() * corpusList.length)]!.id;
      }
      wrongOf.set(`${c.id}:${docId}`, other);
      for (const d of [docId, other]) {
        const sents = splitSentences(corpus.get(d)!.text);
        for (const s of judge.pick(claimViews.get(c.id)!, sents)) auditTexts.push(s.text);
      }
    }
  }
  await setup.embedder.sentences(auditTexts);
  return wrongOf;
}

/** The --dumpAudit row of one citation (null without --dumpAudit). */
function auditFeaturesFor(
  setup: ClaimsSetup,
  dump: boolean,
): (claim: ClaimView, text: string, right: number) => Promise<unknown> {
  const { judge, embedder } = setup;
  return async (claim, text, right) => {
    if (!dump) return null;
    const j = await judge.judge(claim, text);
    const vecs = await embedder.sentences(j.sentences.map((x) => x.text));
    const cs = new Set(contentStems(claim.text));
    return {
      right,
      notNeutral: j.supportScore,
      cosine: Math.max(0, ...vecs.map((v) => dot(v, claim.vector))),
      overlap: Math.max(
        0,
        ...j.sentences.map(
          (x) => contentStems(x.text).filter((t) => cs.has(t)).length / Math.max(1, cs.size),
        ),
      ),
    };
  };
}

/** --sweep 1 (train only): abstract label P/R/F1 over source depth and NEUTRAL threshold, on stderr. */
function sweepThresholds(setup: ClaimsSetup, pipeline: PipelineResult | null): void {
  if (setup.split !== 'train')
    throw new Error('--sweep chooses settings: run it on --split train only');
  const judged = pipeline?.judged ?? [];
  const goldCount = pipeline?.gold ?? 0;
  for (let docs = 1; docs <= setup.topDocs; docs++) {
    for (let tau = 0.05; tau < 0.96; tau += 0.05) {
      const t = Math.round(tau * 100) / 100;
      let tp = 0;
      let predicted = 0;
      for (const x of judged) {
        if (x.rank >= docs) continue;
        const ev = x.probs.filter((p) => p[2] < t);
        if (ev.length === 0) continue;
        predicted++;
        const sum = ev.reduce((a, p) => [a[0]! + Math.log(p[0]), a[1]! + Math.log(p[1])], [0, 0]);
        const label: Stance = sum[0]! >= sum[1]! ? 'SUPPORT' : 'CONTRADICT';
        if (x.gold === label) tp++;
      }
      const r = prf(tp, predicted, goldCount);
      console.error(
        `[sweep] docs ${docs} tau ${t} P ${r.precision.toFixed(4)} R ${r.recall.toFixed(4)} F1 ${r.f1.toFixed(4)}`,
      );
    }
  }
}

/** The JSON report of the task (its keys are what eval/README.md and the reports quote). */
function claimsReport(
  setup: ClaimsSetup,
  oracle: OracleResult,
  pipeline: PipelineResult | null,
  audit: AuditResult,
  seconds: Record<'oracle' | 'pipeline' | 'audit', number>,
): Record<string, unknown> {
  const { gate, fitted, embedder } = setup;
  const P = pipeline ?? { tp: 0, predicted: 0, gold: 0, sentTp: 0, sentPred: 0, sentGold: 0 };
  const abs = prf(P.tp, P.predicted, P.gold);
  const sel = prf(P.sentTp, P.sentPred, P.sentGold);
  const { right, rightPass, wrongFlagged } = audit;
  // Sentence precision counts a selected sentence as right when it overlaps a gold rationale.
  return {
    dataset: setup.dataset,
    task: 'claims',
    split: setup.split,
    model: `${embedder.id}@${embedder.version}`,
    stance_model: fitted.provenance,
    audit_calibration: fitted.audit ?? null, // ml/fit-audit.py, train citations
    evidence_gate:
      gate && !setup.pairs
        ? { threshold: gate.threshold, ...gate.train, command: gate.command }
        : null,
    pair_verifier: setup.pairs?.info ?? null,
    instances: oracle.instances,
    stance_macro_f1_oracle: round(macroF1(oracle.gold, oracle.pred, STANCE_LABELS)),
    stance_sc_macro_f1: round(
      macroF1(oracle.scGold, oracle.scPred, ['SUPPORT', 'CONTRADICT'] as const),
    ),
    oracle_confusion: confusion(oracle.gold, oracle.pred),
    retrieval: { mode: setup.mode, docs_per_claim: setup.topDocs },
    abstract_label_precision: round(abs.precision),
    abstract_label_recall: round(abs.recall),
    abstract_label_f1: round(abs.f1),
    pipeline_gold_retrieved: round((pipeline?.goldRetrieved ?? 0) / Math.max(1, P.gold)),
    pipeline_labelled: P.predicted,
    pipeline_labelled_not_gold: pipeline?.labelledNotGold ?? 0,
    pipeline_labelled_gold_wrong: pipeline?.labelledGoldWrong ?? 0,
    sentence_selection_precision: round(sel.precision),
    sentence_selection_recall: round(sel.recall),
    sentence_selection_f1: round(sel.f1),
    audit_citations: right,
    audit_right_pass: right ? round(rightPass / right) : null,
    audit_wrong_flagged: right ? round(wrongFlagged / right) : null,
    seconds,
  };
}

/** Oracle label from per-sentence log-probabilities; `scOnly` ignores NEUTRAL. */
/** The pair model's log-probabilities for each instance's evidence sentences (one batched call). */
async function pairLogProbs(
  pairs: PairVerifier,
  instances: ReadonlyArray<{ claim: string }>,
  evidenceTexts: string[][],
): Promise<StanceProbabilities[][]> {
  const flat = instances.flatMap((inst, k) => evidenceTexts[k]!.map((b) => ({ a: inst.claim, b })));
  const read = await pairs.judge(flat);
  let i = 0;
  return evidenceTexts.map((texts) =>
    texts.map((): StanceProbabilities => {
      const p = read[i++]!.stance;
      return [Math.log(p.support), Math.log(p.contradict), Math.log(p.nei)];
    }),
  );
}

function combine(lps: StanceProbabilities[], scOnly: boolean): Stance {
  const sum = [0, 0, 0];
  for (const lp of lps) for (let k = 0; k < 3; k++) sum[k]! += lp[k]!;
  if (scOnly) return sum[0]! >= sum[1]! ? 'SUPPORT' : 'CONTRADICT';
  let best = 0;
  for (let k = 1; k < 3; k++) if (sum[k]! > sum[best]!) best = k;
  return STANCE_LABELS[best]!;
}

function dot(a: Int16Array, b: Int16Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s / (32767 * 32767);
}

function lookup(corpus: Map<string, BeirDoc>, id: string): { id: string; text: string } | null {
  const d = corpus.get(id);
  return d ? { id, text: d.text } : null;
}
