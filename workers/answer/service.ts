// createAnswerService: the answer pipeline retrieve -> evaluate -> correct -> refine -> answer ->
// check, each step timed and recorded in the answer's CRAG metadata. Composes the factories of
// this room; the worker entry only builds the deps (workers/answer/types.ts) and exposes it.
import {
  describeReading,
  type Answer,
  type AnswerMode,
  type AnswerRequest,
  type AnswerSentence,
  type Strip,
} from '../shared/answer-api';
import { correctRetrieval, gradeWithLlm, runHops, type Correction } from './ask-evidence';
import { startAsk, type AskRun } from './ask-run';
import { createSentenceChecker, type SentenceChecker } from './checker';
import {
  draftOf,
  extractiveAnswer,
  referenceFor,
  withListItems,
  type ExtractiveDraft,
} from './extractive';
import { answerStrips, readRelevance, type RelevanceReading } from './relevance';
import type { FittedModel } from './fitted';
import { evaluateRetrieval, type EvaluatedRetrieval } from './pipeline';
import { refine, type Refinement } from './refine';
import { parseGenerated } from './generated';
import { stripContext, type StripContext } from './strip-context';
import type { AnswerDeps } from './types';
import { MAX_REPLY_CHARS } from '../shared/llm-api';

export { LLM_WEIGHT } from './ask-evidence';
export { RETRIEVE_CHUNKS } from './ask-run';

export interface AskOptions {
  signal?: AbortSignal;
  /** Generated answers stream their text here (mode 'generated'). */
  onToken?: (text: string) => void;
}

export interface AnswerService {
  /** @throws AppError INVALID_QUERY (empty question), ABORTED */
  ask(request: AnswerRequest, options?: AskOptions): Promise<Answer>;
}

/** `fitted`: the model's fitted numbers (`loadFittedModel(deps.modelId)`). */
export function createAnswerService(deps: AnswerDeps, fitted: FittedModel): AnswerService {
  const checker = createSentenceChecker({ stats: deps.lexicalStats, embed: deps.embed }, fitted);

  return {
    async ask(request, options = {}) {
      const run = startAsk(request, options.signal, deps, fitted);
      const { question, notices, steps, actions } = run;
      const t0 = run.now();
      const first = await run.timed('retrieve', () => run.retrieve());
      const evaluated = await run.timed('evaluate', () =>
        evaluateRetrieval(question, first, deps, fitted),
      );
      const graded = await gradeWithLlm(run, evaluated);
      const hopped = await runHops(run, graded ?? evaluated);
      const correction = await correctRetrieval(run, hopped);
      const { ev, closestFrom, webStrips } = correction;
      const refinement = await refineEvidence(run, ev);
      const reading = await run.timed('relevance', () =>
        readRelevance(question, refinement.all, deps.pairVerifier),
      );
      const notFound = settleNotFound(run, correction, reading);
      const context: Strip[] = [...refinement.kept.map(stripOnly), ...webStrips];
      const draft: Draft = notFound
        ? { sentences: [], references: [], mode: request.mode ?? 'extractive', partial: false }
        : await draftAnswer(run, context, options.onToken, () =>
            extractiveDraft(run, ev, refinement, reading),
          );
      context.push(...(draft.madeStrips ?? []));
      const supports = await checkSentences(run, checker, draft.sentences, context, refinement, ev);
      const out: AnswerSentence[] = draft.sentences.map((s, i) => ({
        ...s,
        support: supports[i]!,
      }));
      return {
        question,
        mode: draft.mode,
        sentences: out,
        references: draft.references,
        strips: context,
        notFound,
        closest: notFound ? closestFrom.result.passages.slice(0, 3) : [],
        crag: {
          decision: ev.result.decision,
          queryScore: ev.result.queryScore,
          evaluator: ev.result,
          actions,
          webUsed: webStrips.length > 0,
          llmUsed: graded !== null || draft.generated === true,
          retrievedTokens: refinement.retrievedTokens,
          keptTokens: refinement.keptTokens,
          steps,
          totalMs: run.now() - t0,
          modelId: deps.modelId,
          relevance: reading.summary,
        },
        createdAt: deps.clock.wallNow(),
        ...(draft.partial ? { partial: draft.partial } : {}),
        notices,
      };
    },
  };
}

/** Knowledge refinement of the evidence into strips, as the timed 'refine' step and its action. */
async function refineEvidence(run: AskRun, ev: EvaluatedRetrieval): Promise<Refinement> {
  const refinement = await run.timed('refine', async () =>
    refine(
      ev.query,
      ev.passages,
      ev.result.passages.map((p) => p.finalScore),
      run.fitted,
    ),
  );
  run.actions.push({
    kind: 'refine',
    status: 'ok',
    note: `${refinement.kept.length} of ${refinement.all.length} strips kept`,
    applied: true,
    ms: run.steps[run.steps.length - 1]!.ms,
  });
  return refinement;
}

/**
 * The extractive answer: the sentences the verifier's reading says address the question (a
 * sentence that introduces a list keeps its items), or without a reading the fitted selection.
 */
