// The passage threshold's stated criterion: the threshold maximising the smaller of the two goal
// ratios (balanced accuracy / 0.87, F1 / 0.68; both are goals of issue 16, and they peak apart).
import { describe, expect, it } from 'vitest';
import { PASSAGE_GOALS, passageThreshold } from './crag-fit';
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

const grid = Array.from({ length: 96 }, (_, i) => (i + 2) / 100);
const ratio = (c: { balancedAccuracy: number; f1: number }) =>
  Math.min(c.balancedAccuracy / PASSAGE_GOALS.balancedAccuracy, c.f1 / PASSAGE_GOALS.f1);

describe('passageThreshold', () => {
  it.each([1, 2, 3, 4, 5])(
    'maximises the smaller goal ratio, so it beats both the F1-optimal and the BA-optimal threshold on it (seed %i)',
    (seed) => {
      const { scores, labels } = sample(seed);
      const all = grid.map((t) => ({ t, ...classify(scores, labels, t) }));
      const byF1 = all.reduce((a, b) => (b.f1 > a.f1 ? b : a));
      const byBa = all.reduce((a, b) => (b.balancedAccuracy > a.balancedAccuracy ? b : a));
      const chosen = classify(scores, labels, passageThreshold(scores, labels));
      const best = Math.max(...all.map(ratio));
      expect(ratio(chosen)).toBeCloseTo(best, 12);
      expect(ratio(chosen)).toBeGreaterThanOrEqual(ratio(byF1));
      expect(ratio(chosen)).toBeGreaterThanOrEqual(ratio(byBa));
      // on these overlapping scores the two peaks differ: the choice lies between them
      expect(chosen.balancedAccuracy).toBeGreaterThanOrEqual(byF1.balancedAccuracy);
      expect(chosen.f1).toBeGreaterThanOrEqual(byBa.f1);
    },
  );

  it('follows the goals: a higher F1 goal moves the threshold up, a higher BA goal down', () => {
    const { scores, labels } = sample(7);
    const mid = passageThreshold(scores, labels);
    expect(passageThreshold(scores, labels, { balancedAccuracy: 0.87, f1: 0.95 })).toBeGreaterThan(
      mid,
    );
    expect(passageThreshold(scores, labels, { balancedAccuracy: 0.99, f1: 0.68 })).toBeLessThan(
      mid,
    );
  });
});
