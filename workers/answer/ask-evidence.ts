// The steps of an ask that may change its evidence after the first retrieval: the LLM grade
// blended into the evaluator, multi-hop retrieval (when asked for), and the corrective actions
// (CRAG-002/006: web, fitted expansion or rerank, not-found). Each records its actions and
// notices in the run (ask-run.ts) and returns the evidence that stands. No UI or worker imports.
import type { CorrectiveAction, Strip } from '../shared/answer-api';
import { createError } from '../shared/errors';
import type { AskRun } from './ask-run';
import { correctiveSwitch, rerankByScore, webAction } from './corrective';
import { createRetrievalEvaluator } from './evaluator';
import { bridgeQuery, MAX_HOPS } from './hops';
import { evaluateRetrieval, type EvaluatedRetrieval } from './pipeline';
import { stem } from './text';

/** Weight of an LLM grade / entailment when blended with the LLM-free score. */
export const LLM_WEIGHT = 0.5;

/**
 * The evaluation with the LLM's passage grades blended in, or null when there is no grader, no
 * passage, the request forbids the LLM, or the grader failed (a notice says the LLM-free scores
 * stand). @throws the grader's error when the signal fired
 */
export async function gradeWithLlm(
  run: AskRun,
  ev: EvaluatedRetrieval,
): Promise<EvaluatedRetrieval | null> {
  const grade = run.hooks.llmGrade;
  if (!run.useLlm || !grade || !ev.passages.length) return null;
  const s = run.now();
  try {
    const grades = await run.timed('llm-grade', () =>
      grade(
        run.question,
        ev.passages.map((p) => ({ id: String(p.documentId), text: p.hits[0]!.text })),
        run.signal,
      ),
    );
    const result = createRetrievalEvaluator(run.fitted).evaluate(ev.passages, ev.features, {
      grades,
      weight: LLM_WEIGHT,
    });
    result.llm = {
      backend: run.hooks.llmBackend ?? 'llm',
      ms: run.now() - s,
      graded: grades.filter((g) => g !== null).length,
      failed: grades.filter((g) => g === null).length,
    };
    return { ...ev, result };
  } catch (err) {
    if (run.signal?.aborted) throw err;
    run.notices.push('The LLM could not grade the passages; the LLM-free scores stand.');
    return null;
  }
}

/**
 * Multi-hop (asked for): further retrievals from the evidence while the evaluator is unsure, each
 * kept only when its query score beats the evidence so far.
 */
export async function runHops(run: AskRun, first: EvaluatedRetrieval): Promise<EvaluatedRetrieval> {
  const hops = Math.min(MAX_HOPS, Math.max(0, Math.floor(run.request.maxHops ?? 0)));
  if (hops <= 0 || first.result.decision === 'CORRECT') return first;
  let ev = first;
  await run.timed('hop', async () => {
    const seen = new Set<string>();
    for (let h = 1; h <= hops && ev.result.decision !== 'CORRECT'; h++) {
      const s = run.now();
      const next = bridgeQuery(run.question, bestPassageTexts(ev, 3), seen);
      if (!next) {
        run.actions.push({
          kind: 'hop',
          status: 'skipped',
          note: `hop ${h} of ${hops}: the evidence adds no new term`,
          applied: false,
          ms: run.now() - s,
        });
        break;
      }
      for (const t of next.terms) seen.add(stem(t));
      const hop = await evaluateRetrieval(
        run.question,
        await run.retrieve(next.query),
        run.deps,
        run.fitted,
      );
      if (run.signal?.aborted) throw createError('ABORTED', {});
      const better = hop.result.queryScore > ev.result.queryScore;
      run.actions.push({
        kind: 'hop',
        status: 'ok',
        query: next.query,
        results: hop.passages.length,
        applied: better,
        note: `hop ${h} of ${hops}: ${hop.result.decision}${better ? '' : ', no better: kept the evidence so far'}`,
        ms: run.now() - s,
      });
      if (better) ev = hop;
    }
  });
  return ev;
}

/** The first hit's text of the `n` passages with the best final score (ties: retrieval order). */
function bestPassageTexts(ev: EvaluatedRetrieval, n: number): string[] {
  const score = new Map(ev.result.passages.map((p) => [p.documentId, p.finalScore]));
  return [...ev.passages]
    .sort((a, b) => (score.get(b.documentId) ?? 0) - (score.get(a.documentId) ?? 0))
    .slice(0, n)
    .map((p) => p.hits[0]?.text ?? '');
}

