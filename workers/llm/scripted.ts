// A deterministic generator for tests and `--llm scripted`: answers come from a script (a
// function of the request, or a rule list), streamed word by word. It can also fail, hang until
// aborted, or count calls, to exercise every fallback.
import { createError, type ErrorCode } from '../shared/errors';
import type { GenerateRequest } from '../shared/llm-api';
import { createGenerator, type Generator, type NormalisedRequest } from './generator';

export type ScriptRule =
  | { match: RegExp | string; reply: string | ((req: NormalisedRequest, call: number) => string) }
  | { match: RegExp | string; fail: ErrorCode }
  | { match: RegExp | string; hang: true };

export interface ScriptedOptions {
  /** First matching rule wins (`string` = substring of the prompt). */
  rules?: ScriptRule[];
  /** Used when no rule matches. Default: a deterministic echo-like passage. */
  fallback?: (req: NormalisedRequest, call: number) => string;
  /** Yields to the event loop between pieces (true by default) so aborts can land mid-stream. */
  yieldBetweenPieces?: boolean;
}

export interface ScriptedGenerator extends Generator {
  /** The requests seen so far, in order (for assertions). */
  readonly calls: GenerateRequest[];
}

/** Splits into pieces that keep their leading space, like BPE tokens do. */
export function pieces(text: string): string[] {
  return text.match(/\s*\S+|\s+$/g) ?? [];
}

/** The default script's RAG-Fusion variants of a question: `n` aspects of its last three words. */
export function scriptedVariants(question: string, n: number): string[] {
  const words = question.replace(/[?.!]/g, '').split(/\s+/).filter(Boolean);
  const aspects = [
    'definition and background of',
    'evidence and studies about',
    'mechanisms behind',
    'recent findings on',
    'criticism of',
    'history of',
  ];
  return aspects.slice(0, n).map((a) => `${a} ${words.slice(-3).join(' ')}`);
}

/**
 * The default script: a fixed reply per known instruction, so `--llm scripted` gives every
 * technique a plausible, deterministic answer without a model.
 */
export function defaultScript(req: NormalisedRequest, call: number): string {
  const p = req.prompt;
  const question =
    /(?:Question|Original question|Query):\s*(.+)/.exec(p)?.[1]?.trim() ?? p.slice(0, 80);
  const words = question.replace(/[?.!]/g, '').split(/\s+/).filter(Boolean);
  if (/Generate \d+ different search queries/.test(p)) {
    return scriptedVariants(question, Number(/Generate (\d+)/.exec(p)?.[1] ?? 4)).join('\n');
  }
  if (/Rewrite:\s*$/.test(p) || /Rewrite the query/i.test(p)) {
    return (
      words
        .filter((w) => w.length > 3)
        .map((w) => w.toLowerCase())
        .join(' ') + ' research evidence'
    );
  }
  if (/simple, moderate or complex/i.test(p)) return 'moderate';
  if (/^List the factual claims made in the text below/.test(p)) return claimListScript(p);
  if (/\(yes\/no\):\s*$/.test(p)) return yesNoScript(p);
  if (/cite the sources that support it as \[n\]/.test(p)) return citedAnswerScript(p);
  return `A passage (${call}) about ${question}: studies report specific findings, mechanisms and measured effects relevant to ${words.join(' ')}.`;
}

/**
 * Claim extraction (workers/projects/llm-claims.ts): each sentence of the text as a bullet, one
 * joined by ", and " split in two, so a test can tell the model's list from the plain split.
 */
function claimListScript(p: string): string {
  const text = /\nText:\n([\s\S]*?)\n\nClaims:/.exec(p)?.[1] ?? '';
  return text
    .split('\n')
    .flatMap((s) =>
      s.split(/, and /).map((part, i, all) => (all.length > 1 && i === 0 ? `${part}.` : part)),
    )
    .map((s) => `- ${s.trim()}`)
    .join('\n');
}

const contentWords = (text: string) =>
  new Set((text.toLowerCase().match(/[\p{L}\p{N}]{4,}/gu) ?? []).filter((w) => w !== 'with'));

/**
 * A judge's yes/no (relevance grade or entailment): "yes" when most content words of the query /
 * claim occur in the document / evidence. Deterministic, and wrong in the ways a lexical rule is.
 */
function yesNoScript(p: string): string {
  const field = (name: string) => new RegExp(`^${name}: (.*)$`, 'm').exec(p)?.[1] ?? '';
  const [asked, text] = /Relevant \(yes\/no\)/.test(p)
    ? [field('Query'), field('Document')]
    : [field('Claim'), field('Evidence')];
  const need = [...contentWords(asked)];
  const have = contentWords(text);
  const shared = need.filter((w) => have.has(w)).length;
  return need.length > 0 && shared / need.length >= 0.5 ? ' yes' : ' no';
}

/**
 * A cited answer that quotes the first source's first sentence with [1], then makes one up with a
 * citation it does not deserve: what the sentence checker must flag.
 */
function citedAnswerScript(p: string): string {
  const first = /^\[1\] \((?:library|web)[^\n]*?\) (.+)$/m.exec(p)?.[1] ?? '';
  const found = /^.*?[.!?](?=\s|$)/.exec(first)?.[0] ?? first.trim();
  // The marker goes before the full stop (a heading-like strip without one gets one).
  const sentence = found.replace(/[.!?]$/, '');
  const madeUp = 'Moreover, it was first demonstrated by lunar astronauts in 1851 [1].';
  return sentence ? `${sentence} [1]. ${madeUp}` : 'The sources do not answer the question.';
}

/** Creates the scripted generator. Deterministic: same requests in the same order, same outputs. */
export function createScriptedGenerator(options: ScriptedOptions = {}): ScriptedGenerator {
  const calls: GenerateRequest[] = [];
  const rules = options.rules ?? [];
  const fallback = options.fallback ?? defaultScript;
  const yieldBetween = options.yieldBetweenPieces ?? true;
  let call = 0;

  const base = createGenerator({
    kind: 'scripted',
    async *stream(req, signal) {
      const n = call++;
      const rule = rules.find((r) =>
        typeof r.match === 'string' ? req.prompt.includes(r.match) : r.match.test(req.prompt),
      );
      if (rule && 'fail' in rule) throw createError(rule.fail, { reason: 'Scripted failure.' });
      if (rule && 'hang' in rule) {
        await new Promise<void>((_, reject) => {
          const onAbort = () =>
            reject((signal.reason as Error | undefined) ?? createError('ABORTED'));
          if (signal.aborted) onAbort();
          signal.addEventListener('abort', onAbort, { once: true });
        });
        return;
      }
      const text =
        rule && 'reply' in rule
          ? typeof rule.reply === 'string'
            ? rule.reply
            : rule.reply(req, n)
          : fallback(req, n);
      for (const piece of pieces(text)) {
        if (signal.aborted) throw signal.reason ?? createError('ABORTED');
        yield piece;
        if (yieldBetween) await Promise.resolve();
      }
    },
  });
  return {
    kind: base.kind,
    calls,
    generate(request, opts) {
      calls.push(request);
      return base.generate(request, opts);
    },
    stream(request, opts) {
      calls.push(request);
      return base.stream(request, opts);
    },
  };
}
