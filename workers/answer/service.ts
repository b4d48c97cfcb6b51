// createAnswerService: the answer pipeline retrieve -> evaluate -> correct -> refine -> answer ->
// check, each step timed and recorded in the answer's CRAG metadata. Composes the factories of
// this room; the worker entry only builds the deps (workers/answer/types.ts) and exposes it.
import type {
  Answer,
  AnswerRequest,
  AnswerSentence,
  AnswerStep,
  CorrectiveAction,
  Strip,
} from '../shared/answer-api';
import { MAX_QUESTION_CHARS } from '../shared/answer-api';
import { createError } from '../shared/errors';
import { createSentenceChecker } from './checker';
import { correctiveSwitch, rerankByScore, webAction } from './corrective';
import { createRetrievalEvaluator } from './evaluator';
import { extractiveAnswer, referenceFor } from './extractive';
import { bridgeQuery, MAX_HOPS } from './hops';
import type { FittedModel } from './fitted';
import { evaluateRetrieval, type EvaluatedRetrieval } from './pipeline';
import { refine } from './refine';
import { parseGenerated } from './generated';
import { stripContext, type StripContext } from './strip-context';
import { stem } from './text';
import type { AnswerDeps } from './types';

export interface AskOptions {
  signal?: AbortSignal;
  /** Generated answers stream their text here (mode 'generated'). */
  onToken?: (text: string) => void;
}

export interface AnswerService {
  /** @throws AppError INVALID_QUERY (empty question), ABORTED */
  ask(request: AnswerRequest, options?: AskOptions): Promise<Answer>;
}

/** Fused chunks asked of the retrieval: enough for 10 distinct documents. */
export const RETRIEVE_CHUNKS = 40;
/** Weight of an LLM grade / entailment when blended with the LLM-free score. */
export const LLM_WEIGHT = 0.5;

