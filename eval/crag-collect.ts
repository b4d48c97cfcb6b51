// The crag task's measurements, shared by the fit (train) and the report (any split): one
// record per query (first retrieval evaluated, passage labels from the qrels, the ablated
// retrieval), and the refinement, answer, checker and corrective figures computed from records
// with a given fitted model. Everything calls the answer room's own functions.
import { correctiveSwitch, rerankByScore } from '../workers/answer/corrective';
import { createRetrievalEvaluator, variantFor } from '../workers/answer/evaluator';
import { extractiveAnswer } from '../workers/answer/extractive';
import type { FittedModel } from '../workers/answer/fitted';
import { evaluateRetrieval, type EvaluatedRetrieval } from '../workers/answer/pipeline';
import { refine, type Refinement } from '../workers/answer/refine';
import { contentStems, coverage, sentences } from '../workers/answer/text';
import type { QueryContext } from '../workers/answer/features';
import type { Qrels } from './metrics';
import { ndcgAt } from './metrics';
import type { CragHarness } from './crag-harness';
import { insideSpan, rationaleSpans, type Evidence } from './crag-claims';
import type { RankedDoc } from './modes';
import type { Span } from '../workers/answer/text';

export interface QueryRecord {
  qid: string;
  question: string;
  rels: Record<string, number>;
  first: EvaluatedRetrieval;
  labels: boolean[];
  docs: RankedDoc[];
  ablation: EvaluatedRetrieval | null;
  evaluateMs: number;
  /** Out-of-fold passage scores of the first retrieval (set by the fit, used by refinement). */
  oofScores?: number[];
  /** Out-of-fold query-model scores of the first retrieval (set by the fit, for decisions). */
  oofQueryScores?: number[];
}

export async function collectQueries(
  harness: CragHarness,
  queries: Map<string, string>,
  qrels: Qrels,
  fitted: FittedModel,
  onProgress?: (done: number, total: number) => void,
): Promise<QueryRecord[]> {
  const ids = Object.keys(qrels).filter((id) => queries.has(id));
  const out: QueryRecord[] = [];
  for (const qid of ids) {
    const question = queries.get(qid)!;
    const rels = qrels[qid]!;
    const r = await harness.retrieve(question);
    const t0 = performance.now();
    const first = await evaluateRetrieval(question, r, harness.deps, fitted);
    const evaluateMs = performance.now() - t0;
    const exclude = new Set(Object.keys(rels).filter((d) => harness.idOf(d) !== undefined));
    const ablation = exclude.size
      ? await evaluateRetrieval(
          question,
          await harness.retrieve(question, { exclude }),
          harness.deps,
          fitted,
        )
      : null;
    out.push({
      qid,
      question,
      rels,
      first,
      labels: first.passages.map((p) => (rels[p.path] ?? 0) > 0),
      docs: r.docs,
      ablation,
      evaluateMs,
    });
    onProgress?.(out.length, ids.length);
  }
  return out;
}

/** Passage scores and the decision of an evaluated retrieval under `fitted`. */
export function scoreWith(fitted: FittedModel, ev: EvaluatedRetrieval) {
  const e = createRetrievalEvaluator(fitted);
  const v = variantFor(fitted, ev.features);
  const scores = e.scorePassages(ev.features);
  return { scores, ...e.decide(v.query ? e.queryScores(ev.features) : scores, v, ev.features) };
}

/** Gold rationale spans per query id and document path (aligned), plus counts. */
export interface Gold {
  spans: Map<string, Map<string, Span[]>>;
  total: number;
  aligned: number;
}

export function goldSpans(harness: CragHarness, evidence: Evidence[]): Gold {
  const spans = new Map<string, Map<string, Span[]>>();
  let total = 0;
  let aligned = 0;
  for (const e of evidence) {
    const id = harness.idOf(e.docId);
    if (id === undefined) continue;
    const r = rationaleSpans(harness.doc(id).text, e.sentences);
    total += r.total;
    aligned += r.spans.length;
    const m = spans.get(e.claimId) ?? new Map<string, Span[]>();
    m.set(e.docId, [...(m.get(e.docId) ?? []), ...r.spans]);
    spans.set(e.claimId, m);
  }
  return { spans, total, aligned };
}

/** Refinement of a record's first retrieval under `fitted`. */
export function refineRecord(fitted: FittedModel, rec: QueryRecord): Refinement {
  const scores = rec.oofScores ?? scoreWith(fitted, rec.first).scores;
  return refine(rec.first.query, rec.first.passages, scores, fitted);
}

/** Strip-level rows: features and whether the strip lies in a gold rationale of a relevant doc. */
export function stripRows(fitted: FittedModel, records: QueryRecord[], gold: Gold) {
  const rows: Array<Record<string, number>> = [];
  const labels: boolean[] = [];
  const groups: number[] = [];
  records.forEach((rec, qi) => {
    const g = gold.spans.get(rec.qid);
    if (!g) return;
    for (const s of refineRecord(fitted, rec).all) {
      rows.push(s.features);
      labels.push(insideSpan(s.start, s.end, g.get(s.path) ?? []));
      groups.push(qi);
    }
  });
  return { rows, labels, groups };
}

