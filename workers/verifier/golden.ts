// The verifier's determinism check: the bytes of a pair's outputs (its four logits and four
// probabilities, f32 little-endian) hashed with SHA-256 and compared with wasm/golden/
// verifier-sha256.json, the same in Node and in Chromium. Must not import Node modules.
import { sha256Hex } from '../embed/self-test';
import type { PairInput } from '../shared/pair-verifier';
import type { PairModel } from './pair-model';

export interface VerifierGolden {
  /** SHA-256 of the bundle's model.safetensors the hashes belong to. */
  bundleSha256: string;
  entries: Array<{ sha256: string }>;
}

export interface VerifierGoldenCheck {
  ok: boolean;
  total: number;
  sameBundle: boolean;
  mismatches: number[];
  hashes: string[];
}

/** A run's output bytes: stance logits, relevance logit, then the three stance and one relevance probability. */
export function pairOutputBytes(r: ReturnType<PairModel['run']>[number]): Uint8Array {
  const j = r.judgement;
  const f = Float32Array.from([
    ...r.logits.stance,
    r.logits.relevance,
    j.stance.support,
    j.stance.contradict,
    j.stance.nei,
    j.relevance,
  ]);
  const out = new Uint8Array(f.length * 4);
  const view = new DataView(out.buffer);
  f.forEach((x, i) => view.setFloat32(i * 4, x, true));
  return out;
}

/** Each pair alone (one forward pass each), hashed in order. */
export async function hashPairOutputs(
  model: PairModel,
  pairs: readonly PairInput[],
): Promise<string[]> {
  return Promise.all(
    pairs.map((p) => sha256Hex(pairOutputBytes(model.run([model.encode(p)])[0]!))),
  );
}

export async function checkVerifierGolden(
  model: PairModel,
  pairs: readonly PairInput[],
  golden: VerifierGolden,
  bundleSha256: string,
): Promise<VerifierGoldenCheck> {
  const hashes = await hashPairOutputs(model, pairs);
  const mismatches = hashes.flatMap((h, i) => (h === golden.entries[i]?.sha256 ? [] : [i]));
  const sameBundle = bundleSha256 === golden.bundleSha256;
  return {
    ok: sameBundle && mismatches.length === 0 && golden.entries.length === pairs.length,
    total: pairs.length,
    sameBundle,
    mismatches,
    hashes,
  };
}
