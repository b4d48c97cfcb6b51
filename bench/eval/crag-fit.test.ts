// The passage threshold's stated criterion: the best balanced accuracy among thresholds whose
// F1 stays within the margin of the best F1 (both are goals of issue 16, and they peak apart).
import { describe, expect, it } from 'vitest';
import { passageThreshold } from './crag-fit';
import { classify } from './logistic';

/** Seeded scores: 10% positives, overlapping score distributions. */
function sample(seed: number, n = 4000) {
  let s = seed;
  const rand = () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const scores: number[] = [];
  const labels: boolean[] = [];
  for (let i = 0; i < n; i++) {
    const pos = rand() < 0.1;
    const z = (rand() + rand() + rand()) / 3; // roughly bell-shaped in [0, 1]
    scores.push(pos ? 0.25 + 0.75 * z : 0.6 * z);
    labels.push(pos);
  }
  return { scores, labels };
}

function compare(seed: number) {
  const { scores, labels } = sample(seed);
  const grid = Array.from({ length: 96 }, (_, i) => (i + 2) / 100);
  const byF1 = grid
    .map((t) => ({ t, ...classify(scores, labels, t) }))
    .reduce((a, b) => (b.f1 > a.f1 ? b : a));
  const chosen = classify(scores, labels, passageThreshold(scores, labels, 0.02));
  return { chosen, byF1 };
}

describe('passageThreshold', () => {
  // Pinned seeds (a test must be reproducible): on about 9% of draws of this generator the
  // F1-optimal threshold already has the best balanced accuracy within the margin, so "strictly
  // better" is asserted on seeds where it is not, and "never worse" on those where it is (9, 33).
  it.each([1, 2, 3, 4, 5, 6, 7, 8, 10, 11])(
    'raises balanced accuracy above the F1-optimal threshold while F1 stays within the margin (seed %i)',
    (seed) => {
      const { chosen, byF1 } = compare(seed);
      expect(chosen.f1).toBeGreaterThanOrEqual(byF1.f1 - 0.02 - 1e-9);
      // strictly better: the mean-of-both rule it replaced sat at F1's peak on data like this
      expect(chosen.balancedAccuracy).toBeGreaterThan(byF1.balancedAccuracy);
    },
  );

  it.each([9, 33])('never lowers balanced accuracy below the F1-optimal one (seed %i)', (seed) => {
    const { chosen, byF1 } = compare(seed);
    expect(chosen.f1).toBeGreaterThanOrEqual(byF1.f1 - 0.02 - 1e-9);
    expect(chosen.balancedAccuracy).toBeGreaterThanOrEqual(byF1.balancedAccuracy);
  });

  it('with a zero margin keeps an F1-optimal threshold', () => {
    const { scores, labels } = sample(7);
    const t = passageThreshold(scores, labels, 0);
    const best = Math.max(
      ...Array.from({ length: 96 }, (_, i) => classify(scores, labels, (i + 2) / 100).f1),
    );
    expect(classify(scores, labels, t).f1).toBeCloseTo(best, 10);
  });
});