function extractiveDraft(
  run: AskRun,
  ev: EvaluatedRetrieval,
  refinement: Refinement,
  reading: RelevanceReading,
): ExtractiveDraft {
  if (reading.summary.source !== 'verifier')
    return extractiveAnswer(refinement.kept, run.fitted, refinement.all);
  const docText = new Map(ev.passages.map((p) => [p.documentId, p.text]));
  const strips = answerStrips(reading).map((s) =>
    withListItems(s, refinement.all, docText.get(s.documentId ?? -1) ?? ''),
  );
  return draftOf(strips, strips.length);
}

/**
 * Whether the library holds no answer: the pair verifier's reading decides when it read the
 * library's sentences and no web result joined them; otherwise the evaluator's corrections did.
 * A reading that overturns the evaluator is recorded as a 'relevance' action.
 */
function settleNotFound(run: AskRun, correction: Correction, reading: RelevanceReading): boolean {
  const s = reading.summary;
  if (s.source !== 'verifier' || correction.webStrips.length > 0) return correction.notFound;
  const notFound = !s.addressed;
  const overturned = notFound !== correction.notFound;
  if (overturned && correction.notFound) {
    const i = run.actions.findIndex((a) => a.kind === 'not-found');
    if (i >= 0) run.actions.splice(i, 1);
  }
  run.actions.push({
    kind: 'relevance',
    status: 'ok',
    note: describeReading(s),
    applied: overturned,
    ms: run.steps[run.steps.length - 1]?.ms ?? 0,
  });
  if (overturned && notFound) {
    run.actions.push({
      kind: 'not-found',
      status: 'ok',
      note: 'your library does not seem to hold this; the closest passages are shown',
      applied: true,
      ms: 0,
    });
  }
  return notFound;
}

type DraftSentence = { text: string; stripIds: string[]; citations: number[] };

interface Draft {
  sentences: DraftSentence[];
  references: Answer['references'];
  mode: AnswerMode;
  partial: boolean;
  /** The LLM wrote the answer. */
  generated?: boolean;
  /** Strips the extractive answer made that the context lacks (a sentence with its list). */
  madeStrips?: Strip[];
}

/** The most sentences of a generated answer that are kept and checked (a normal one has < 20). */
export const MAX_GENERATED_SENTENCES = 60;

/** Said when the model's reply passed MAX_REPLY_CHARS (200 KB) and was cut. */
export const REPLY_CUT_NOTICE = `The reply was cut at ${MAX_REPLY_CHARS / 1024} KB: the language model sent more than one answer may hold.`;

/**
 * The answer's sentences: generated when asked for and an LLM can (falling back to extractive
 * with a notice when it fails), otherwise extractive from the kept strips.
 */
async function draftAnswer(
  run: AskRun,
  context: Strip[],
  onToken: ((text: string) => void) | undefined,
  extractive: () => ExtractiveDraft,
): Promise<Draft> {
  const generate = run.hooks.generate;
  if (run.request.mode === 'generated' && generate && run.useLlm && context.length) {
    try {
      const g = await run.timed('generate', () =>
        generate(run.question, context, onToken ?? (() => {}), run.signal),
      );
      if (g.cut) run.notices.push(REPLY_CUT_NOTICE);
      const parsed = parseGenerated(g.text, context);
      if (parsed.sentences.length > MAX_GENERATED_SENTENCES) {
        // Each sentence is checked by the model: a runaway reply must not mean hours of checks.
        parsed.sentences = parsed.sentences.slice(0, MAX_GENERATED_SENTENCES);
        const cited = new Set(parsed.sentences.flatMap((x) => x.citations));
        parsed.references = parsed.references.filter((r) => cited.has(r.n));
        run.notices.push(
          `Only the first ${MAX_GENERATED_SENTENCES} sentences of the reply are shown and checked.`,
        );
      }
      if (!(g.cut && parsed.sentences.length === 0)) {
        return { ...parsed, mode: 'generated', partial: g.partial, generated: true };
      }
      // Cut before one readable sentence (one huge streamed event): the extractive answer.
    } catch (err) {
      if (run.signal?.aborted) throw err;
      run.notices.push('The LLM failed; the extractive answer is shown.');
    }
  }
  const draft = await run.timed('answer', async () => extractive());
  return {
    sentences: draft.sentences.map((s, i) => ({
      text: s.text,
      stripIds: [s.strip.id],
      citations: [i + 1],
    })),
    references: draft.references,
    mode: 'extractive',
    partial: false,
    madeStrips: draft.sentences
      .map((s) => stripOnly(s.strip))
      .filter((s) => !context.some((c) => c.id === s.id)),
  };
}

/** The checker's support for each sentence from its cited strips, as the timed 'check' step. */
function checkSentences(
  run: AskRun,
  checker: SentenceChecker,
  sentences: DraftSentence[],
  context: Strip[],
  refinement: Refinement,
  ev: EvaluatedRetrieval,
): Promise<AnswerSentence['support'][]> {
  const byId = new Map(context.map((s) => [s.id, s]));
  for (const s of refinement.all) if (!byId.has(s.id)) byId.set(s.id, stripOnly(s));
  // Each cited strip goes to the checker with its document context (title and the text
  // around it); the strips came from these passages, whose text holds their exact offsets.
  const docText = new Map(ev.passages.map((p) => [p.documentId, p.text]));
  return run.timed('check', () =>
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
