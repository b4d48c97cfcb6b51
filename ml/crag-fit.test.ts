// The passage threshold's stated criterion: the threshold maximising the smaller of the two goal
// ratios (balanced accuracy / 0.87, F1 / 0.68; both are goals of issue 16, and they peak apart),
// and the passage score's blend with the query model chosen by the same ratio.
import { describe, expect, it } from 'vitest';
import { blendScores } from '../workers/answer/fitted';
import { PASSAGE_GOALS, passageBlend, passageThreshold } from './crag-fit';
import { classify } from '../eval/logistic';

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

describe('passageBlend', () => {
  /**
   * Two seeded score sets over the same labels: the query model separates the positives from
   * the "on-topic" negatives (a fifth of the negatives, which the passage model scores high) and
   * the passage model the rest, so a blend beats either alone.
   */
  function twoModels(seed: number, n = 4000) {
    let s = seed;
    const rand = () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const p: number[] = [];
    const q: number[] = [];
    const labels: boolean[] = [];
    for (let i = 0; i < n; i++) {
      const pos = rand() < 0.1;
      const topical = !pos && rand() < 0.2;
      const noise = () => (rand() - 0.5) * 0.5;
      p.push(Math.min(0.99, Math.max(0.01, (pos || topical ? 0.65 : 0.2) + noise())));
      q.push(Math.min(0.99, Math.max(0.01, (pos ? 0.6 : topical ? 0.15 : 0.35) + noise())));
      labels.push(pos);
    }
    const asRecords = (x: number[]) => ({
      first: Array.from({ length: n / 10 }, (_, i) => x.slice(i * 10, i * 10 + 10)),
      ablation: [],
      folds: [],
    });
    return { passage: asRecords(p), query: asRecords(q), labels };
  }

  it('chooses a weight that beats the passage model alone on the goal ratio, and returns its scores', () => {
    const { passage, query, labels } = twoModels(3);
    const alone = classify(
      passage.first.flat(),
      labels,
      passageThreshold(passage.first.flat(), labels),
    );
    const b = passageBlend(passage, query, labels);
    expect(b.weight).toBeGreaterThan(0);
    expect(b.weight).toBeLessThan(1);
    const flat = b.scores.first.flat();
    expect(b.threshold).toBe(passageThreshold(flat, labels));
    expect(ratio(classify(flat, labels, b.threshold))).toBeGreaterThan(ratio(alone));
    expect(flat[0]).toBeCloseTo(
      blendScores(passage.first[0]![0]!, query.first[0]![0]!, b.weight),
      12,
    );
  });

  it('keeps the passage model alone (weight 0) when the query model adds nothing', () => {
    const { passage, labels } = twoModels(4);
    const flipped = { ...passage, first: passage.first.map((x) => x.map((v) => 1 - v)) };
    expect(passageBlend(passage, flipped, labels).weight).toBe(0);
  });
});
