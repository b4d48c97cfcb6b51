// The pair verifier's contract: what callers (claim check, answer checker, citation audit,
// evaluator) see of Sift's own cross-encoder, whatever runs it. Owns the DTOs and the interface
// only.

export interface PairInput {
  readonly a: string;
  readonly b: string;
} // a: claim or question; b: sentence or passage
export interface PairJudgement {
  readonly stance: { readonly support: number; readonly contradict: number; readonly nei: number }; // softmax
  readonly relevance: number; // sigmoid, P(b answers / addresses a)
  readonly truncated: boolean; // b (or a) was cut to fit the window
}
export interface PairVerifierInfo {
  readonly id: string;
  readonly version: number;
  readonly maxLength: number;
}
export interface PairVerifier {
  readonly info: PairVerifierInfo;
  /** Judges pairs in input order; results are cached by content hash of (a, b). @throws AppError VERIFIER_* */
  judge(pairs: readonly PairInput[]): Promise<PairJudgement[]>;
}
