// The cross-encoder on the canonical runtime: a pair tokenised as [CLS] a [SEP] b [SEP] with token
// types 0 | 1 (a cut to max_length_a pieces, then b to the window), the BERT encoder of
// workers/embed/bert.ts (same int16 kernels, same summation order), and the two heads on the [CLS]
// row run by the runtime too (f32 matmul, its softmax; sigmoid(x) as softmax([x, 0])[0]).
// Must not import Node modules, storage or Comlink.
import type { PairInput, PairJudgement } from '../shared/pair-verifier';
import { loadBert, type TypedSequence } from '../embed/bert';
import type { Kernel } from '../embed/kernel';
import type { VerifierBundle } from './bundle';

/** A pair as the encoder reads it, with what the window cut. */
export interface EncodedPair extends TypedSequence {
  readonly truncated: boolean;
}

/** The raw outputs of one pair: stance logits (SUPPORT, CONTRADICT, NEI) and relevance logit. */
export interface PairLogits {
  readonly stance: Float32Array;
  readonly relevance: number;
}

export interface PairModel {
  readonly maxLength: number;
  encode(pair: PairInput): EncodedPair;
  /** Logits and probabilities of several encoded pairs in one forward pass, in order. */
  run(batch: readonly EncodedPair[]): Array<{ logits: PairLogits; judgement: PairJudgement }>;
}

/** Loads a bundle into `kernel` (its weights copied once; `bundle` may be dropped afterwards). */
export function loadPairModel(kernel: Kernel, bundle: VerifierBundle, version: string): PairModel {
  const { config, tokenizer } = bundle;
  const H = config.hidden_size;
  const bert = loadBert(kernel, config, bundle.tensors, tokenizer, {
    id: 'sift-verifier',
    version,
    maxTokens: config.max_length,
    pooling: 'cls',
  });
  // Heads side by side as one [H, 4] matrix (columns: support, contradict, nei, relevance).
  const w = new Float32Array(H * 4);
  for (let i = 0; i < H; i++) {
    for (let o = 0; o < 3; o++) w[i * 4 + o] = bundle.stance.weight[o * H + i]!;
    w[i * 4 + 3] = bundle.relevance.weight[i]!;
  }
  const headW = kernel.putF32(w);
  const headB = kernel.putF32(
    Float32Array.from([...bundle.stance.bias, bundle.relevance.bias[0]!]),
  );
  const { clsId, sepId } = tokenizer;
  const pieces = (text: string) => tokenizer.encode(text, Number.MAX_SAFE_INTEGER).ids.slice(1, -1);

  function encode(pair: PairInput): EncodedPair {
    const a = pieces(pair.a);
    const b = pieces(pair.b);
    const keptA = a.slice(0, config.max_length_a);
    const keptB = b.slice(0, Math.max(0, config.max_length - 3 - keptA.length));
    return {
      ids: [clsId, ...keptA, sepId, ...keptB, sepId],
      typeIds: [...keptA.map(() => 0), 0, 0, ...keptB.map(() => 1), 1],
      truncated: keptA.length < a.length || keptB.length < b.length,
    };
  }

  function run(batch: readonly EncodedPair[]) {
    if (batch.length === 0) return [];
    const cls = bert.clsHiddenBatch(batch);
    const k = kernel;
    const m = batch.length;
    const mark = k.mark();
    try {
      const h = k.alloc(m * H * 4);
      cls.forEach((row, r) => k.f32(h + r * H * 4, H).set(row));
      const logits = k.alloc(m * 4 * 4);
      k.matmul(h, headW, headB, logits, m, H, 4);
      const raw = k.f32(logits, m * 4).slice();
      const stanceP = k.alloc(m * 3 * 4);
      const relP = k.alloc(m * 2 * 4);
      const sp = k.f32(stanceP, m * 3);
      const rp = k.f32(relP, m * 2);
      for (let r = 0; r < m; r++) {
        sp.set(raw.subarray(r * 4, r * 4 + 3), r * 3);
        rp[r * 2] = raw[r * 4 + 3]!;
        rp[r * 2 + 1] = 0;
      }
      k.softmax(stanceP, m, 3);
      k.softmax(relP, m, 2);
      const s = k.f32(stanceP, m * 3).slice();
      const rel = k.f32(relP, m * 2).slice();
      return batch.map((pair, r) => ({
        logits: { stance: raw.slice(r * 4, r * 4 + 3), relevance: raw[r * 4 + 3]! },
        judgement: {
          stance: { support: s[r * 3]!, contradict: s[r * 3 + 1]!, nei: s[r * 3 + 2]! },
          relevance: rel[r * 2]!,
          truncated: pair.truncated,
        },
      }));
    } finally {
      k.release(mark);
    }
  }

  return { maxLength: config.max_length, encode, run };
}
