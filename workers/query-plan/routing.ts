// Complexity routing (WSOP section 5, adaptive_routing; Adaptive-RAG, Jeong et al. 2024):
// simple / moderate / complex from heuristics (length, question words, comparison and
// multi-entity cues), optionally confirmed by the LLM. Thresholds from the spec's config:
// simple below 0.3, complex from 0.7.
import type { Complexity } from '../shared/research-api';
import { runLlm } from './llm-step';
import { contentTokens, tokenize } from './text';
import type { LlmDep, Timers } from './types';

export const SIMPLE_THRESHOLD = 0.3;
export const COMPLEX_THRESHOLD = 0.7;

export interface RouteFeatures {
  words: number;
  contentWords: number;
  /** who/when/where/which/how many/what year: a single fact. */
  factoid: boolean;
  /** what is/how does/why/explain: needs a passage. */
  explanatory: boolean;
  comparison: boolean;
  /** Entities joined by and/or/commas, or several capitalised names. */
  entities: number;
  clauses: number;
}

export interface RouteDecision {
  complexity: Complexity;
  score: number;
  features: RouteFeatures;
  reason: string;
  source: 'heuristic' | 'llm';
}

const COMPARISON =
  /\b(?:compare[ds]?|comparing|comparison|versus|vs\.?|difference(?:s)? between|differ(?:s|ence)?|better than|worse than|pros and cons|trade-?offs?|advantages? (?:of|over)|relative to|contrast)\b/i;
const FACTOID =
  /^(?:who|when|where|which|whom|what (?:year|date|time|day|is the name|was the name)|how (?:many|much|old|long|tall|far))\b/i;
const EXPLANATORY =
  /^(?:what (?:is|are|was|were|does|do)|how (?:does|do|did|is|are|can|to)|why|explain|describe|what causes|what happens)\b/i;
const MULTI_STEP =
  /\b(?:and then|after that|in order to|which (?:is|was) (?:also|then)|whose|that (?:also|then)|both|each of|respectively|step by step|impact of .+ on)\b/i;

export function routeFeatures(query: string): RouteFeatures {
  const q = query.trim();
  const words = tokenize(q).length;
  const contentWords = contentTokens(q).length;
  const capitalised = (
    q.match(
      /(?:^|[\s(])(?!(?:What|Who|When|Where|Which|How|Why|Is|Are|Does|Do|Can|Compare|Explain|Describe|The|A|An|In|On|Of)\b)[A-Z][\p{L}\p{N}-]+/gu,
    ) ?? []
  ).length;
  const joins = (q.match(/\b(?:and|or)\b|,/gi) ?? []).length;
  const entities = Math.max(capitalised, joins > 0 ? joins + 1 : 1);
  const clauses =
    1 +
    (q.match(/[;?]|,\s*(?:and|but|while|whereas)\b|\b(?:because|although|whereas|while)\b/gi) ?? [])
      .length -
    (q.trim().endsWith('?') ? 1 : 0);
  return {
    words,
    contentWords,
    factoid: FACTOID.test(q),
    explanatory: EXPLANATORY.test(q),
    comparison: COMPARISON.test(q),
    entities,
    clauses: Math.max(1, clauses) + (MULTI_STEP.test(q) ? 1 : 0),
  };
}

/** A 0..1 complexity score from the features (documented weights, no training). */
export function complexityScore(f: RouteFeatures): number {
  let s = 0;
  s += Math.min(0.35, Math.max(0, f.contentWords - 3) * 0.05); // long queries carry more facets
  if (f.explanatory) s += 0.35;
  if (f.factoid) s -= 0.1;
  if (f.comparison) s += 0.5;
  if (f.entities >= 2) s += 0.2 * Math.min(2, f.entities - 1);
  if (f.clauses >= 2) s += 0.2;
  if (!f.explanatory && !f.factoid && !f.comparison && f.contentWords <= 4) s -= 0.1; // a few keywords
  return Math.max(0, Math.min(1, s));
}

export function classifyComplexity(query: string): RouteDecision {
  const features = routeFeatures(query);
  const score = complexityScore(features);
  const complexity: Complexity =
    score < SIMPLE_THRESHOLD ? 'simple' : score >= COMPLEX_THRESHOLD ? 'complex' : 'moderate';
  const cues: string[] = [];
  if (features.comparison) cues.push('comparison');
  if (features.entities >= 2) cues.push(`${features.entities} entities`);
  if (features.clauses >= 2) cues.push('several clauses');
  if (features.explanatory) cues.push('explanatory question');
  if (features.factoid) cues.push('factoid question');
  if (cues.length === 0) cues.push(`${features.contentWords} keywords`);
  return {
    complexity,
    score,
    features,
    reason: `${complexity} (score ${score.toFixed(2)}: ${cues.join(', ')})`,
    source: 'heuristic',
  };
}

export function routingPrompt(query: string): string {
  return `Classify how much retrieval this search question needs. Answer with one word: simple (one direct fact), moderate (one lookup that needs a passage) or complex (several facts, comparison or multi-step reasoning).

Question: ${query}
Answer:`;
}

/** Heuristic route, optionally confirmed by the LLM (its one-word answer wins when parseable). */
export async function routeQuery(
  query: string,
  options: {
    llm?: LlmDep | null;
    useLlm?: boolean;
    signal?: AbortSignal;
    timeoutMs?: number;
    timers?: Timers;
  } = {},
): Promise<RouteDecision & { llmCode: string | null }> {
  const h = classifyComplexity(query);
  if (!options.useLlm) return { ...h, llmCode: null };
  const out = await runLlm(
    options.llm,
    { prompt: routingPrompt(query), temperature: 0, maxTokens: 4 },
    { signal: options.signal, timeoutMs: options.timeoutMs, timers: options.timers },
  );
  if (!out.ok) return { ...h, llmCode: out.code };
  const label = /\b(simple|moderate|complex)\b/i.exec(out.text)?.[1]?.toLowerCase() as
    Complexity | undefined;
  if (!label) return { ...h, llmCode: 'MALFORMED_RESPONSE' };
  if (label === h.complexity)
    return { ...h, source: 'llm', reason: `${h.reason}; confirmed by the model`, llmCode: null };
  return {
    ...h,
    complexity: label,
    source: 'llm',
    reason: `${label} (model said ${label}; heuristic said ${h.reason})`,
    llmCode: null,
  };
}