export interface Correction {
  /** The evidence that stands after the corrective actions. */
  ev: EvaluatedRetrieval;
  /** Where a not-found answer's closest passages come from (reordered by 'rerank'). */
  closestFrom: EvaluatedRetrieval;
  webStrips: Strip[];
  notFound: boolean;
}

/** The corrective actions for the evaluator's decision, as one timed 'correct' step. */
export async function correctRetrieval(run: AskRun, ev: EvaluatedRetrieval): Promise<Correction> {
  const out: Correction = { ev, closestFrom: ev, webStrips: [], notFound: false };
  await run.timed('correct', async () => {
    const decision = ev.result.decision;
    if (decision === 'CORRECT') {
      run.actions.push(action('none', 'retrieval judged correct', false));
      return;
    }
    if (run.useWeb && run.hooks.web) out.webStrips.push(...(await searchWeb(run, decision)));
    if (decision === 'AMBIGUOUS') return;
    const { fitted, deps } = run;
    if (out.webStrips.length === 0 && deps.expand && fitted.corrective.technique !== 'none')
      out.ev = await expandRetrieval(run, out.ev);
    if (fitted.corrective.technique === 'rerank' && out.ev.result.decision === 'INCORRECT') {
      const s = run.now();
      out.ev = rerankByScore(out.ev); // no expansion ran: 'rerank' is the fitted technique
      out.closestFrom = out.ev;
      run.actions.push({
        kind: 'rerank',
        status: 'ok',
        technique: 'rerank',
        results: out.ev.passages.length,
        applied: true,
        note: 'passages reordered by the evaluator’s passage score',
        ms: run.now() - s,
      });
    }
    if (out.ev.result.decision === 'INCORRECT' && out.webStrips.length === 0) {
      out.notFound = true;
      run.actions.push(
        action(
          'not-found',
          'your library does not seem to hold this; the closest passages are shown',
          true,
        ),
      );
    }
  });
  return out;
}

function action(kind: CorrectiveAction['kind'], note: string, applied: boolean): CorrectiveAction {
  return { kind, status: 'ok', note, applied, ms: 0 };
}

/** The web hook for an INCORRECT / AMBIGUOUS retrieval; a failure is a notice, never a throw. */
async function searchWeb(run: AskRun, decision: 'INCORRECT' | 'AMBIGUOUS'): Promise<Strip[]> {
  const why =
    decision === 'INCORRECT'
      ? 'library retrieval judged incorrect'
      : 'ambiguous: library strips plus web results';
  const w = await webAction(run.hooks.web, run.question, why, run.now, run.signal);
  run.actions.push(w.action);
  if (w.action.status === 'failed')
    run.notices.push('Web search failed; the library answer stands.');
  else if (w.action.errorCode)
    run.notices.push(
      'Some web providers failed part way; the web results that arrived are used (see the corrective actions).',
    );
  return w.strips;
}

/** The fitted expansion's second retrieval, kept only when `correctiveSwitch` says it is better. */
async function expandRetrieval(run: AskRun, ev: EvaluatedRetrieval): Promise<EvaluatedRetrieval> {
  const { question, deps, fitted } = run;
  const s = run.now();
  const exp = await deps.expand!(question);
  if (!exp) {
    run.actions.push({
      kind: 'expansion',
      status: 'skipped',
      note: 'no expansion terms',
      applied: false,
      ms: run.now() - s,
    });
    return ev;
  }
  const second = await evaluateRetrieval(
    question,
    await run.retrieve(exp.lexicalQuery),
    deps,
    fitted,
  );
  const better = correctiveSwitch(
    fitted.corrective,
    ev.result.queryScore,
    second.result.queryScore,
  );
  run.actions.push({
    kind: 'expansion',
    status: 'ok',
    technique: exp.technique,
    query: exp.lexicalQuery,
    results: second.passages.length,
    applied: better,
    note: better
      ? `second retrieval now ${second.result.decision}`
      : 'no better: kept the first retrieval',
    ms: run.now() - s,
  });
  return better ? second : ev;
}
