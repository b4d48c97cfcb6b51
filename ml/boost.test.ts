// The crag fit's boosted trees: they learn an interaction a logistic model cannot, and the
// scorer the app uses (workers/answer/fitted.ts) reads them exactly as they were fitted.
import { describe, expect, it } from 'vitest';
import { logisticScore } from '../workers/answer/fitted';
import { mulberry32 } from '../workers/embed/rng.testkit';
import { fitBoosted } from './boost';
import { auroc, fitLogistic } from '../eval/logistic';

function xorData(n: number, seed: number) {
  const rand = mulberry32(seed);
  const rows: Array<Record<string, number>> = [];
  const labels: boolean[] = [];
  for (let i = 0; i < n; i++) {
    const a = rand();
    const b = rand();
    rows.push({ a, b, noise: rand() });
    // Relevant when both are high or both are low: no linear boundary separates it.
    labels.push(a > 0.5 === b > 0.5 ? rand() < 0.9 : rand() < 0.1);
  }
  return { rows, labels };
}

describe('fitBoosted', () => {
  const names = ['a', 'b', 'noise'];
  const train = xorData(2000, 1);
  const test = xorData(1000, 2);
  const score = (m: ReturnType<typeof fitLogistic>) =>
    auroc(
      test.rows.map((r) => logisticScore(m, r)),
      test.labels,
    );

  it('learns an interaction the logistic model cannot see', () => {
    const linear = fitLogistic(names, train.rows, train.labels, 1);
    const boosted = fitBoosted(names, train.rows, train.labels, { trees: 60, depth: 2 });
    expect(score(linear)).toBeLessThan(0.6);
    expect(score(boosted)).toBeGreaterThan(0.8); // 0.90 is the best possible with this noise
    expect(boosted.trees).toHaveLength(60);
  });

  it('survives a JSON round trip (the committed fitted files) with identical scores', () => {
    const boosted = fitBoosted(names, train.rows, train.labels, { trees: 10, depth: 3 });
    const copy = JSON.parse(JSON.stringify(boosted)) as typeof boosted;
    for (const r of test.rows.slice(0, 50))
      expect(logisticScore(copy, r)).toBe(logisticScore(boosted, r));
  });

  it('counts a non-finite feature as the training mean, never NaN, and refuses an absent one', () => {
    const boosted = fitBoosted(names, train.rows, train.labels, { trees: 10, depth: 2 });
    const p = logisticScore(boosted, { a: 0.9, b: Number.NaN, noise: 0 });
    expect(Number.isFinite(p)).toBe(true);
    expect(p).toBeGreaterThan(0);
    expect(p).toBeLessThan(1);
    expect(() => logisticScore(boosted, { a: 0.9 })).toThrow(/did not compute/);
  });
});
