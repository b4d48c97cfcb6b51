// The LLM tier's judges: WSOP's "relevant: yes/no" grade of a passage for the evaluator, and a
// yes/no entailment judge for the sentence checker. Both ask the active backend one short question
// per item, read the first word, and give null where the backend failed or answered neither, so
// the LLM-free score stands.
import type { Answer, SupportLabel } from '../shared/answer-api';
import { isAppError } from '../shared/errors';
import type { GenerateRequest } from '../shared/llm-api';
import type { LlmDep } from '../query-plan/types';
import type { LlmEntailFn, LlmGradeFn } from './types';

/** Characters of a passage or of the evidence given to the judge. */
const PASSAGE_CHARS = 1500;
/** After this many failures in a row the backend is taken as gone: the rest stay null. */
const MAX_CONSECUTIVE_FAILURES = 2;

/** One line of text for a prompt field (the judge reads fields line by line). */
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/** WSOP's grading prompt (CRAG section 2.1: `Query / Document / Relevant:`), asking for yes or no. */
export function gradePrompt(question: string, passage: string): string {
  return (
    'Does the document help answer the query? Reply with one word: yes or no.\n\n' +
    `Query: ${oneLine(question)}\nDocument: ${oneLine(passage).slice(0, PASSAGE_CHARS)}\nRelevant (yes/no):`
  );
}

export function entailPrompt(sentence: string, evidence: string[]): string {
  return (
    'Does the evidence state what the claim says? Reply with one word: yes or no.\n\n' +
    `Evidence: ${oneLine(evidence.join(' ')).slice(0, PASSAGE_CHARS)}\nClaim: ${oneLine(sentence)}\nSupported (yes/no):`
  );
}

/** 1 for yes, 0 for no, null for anything else (the first word decides). */
export function readYesNo(text: string): number | null {
  const word = /[a-z]+/i.exec(text)?.[0]?.toLowerCase();
  if (word === 'yes' || word === 'relevant' || word === 'supported' || word === 'true') return 1;
  if (word === 'no' || word === 'not' || word === 'irrelevant' || word === 'false') return 0;
  return null;
}

const judgeRequest = (prompt: string): GenerateRequest => ({
  prompt,
  temperature: 0,
  maxTokens: 4,
  stop: ['\n'],
});

/** Asks one yes/no question per prompt, in order; stops early when cancelled or the backend fails. */
async function askAll(
  llm: LlmDep,
  prompts: string[],
  signal?: AbortSignal,
): Promise<Array<number | null>> {
  const out: Array<number | null> = prompts.map(() => null);
  let failures = 0;
  for (let i = 0; i < prompts.length; i++) {
    if (signal?.aborted || failures >= MAX_CONSECUTIVE_FAILURES) break;
    try {
      const result = await llm.generate(judgeRequest(prompts[i]!), signal ? { signal } : {});
      out[i] = readYesNo(result.text);
      failures = 0;
    } catch (err) {
      if (isAppError(err) && err.code === 'ABORTED') break;
      failures++;
    }
  }
  return out;
}

/** The evaluator's LLM grade: one yes/no per passage (the service blends it with its score). */
export function createLlmGrade(llm: LlmDep): LlmGradeFn {
  return (question, passages, signal) =>
    askAll(
      llm,
      passages.map((p) => gradePrompt(question, p.text)),
      signal,
    );
}

/** The checker's LLM entailment judge: yes/no for a sentence given the strips it cites. */
export function createLlmEntail(llm: LlmDep): LlmEntailFn {
  return async (sentence, evidence, signal) => {
    if (evidence.length === 0) return 0;
    const [grade] = await askAll(llm, [entailPrompt(sentence, evidence)], signal);
    return grade ?? null;
  };
}

/**
 * Blends the LLM entailment judge into a generated answer's sentence checks, where the service
 * has not already (no `llm` component): score = (1 - weight) * lexical + weight * judge, labelled
 * with the fitted thresholds. Sentences without a citation stay unsupported.
 */
export async function applyEntailment(
  answer: Answer,
  entail: LlmEntailFn,
  label: (score: number) => SupportLabel,
  options: { weight?: number; signal?: AbortSignal; now: () => number },
): Promise<Answer> {
  if (answer.sentences.some((s) => 'llm' in s.support.components)) return answer;
  const weight = options.weight ?? 0.5;
  const start = options.now();
  const byId = new Map(answer.strips.map((s) => [s.id, s.text]));
  const sentences = [];
  let judged = 0;
  for (const s of answer.sentences) {
    const evidence = s.stripIds.flatMap((id) => byId.get(id) ?? []);
    const lexical = s.support.components.lexical;
    if (evidence.length === 0 || lexical === undefined || options.signal?.aborted) {
      sentences.push(s);
      continue;
    }
    const g = await entail(s.text, evidence, options.signal);
    if (g === null) {
      sentences.push(s);
      continue;
    }
    judged++;
    const score = (1 - weight) * lexical + weight * g;
    sentences.push({
      ...s,
      support: {
        ...s.support,
        score,
        label: label(score),
        components: { ...s.support.components, llm: g },
      },
    });
  }
  const ms = options.now() - start;
  return {
    ...answer,
    sentences,
    crag: {
      ...answer.crag,
      steps: [
        ...answer.crag.steps,
        { kind: 'check', ms, note: `LLM entailment judge: ${judged} sentences` },
      ],
      totalMs: answer.crag.totalMs + ms,
    },
  };
}
