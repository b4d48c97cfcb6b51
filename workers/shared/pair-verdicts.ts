// Pair verdicts with their source named: the pair verifier's judgements, or, when it is absent or
// its weights are missing, damaged or of another version, a value telling the caller to keep its
// LLM-free path and label its verdicts so. Other faults (a cancel, bad input) still throw.
import { isAppError, type ErrorCode } from './errors';
import type { PairInput, PairJudgement, PairVerifier } from './pair-verifier';

export type PairVerdicts =
  | { readonly source: 'verifier'; readonly judgements: PairJudgement[] }
  | {
      readonly source: 'llm-free';
      /** Why the verifier did not judge: its error code, or null when none was given. */
      readonly code: ErrorCode | null;
      /** The error's message (it says how to get the verifier back), or why none is wired. */
      readonly reason: string;
    };

const FALLBACK_CODES: ReadonlySet<ErrorCode> = new Set([
  'VERIFIER_MISSING',
  'VERIFIER_CORRUPT',
  'VERIFIER_VERSION',
]);

/**
 * @throws AppError of any code but VERIFIER_* (those become the 'llm-free' value)
 */
export async function judgeOrFallback(
  verifier: PairVerifier | undefined,
  pairs: readonly PairInput[],
): Promise<PairVerdicts> {
  if (!verifier) {
    return { source: 'llm-free', code: null, reason: 'No pair verifier is available here.' };
  }
  try {
    return { source: 'verifier', judgements: await verifier.judge(pairs) };
  } catch (err) {
    if (isAppError(err) && FALLBACK_CODES.has(err.code)) {
      return { source: 'llm-free', code: err.code, reason: err.message };
    }
    throw err;
  }
}
