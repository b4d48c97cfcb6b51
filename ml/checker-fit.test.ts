// The checker's cut-off search: the cosine gate must be able to flag random pairs that the
// model scores high, and without gates such pairs force the cut above every right pair; the
// logged trade-off (hard flagged at right 0.80 / 0.85 / 0.90 with random flagged >= 0.98).
import { describe, expect, it } from 'vitest';
import { checkerCeiling, checkerCut, checkerFrontier } from './checker-fit';
import type { Pair, PairKind } from '../eval/crag-checker';

const pair = (kind: PairKind): Pair => ({ kind, sentence: kind, evidence: [kind] });
const pairs = [
  ...Array.from({ length: 10 }, () => pair('right')),
  ...Array.from({ length: 10 }, () => pair('hard')),
  ...Array.from({ length: 10 }, () => pair('random')),
];
// right: high score, on topic; hard: low score, on topic; random: high score, off topic
const scores = pairs.map((p) => (p.kind === 'right' ? 0.8 : p.kind === 'hard' ? 0.3 : 0.9));
const cos = pairs.map((p) => (p.kind === 'random' ? 0.05 : 0.5));

describe('checkerCut', () => {
  it('finds a gate that flags the off-topic pairs and a cut between right and hard', () => {
    const cut = checkerCut(scores, cos, pairs, true);
    expect(cut.gate).toBeGreaterThan(0.05);
    expect(cut.gate).toBeLessThanOrEqual(0.5);
    expect(cut.t).toBeGreaterThanOrEqual(0.3);
    expect(cut.t).toBeLessThanOrEqual(0.8);
    expect(cut.figures).toBe('right 1.000 hard 1.000 random 1.000');
  });

  it('without gates keeps random flagged >= 0.98 only by giving up every right pair', () => {
    const cut = checkerCut(scores, cos, pairs, false);
    expect(cut.gate).toBe(-1);
    expect(cut.figures).toBe('right 0.000 hard 1.000 random 1.000');
    expect(checkerCeiling(scores, pairs)).toBe(0);
    expect(checkerCeiling(cos, pairs)).toBe(1);
  });
});

describe('checkerFrontier', () => {
  it('reads hard flagged at each right share, "-" where random flagged falls below 0.98', () => {
    // gated: random pairs are off topic, so every right share is reachable with all hard flagged
    expect(checkerFrontier(scores, cos, pairs, 0.1)).toBe('1.000 / 1.000 / 1.000');
    // ungated: the random pairs score above every right pair, so no cut keeps them flagged
    expect(checkerFrontier(scores, cos, pairs, -1)).toBe('- / - / -');
    // right scores spread over hard ones: reaching more right pairs gives up hard pairs
    // (right 0.50 .. 0.59; hard: six at 0.1, one at 0.515, three at 0.6)
    const hard = [0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.515, 0.6, 0.6, 0.6];
    const spread = pairs.map((p, i) =>
      p.kind === 'right' ? 0.5 + i / 100 : p.kind === 'hard' ? hard[i - 10]! : 0,
    );
    expect(checkerFrontier(spread, cos, pairs, -1)).toBe('0.700 / 0.600 / 0.600');
  });
});