/** `fitted`: the model's fitted numbers (`loadFittedModel(deps.modelId)`). */
export function createAnswerService(deps: AnswerDeps, fitted: FittedModel): AnswerService {
  const checker = createSentenceChecker({ stats: deps.lexicalStats, embed: deps.embed }, fitted);
  const now = () => deps.clock.now();

  return {
    async ask(request, options = {}) {
      const { signal } = options;
      const notices: string[] = [];
      let question = (request.question ?? '').trim();
      if (!question) throw createError('INVALID_QUERY', { reason: 'The question is empty.' });
      if (question.length > MAX_QUESTION_CHARS) {
        question = question.slice(0, MAX_QUESTION_CHARS);
        notices.push(`The question was cut to its first ${MAX_QUESTION_CHARS} characters.`);
      }
      const hooks = deps.hooks ?? {};
      const useLlm = request.allowLlm !== false;
      const useWeb = request.allowWeb !== false;
      const steps: AnswerStep[] = [];
      const t0 = now();
      const timed = async <T>(kind: AnswerStep['kind'], fn: () => Promise<T>, note?: string) => {
        const s = now();
        const out = await fn();
        if (signal?.aborted) throw createError('ABORTED', {});
        steps.push({ kind, ms: now() - s, ...(note ? { note } : {}) });
        return out;
      };
      const retrieve = (lexicalQuery?: string) =>
        deps.retrieve({
          query: question,
          ...(lexicalQuery ? { lexicalQuery } : {}),
          ...(request.filters ? { filters: request.filters } : {}),
          limit: RETRIEVE_CHUNKS,
        });

      const first = await timed('retrieve', () => retrieve());
      let ev: EvaluatedRetrieval = await timed('evaluate', () =>
        evaluateRetrieval(question, first, deps, fitted),
      );
      let llmUsed = false;
      if (useLlm && hooks.llmGrade && ev.passages.length) {
        const grade = hooks.llmGrade;
        const e = ev;
        const s = now();
        try {
          const grades = await timed('llm-grade', () =>
            grade(
              question,
              e.passages.map((p) => ({ id: String(p.documentId), text: p.hits[0]!.text })),
              signal,
            ),
          );
          const result = createRetrievalEvaluator(fitted).evaluate(e.passages, e.features, {
            grades,
            weight: LLM_WEIGHT,
          });
          result.llm = {
            backend: hooks.llmBackend ?? 'llm',
            ms: now() - s,
            graded: grades.filter((g) => g !== null).length,
            failed: grades.filter((g) => g === null).length,
          };
          ev = { ...e, result };
          llmUsed = true;
        } catch (err) {
          if (signal?.aborted) throw err;
          notices.push('The LLM could not grade the passages; the LLM-free scores stand.');
        }
      }

      const actions: CorrectiveAction[] = [];
      // Multi-hop (asked for): further retrievals from the evidence while the evaluator is unsure.
      const hops = Math.min(MAX_HOPS, Math.max(0, Math.floor(request.maxHops ?? 0)));
      if (hops > 0 && ev.result.decision !== 'CORRECT') {
        await timed('hop', async () => {
          const seen = new Set<string>();
          for (let h = 1; h <= hops && ev.result.decision !== 'CORRECT'; h++) {
            const s = now();
            const score = new Map(ev.result.passages.map((p) => [p.documentId, p.finalScore]));
            const best = [...ev.passages]
              .sort((a, b) => (score.get(b.documentId) ?? 0) - (score.get(a.documentId) ?? 0))
              .slice(0, 3)
              .map((p) => p.hits[0]?.text ?? '');
            const next = bridgeQuery(question, best, seen);
            if (!next) {
              actions.push({
                kind: 'hop',
                status: 'skipped',
                note: `hop ${h} of ${hops}: the evidence adds no new term`,
                applied: false,
                ms: now() - s,
              });
              break;
            }
            for (const t of next.terms) seen.add(stem(t));
            const hop = await evaluateRetrieval(question, await retrieve(next.query), deps, fitted);
            if (signal?.aborted) throw createError('ABORTED', {});
            const better = hop.result.queryScore > ev.result.queryScore;
            actions.push({
              kind: 'hop',
              status: 'ok',
              query: next.query,
              results: hop.passages.length,
              applied: better,
              note: `hop ${h} of ${hops}: ${hop.result.decision}${better ? '' : ', no better: kept the evidence so far'}`,
              ms: now() - s,
            });
            if (better) ev = hop;
          }
        });
      }

      // Corrective actions (CRAG-002/006).
      const webStrips: Strip[] = [];
      let notFound = false;
      // The closest passages of a not-found answer: the first retrieval's (reordered by 'rerank').
      let firstEval = ev;
      await timed('correct', async () => {
        const decision = ev.result.decision;
        if (decision === 'CORRECT') {
          actions.push({
            kind: 'none',
            status: 'ok',
            note: 'retrieval judged correct',
            applied: false,
            ms: 0,
          });
          return;
        }
        if (useWeb && hooks.web) {
          const why =
            decision === 'INCORRECT'
              ? 'library retrieval judged incorrect'
              : 'ambiguous: library strips plus web results';
          const w = await webAction(hooks.web, question, why, now, signal);
          actions.push(w.action);
          webStrips.push(...w.strips);
          if (w.action.status === 'failed')
            notices.push('Web search failed; the library answer stands.');
          else if (w.action.errorCode)
            notices.push(
              'Some web providers failed part way; the web results that arrived are used (see the corrective actions).',
            );
        }
        if (decision === 'AMBIGUOUS') return;
        if (webStrips.length === 0 && deps.expand && fitted.corrective.technique !== 'none') {
          const s = now();
          const exp = await deps.expand(question);
          if (exp) {
            const second = await evaluateRetrieval(
              question,
              await retrieve(exp.lexicalQuery),
              deps,
              fitted,
            );
            const better = correctiveSwitch(
              fitted.corrective,
              ev.result.queryScore,
              second.result.queryScore,
            );
            actions.push({
              kind: 'expansion',
              status: 'ok',
              technique: exp.technique,
              query: exp.lexicalQuery,
              results: second.passages.length,
              applied: better,
              note: better
                ? `second retrieval now ${second.result.decision}`
                : 'no better: kept the first retrieval',
              ms: now() - s,
            });
            if (better) ev = second;
          } else {
            actions.push({
              kind: 'expansion',
              status: 'skipped',
              note: 'no expansion terms',
              applied: false,
              ms: now() - s,
            });
          }
        }
        if (fitted.corrective.technique === 'rerank' && ev.result.decision === 'INCORRECT') {
          const s = now();
          ev = rerankByScore(ev); // no expansion ran: 'rerank' is the fitted technique
          firstEval = ev;
          actions.push({
            kind: 'rerank',
            status: 'ok',
            technique: 'rerank',
            results: ev.passages.length,
            applied: true,
            note: 'passages reordered by the evaluator’s passage score',
            ms: now() - s,
          });
        }
        if (ev.result.decision === 'INCORRECT' && webStrips.length === 0) {
          notFound = true;
          actions.push({
            kind: 'not-found',
            status: 'ok',
            note: 'your library does not seem to hold this; the closest passages are shown',
            applied: true,
            ms: 0,
          });
        }
      });

      const refinement = await timed('refine', async () =>
        refine(
          ev.query,
          ev.passages,
          ev.result.passages.map((p) => p.finalScore),
          fitted,
        ),
      );
      actions.push({
        kind: 'refine',
        status: 'ok',
        note: `${refinement.kept.length} of ${refinement.all.length} strips kept`,
        applied: true,
        ms: steps[steps.length - 1]!.ms,
      });
      const context: Strip[] = [...refinement.kept.map(stripOnly), ...webStrips];

      let sentences: Array<{ text: string; stripIds: string[]; citations: number[] }> = [];
      let references = [] as Answer['references'];
      let mode = request.mode ?? 'extractive';
      let partial = false;
      if (!notFound) {
        if (mode === 'generated' && hooks.generate && useLlm && context.length) {
          try {
            const g = await timed('generate', () =>
              hooks.generate!(question, context, options.onToken ?? (() => {}), signal),
            );
            const parsed = parseGenerated(g.text, context);
            sentences = parsed.sentences;
            references = parsed.references;
            partial = g.partial;
            llmUsed = true;
          } catch (err) {
            if (signal?.aborted) throw err;
            notices.push('The LLM failed; the extractive answer is shown.');
            mode = 'extractive';
          }
        } else mode = 'extractive';
        if (mode === 'extractive') {
          const draft = await timed('answer', async () =>
            extractiveAnswer(refinement.kept, fitted, refinement.all),
          );
          references = draft.references;
          sentences = draft.sentences.map((s, i) => ({
            text: s.text,
            stripIds: [s.strip.id],
            citations: [i + 1],
          }));
        }
      }

      const byId = new Map(context.map((s) => [s.id, s]));
      for (const s of refinement.all) if (!byId.has(s.id)) byId.set(s.id, stripOnly(s));
      // Each cited strip goes to the checker with its document context (title and the text
      // around it); the strips came from these passages, whose text holds their exact offsets.
      const docText = new Map(ev.passages.map((p) => [p.documentId, p.text]));
      const supports = await timed('check', () =>
        checker.check(
          sentences.map((s) => {
            const cited = s.stripIds.flatMap((id) => byId.get(id) ?? []).filter((c) => c.text);
            return {
              sentence: s.text,
              evidence: cited.map((c) => c.text),
              context: cited.map((c) => citedContext(c, docText)),
            };
          }),
        ),
      );
      const out: AnswerSentence[] = sentences.map((s, i) => ({ ...s, support: supports[i]! }));
      return {
        question,
        mode,
        sentences: out,
        references,
        strips: context,
        notFound,
        closest: notFound ? firstEval.result.passages.slice(0, 3) : [],
        crag: {
          decision: ev.result.decision,
          queryScore: ev.result.queryScore,
          evaluator: ev.result,
          actions,
          webUsed: webStrips.length > 0,
          llmUsed,
          retrievedTokens: refinement.retrievedTokens,
          keptTokens: refinement.keptTokens,
          steps,
          totalMs: now() - t0,
          modelId: deps.modelId,
        },
        createdAt: deps.clock.wallNow(),
        ...(partial ? { partial } : {}),
        notices,
      };
    },
  };
}

/** A cited strip's context: title + surrounding text for library strips, the title for web ones. */
function citedContext(strip: Strip, docText: Map<number, string>): StripContext {
  const text = strip.documentId === null ? undefined : docText.get(strip.documentId);
  return text && text.slice(strip.start, strip.end) === strip.text
    ? stripContext(strip.title, text, strip)
    : { title: strip.title, before: '', after: '' };
}

function stripOnly(s: Strip & { passageRank?: number; features?: unknown }): Strip {
  const { passageRank: _r, features: _f, ...strip } = s;
  return strip;
}

export { referenceFor };
