// The canonical runtime's pair verifier against the PyTorch reference on the same bundle
// (wasm/golden/verifier-reference.json, from ml/verifier/reference.py) and against its own golden
// hashes (wasm/golden/verifier-sha256.json). Both regenerate with `npm run golden:verifier`.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../embed/node-kernel';
import { checkVerifierGolden, pairOutputBytes, type VerifierGolden } from './golden';
import { loadPairModelFolder, weightsSha256 } from './node-bundle';
import type { PairModel } from './pair-model';

interface ReferencePair {
  a: string;
  b: string;
  ids: number[];
  typeIds: number[];
  truncated: boolean;
  stanceLogits: number[];
  relevanceLogit: number;
}
const reference = JSON.parse(
  readFileSync(join(REPO_ROOT, 'wasm/golden/verifier-reference.json'), 'utf8'),
) as { bundleSha256: string; pairs: ReferencePair[] };
const golden = JSON.parse(
  readFileSync(join(REPO_ROOT, 'wasm/golden/verifier-sha256.json'), 'utf8'),
) as VerifierGolden;

/** The stated agreement with PyTorch f32: int16 dense layers cost at most this much per logit. */
const MAX_LOGIT_DIFF = 0.02;
const argmax = (xs: ArrayLike<number>) =>
  Array.from(xs).reduce((best, x, i, all) => (x > all[best]! ? i : best), 0);

describe('pair verifier on the canonical runtime', () => {
  let model: PairModel;
  beforeAll(async () => {
    expect(
      weightsSha256(),
      'public/models/sift-verifier-v1 is not the bundle of the goldens: run npm run golden:verifier',
    ).toBe(reference.bundleSha256);
    model = await loadPairModelFolder();
  }, 120_000);

  it('tokenises every pair as the reference does (ids, token types, cut)', () => {
    for (const p of reference.pairs) {
      const e = model.encode(p);
      expect({ ids: e.ids, typeIds: e.typeIds, truncated: e.truncated }).toEqual({
        ids: p.ids,
        typeIds: p.typeIds,
        truncated: p.truncated,
      });
    }
    expect(reference.pairs.some((p) => p.truncated)).toBe(true);
  });

  it(`agrees with PyTorch within ${MAX_LOGIT_DIFF} per logit, with the same stance argmax`, () => {
    let worst = 0;
    for (const p of reference.pairs) {
      const [r] = model.run([model.encode(p)]);
      const diffs = [
        ...p.stanceLogits.map((x, i) => Math.abs(x - r!.logits.stance[i]!)),
        Math.abs(p.relevanceLogit - r!.logits.relevance),
      ];
      worst = Math.max(worst, ...diffs);
      expect(argmax(r!.logits.stance), p.a).toBe(argmax(p.stanceLogits));
      const s = r!.judgement.stance;
      expect(s.support + s.contradict + s.nei).toBeCloseTo(1, 5);
      // A sigmoid moves at most 1/4 of its logit's difference.
      const torchRelevance = 1 / (1 + Math.exp(-p.relevanceLogit));
      expect(Math.abs(r!.judgement.relevance - torchRelevance)).toBeLessThanOrEqual(
        MAX_LOGIT_DIFF / 4,
      );
    }
    expect(worst).toBeLessThanOrEqual(MAX_LOGIT_DIFF);
  });

  it('reproduces the golden output bytes, and one batched pass gives the same bytes', async () => {
    const check = await checkVerifierGolden(model, reference.pairs, golden, weightsSha256());
    expect(check.mismatches).toEqual([]);
    expect(check.ok).toBe(true);
    const batched = model.run(reference.pairs.map((p) => model.encode(p)));
    const alone = reference.pairs.map((p) => model.run([model.encode(p)])[0]!);
    batched.forEach((r, i) => expect(pairOutputBytes(r)).toEqual(pairOutputBytes(alone[i]!)));
  });
});
