// LLM-assisted claim extraction (issue 17 item 3), used only when the user asks for it and a
// backend is active; the LLM-free split (claims.ts) stays the default and the fallback. The draft
// is first split without a model (so citation markers, headings and questions are handled the
// same way), then sent in groups of sentences with an instruction to restate them as short,
// self-contained factual claims, one per line. Any failure, an empty or unusable reply for a
// group keeps that group's sentences as they are.
import { isAppError } from '../shared/errors';
import type { GenerateRequest, GenerateResult } from '../shared/llm-api';
import { extractClaims, MAX_CLAIMS } from './claims';

export type GenerateClaims = (
  request: GenerateRequest,
  options?: { signal?: AbortSignal },
) => Promise<GenerateResult>;

export interface DraftClaimsResult {
  claims: string[];
  /** 'llm' when at least one group was restated by the model. */
  method: 'llm' | 'sentences';
  /** Groups the model failed on (kept as split sentences). */
  failedGroups: number;
}

/** Sentences per request: small enough for a 2k-token context with the reply. */
export const SENTENCES_PER_REQUEST = 8;
const MIN_WORDS = 4;

export function claimPrompt(sentences: string[]): string {
  return [
    'List the factual claims made in the text below. Write each claim as one short, self-contained',
    'sentence that can be checked on its own (replace pronouns with what they refer to; split',
    'sentences that state several facts). Leave out opinions, questions and headings.',
    'Write one claim per line and nothing else.',
    '',
    'Text:',
    ...sentences,
    '',
    'Claims:',
  ].join('\n');
}

/** The claims of a reply: one per line, list markers and numbering removed, fragments dropped. */
export function parseClaimLines(reply: string): string[] {
  return reply
    .split('\n')
    .map((l) =>
      l
        .replace(/^\s*(?:[-*•]|\d+[.)]|claim\s*\d*\s*:)\s*/i, '')
        .replace(/\s+/g, ' ')
        .trim(),
    )
    .filter((l) => (l.match(/[\p{L}\p{N}]+/gu) ?? []).length >= MIN_WORDS && !l.endsWith('?'));
}

/**
 * @throws AppError ABORTED when `signal` aborts (other generator errors fall back per group)
 */
export async function extractClaimsWithLlm(
  generate: GenerateClaims,
  draft: string,
  options: { signal?: AbortSignal; max?: number } = {},
): Promise<DraftClaimsResult> {
  const max = options.max ?? MAX_CLAIMS;
  const sentences = extractClaims(draft, max).map((c) => c.text);
  const claims: string[] = [];
  let restated = 0;
  let failedGroups = 0;
  for (let i = 0; i < sentences.length && claims.length < max; i += SENTENCES_PER_REQUEST) {
    const group = sentences.slice(i, i + SENTENCES_PER_REQUEST);
    let lines: string[] = [];
    try {
      const r = await generate(
        { prompt: claimPrompt(group), temperature: 0, maxTokens: 64 * group.length },
        options.signal ? { signal: options.signal } : {},
      );
      lines = parseClaimLines(r.text);
    } catch (err) {
      if (options.signal?.aborted || (isAppError(err) && err.code === 'ABORTED')) throw err;
    }
    if (lines.length === 0) {
      failedGroups++;
      claims.push(...group);
    } else {
      restated++;
      claims.push(...lines);
    }
  }
  const unique = [...new Set(claims)].slice(0, max);
  return { claims: unique, method: restated > 0 ? 'llm' : 'sentences', failedGroups };
}