/** Rationale sentences of retrieved relevant documents that survive refinement; token reduction. */
export function refineFigures(fitted: FittedModel, records: QueryRecord[], gold: Gold) {
  let retrieved = 0;
  let kept = 0;
  let goldTotal = 0;
  let goldKept = 0;
  const times: number[] = [];
  for (const rec of records) {
    const t0 = performance.now();
    const r = refineRecord(fitted, rec);
    const ms = performance.now() - t0;
    times.push(ms);
    retrieved += r.retrievedTokens;
    kept += r.keptTokens;
    const g = gold.spans.get(rec.qid);
    if (!g) continue;
    for (const p of rec.first.passages) {
      if (!(rec.rels[p.path] ?? 0)) continue;
      for (const span of g.get(p.path) ?? []) {
        goldTotal++;
        if (r.kept.some((s) => s.path === p.path && insideSpan(s.start, s.end, [span]))) goldKept++;
      }
    }
  }
  return {
    tokenReduction: retrieved ? 1 - kept / retrieved : 0,
    rationaleRecall: goldTotal ? goldKept / goldTotal : 0,
    rationaleSentences: goldTotal,
    times,
  };
}

/** Extractive answers: share of their sentences that are gold rationale sentences. */
export function answerFigures(
  fitted: FittedModel,
  records: QueryRecord[],
  gold: Gold,
  decisionOf: (rec: QueryRecord) => string,
) {
  let sentencesN = 0;
  let goldN = 0;
  let cited = 0;
  const times: number[] = [];
  for (const rec of records) {
    const g = gold.spans.get(rec.qid);
    if (!g || decisionOf(rec) === 'INCORRECT') continue;
    const r = refineRecord(fitted, rec);
    const t0 = performance.now();
    const draft = extractiveAnswer(r.kept, fitted, r.all);
    times.push(performance.now() - t0);
    for (const s of draft.sentences) {
      sentencesN++;
      if (s.strip.id) cited++;
      if (insideSpan(s.strip.start, s.strip.end, g.get(s.strip.path) ?? [])) goldN++;
    }
  }
  return { precision: sentencesN ? goldN / sentencesN : 0, sentences: sentencesN, cited, times };
}

/** The `n` sentences of a text that best cover the query's terms (with their offsets). */
export function bestSentenceSpans(q: QueryContext, text: string, n: number): Span[] {
  return sentences(text)
    .map((s, i) => ({ s, i, c: coverage(q.terms, new Set(contentStems(s.text))).weighted }))
    .sort((a, b) => b.c - a.c || a.i - b.i)
    .slice(0, n)
    .map((x) => x.s);
}

/** The `n` sentences of a text that best cover the query's terms. */
export function bestSentences(q: QueryContext, text: string, n: number): string[] {
  return bestSentenceSpans(q, text, n).map((s) => s.text);
}

/** One query's second retrieval: the query scores before and after, and how nDCG@10 moved. */
export interface CorrectiveTrial {
  firstScore: number;
  secondScore: number;
  ndcgDelta: number;
}

/**
 * The expansion's second retrieval on each record (null: no expansion terms). `modelFor` gives
 * the model that scores a record (the fit passes each train query's out-of-fold model).
 */
export async function correctiveTrials(
  harness: CragHarness,
  fitted: FittedModel,
  records: QueryRecord[],
  expand: ((q: string) => Promise<{ lexicalQuery: string } | null>) | undefined,
  modelFor: (rec: QueryRecord, index: number) => FittedModel = () => fitted,
): Promise<Array<CorrectiveTrial | null>> {
  if (!expand) return records.map(() => null);
  const out: Array<CorrectiveTrial | null> = [];
  for (const [i, rec] of records.entries()) {
    const model = modelFor(rec, i);
    const exp = await expand(rec.question);
    if (!exp) {
      out.push(null);
      continue;
    }
    const r = await harness.retrieve(rec.question, { lexicalQuery: exp.lexicalQuery });
    const second = await evaluateRetrieval(rec.question, r, harness.deps, fitted);
    const ndcg = (docs: RankedDoc[]) =>
      ndcgAt(
        docs.map((d) => d.docId),
        rec.rels,
        10,
      );
    out.push({
      firstScore: scoreWith(model, rec.first).queryScore,
      secondScore: scoreWith(model, second).queryScore,
      ndcgDelta: ndcg(r.docs) - ndcg(rec.docs),
    });
  }
  return out;
}

/**
 * The 'rerank' correction on each record: its passages reordered by `scoresOf` (the passage
 * scores; the fit passes out-of-fold ones) through the service's `rerankByScore`.
 */
export function rerankTrials(
  records: QueryRecord[],
  scoresOf: (rec: QueryRecord) => number[],
): CorrectiveTrial[] {
  return records.map((rec) => {
    const scores = scoresOf(rec);
    const ev = rerankByScore({
      ...rec.first,
      result: {
        ...rec.first.result,
        passages: rec.first.result.passages.map((p, i) => ({ ...p, finalScore: scores[i]! })),
      },
    });
    const ndcg = (ids: string[]) => ndcgAt(ids, rec.rels, 10);
    return {
      firstScore: 0,
      secondScore: 0,
      ndcgDelta: ndcg(ev.passages.map((p) => p.path)) - ndcg(rec.docs.map((d) => d.docId)),
    };
  });
}

/**
 * nDCG@10 gain over all the trials' queries when the second retrieval replaces the first only
 * where the fitted gate lets it (`correctiveSwitch`, the service's rule; 'rerank' always applies).
 */
export function correctiveGain(
  trials: Array<CorrectiveTrial | null>,
  rule: FittedModel['corrective'],
) {
  let gain = 0;
  let applied = 0;
  for (const t of trials) {
    if (!t) continue;
    if (rule.technique !== 'rerank' && !correctiveSwitch(rule, t.firstScore, t.secondScore))
      continue;
    applied++;
    gain += t.ndcgDelta;
  }
  return { gain: trials.length ? gain / trials.length : 0, queries: trials.length, applied };
}
