// The PairVerifier over a loaded pair model: pairs judged in input order, in forward passes of a
// bounded number of tokens, each result cached by the SHA-256 of (a, b) so a pair read twice (the
// same sentence for a claim checked again, a re-asked question) costs one lookup.
// The model arrives through `load` (called once, on first use). Must not import Node modules.
import { createError } from '../shared/errors';
import type {
  PairInput,
  PairJudgement,
  PairVerifier,
  PairVerifierInfo,
} from '../shared/pair-verifier';
import type { EncodedPair, PairModel } from './pair-model';

export interface PairVerifierDeps {
  info: PairVerifierInfo;
  /** Loads the model on first use; a failure is thrown to that call and retried by the next. */
  load: () => Promise<PairModel>;
  /** Lets queued messages run between forward passes; default: a macrotask. */
  yieldToEvents?: () => Promise<void>;
  /** Results kept (least recently used dropped first). */
  cacheSize?: number;
  /** Tokens per forward pass (the sum over its pairs). */
  passTokens?: number;
}

/** SHA-256 (hex) of a pair: the cache key, unambiguous for any two strings. */
export async function pairKey(pair: PairInput): Promise<string> {
  const bytes = new TextEncoder().encode(JSON.stringify([pair.a, pair.b]));
  const d = await globalThis.crypto.subtle.digest('SHA-256', bytes);
  return Array.from(new Uint8Array(d), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Splits encoded pairs into runs of at most `budget` tokens (a longer pair runs alone). */
export function passesOf<T extends EncodedPair>(items: readonly T[], budget: number): T[][] {
  const out: T[][] = [];
  let cur: T[] = [];
  let tokens = 0;
  for (const it of items) {
    if (cur.length > 0 && tokens + it.ids.length > budget) {
      out.push(cur);
      cur = [];
      tokens = 0;
    }
    cur.push(it);
    tokens += it.ids.length;
  }
  if (cur.length > 0) out.push(cur);
  return out;
}

export function createPairVerifier(deps: PairVerifierDeps): PairVerifier {
  const yieldToEvents = deps.yieldToEvents ?? (() => new Promise<void>((r) => setTimeout(r, 0)));
  const cacheSize = deps.cacheSize ?? 20_000;
  const passTokens = deps.passTokens ?? 1024;
  const cache = new Map<string, PairJudgement>();
  let model: Promise<PairModel> | null = null;

  function loaded(): Promise<PairModel> {
    model ??= deps.load().catch((err: unknown) => {
      model = null;
      throw err;
    });
    return model;
  }

  function remember(key: string, j: PairJudgement): void {
    cache.delete(key);
    cache.set(key, j);
    if (cache.size > cacheSize) cache.delete(cache.keys().next().value!);
  }

  return {
    info: deps.info,
    async judge(pairs) {
      for (const p of pairs) {
        if (typeof p?.a !== 'string' || typeof p?.b !== 'string') {
          throw createError('INVALID_ARGUMENT', {
            reason: 'Each pair needs two strings, a and b.',
          });
        }
      }
      const keys = await Promise.all(pairs.map(pairKey));
      const out: Array<PairJudgement | undefined> = keys.map((k) => cache.get(k));
      const todo = new Map<string, number[]>();
      keys.forEach((k, i) => {
        if (out[i]) remember(k, out[i]);
        else todo.set(k, [...(todo.get(k) ?? []), i]);
      });
      if (todo.size > 0) {
        const m = await loaded();
        const encoded = [...todo].map(([key, at]) => ({ key, at, ...m.encode(pairs[at[0]!]!) }));
        for (const pass of passesOf(encoded, passTokens)) {
          const results = m.run(pass);
          pass.forEach((p, r) => {
            const j = results[r]!.judgement;
            remember(p.key, j);
            for (const i of p.at) out[i] = j;
          });
          await yieldToEvents();
        }
      }
      return out as PairJudgement[];
    },
  };
}
