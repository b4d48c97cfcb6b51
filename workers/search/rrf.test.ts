import { describe, expect, it } from 'vitest';
import {
  adaptiveWeights,
  agreementIn,
  agreementAt,
  DEFAULT_ADAPTIVE,
  fuseHybrid,
  minMaxFusion,
  minMaxNormalise,
  reciprocalRankFusion,
  rrfTerm,
  squash,
  topZ,
  weightedRrf,
  type RankedCandidate,
} from './rrf';
import { compareRanked } from '../shared/ranking';

const c = (chunkId: number, score = 0, path = `doc-${chunkId}.md`, seq = 0): RankedCandidate => ({
  chunkId,
  path,
  seq,
  score,
});
const [A, B, C, D] = [c(1, 0, 'a.md'), c(2, 0, 'b.md'), c(3, 0, 'c.md'), c(4, 0, 'd.md')];

describe('reciprocal rank fusion (CFS-012 section 4)', () => {
  it('uses 1/(k + rank + 1) on 0-based ranks with k = 60', () => {
    expect(rrfTerm(0)).toBe(1 / 61);
    expect(rrfTerm(2)).toBe(1 / 63);
    expect(rrfTerm(0, 10)).toBe(1 / 11);
  });

  it('reproduces the worked example: A, C, B, D with 0.0325, 0.0323, 0.0161, 0.0159', () => {
    const fused = reciprocalRankFusion([
      { name: 'semantic', items: [A, B, C] },
      { name: 'lexical', items: [C, A, D] },
    ]);
    expect(fused.map((f) => f.path)).toEqual(['a.md', 'c.md', 'b.md', 'd.md']);
    expect(fused.map((f) => Number(f.score.toFixed(4)))).toEqual([0.0325, 0.0323, 0.0161, 0.0159]);
    expect(fused[0]!.score).toBe(1 / 61 + 1 / 62);
    expect(fused[0]!.ranks).toEqual({ semantic: 1, lexical: 2 });
    expect(fused[2]!.ranks).toEqual({ semantic: 2 });
    expect(fused[3]!.ranks).toEqual({ lexical: 3 });
  });

  it('breaks equal scores by path, then chunk sequence', () => {
    const x = c(10, 0, 'z.md', 0);
    const y = c(11, 0, 'a.md', 3);
    const z = c(12, 0, 'a.md', 1);
    // Each is rank 0 of one list: all three scores are equal.
    const fused = reciprocalRankFusion([
      { name: 'one', items: [x] },
      { name: 'two', items: [y] },
      { name: 'three', items: [z] },
    ]);
    expect(fused.map((f) => f.chunkId)).toEqual([12, 11, 10]);
    expect(
      compareRanked(
        { score: 1, path: 'a', seq: 0, chunkId: 2 },
        { score: 1, path: 'a', seq: 0, chunkId: 1 },
      ),
    ).toBeGreaterThan(0);
  });

  it('is deterministic: the same lists in the same order give identical output', () => {
    const lists = [
      { name: 'semantic', items: Array.from({ length: 20 }, (_, i) => c(i * 3, 1 - i / 20)) },
      { name: 'lexical', items: Array.from({ length: 20 }, (_, i) => c(i * 2, 20 - i)) },
    ];
    expect(reciprocalRankFusion(lists)).toEqual(reciprocalRankFusion(lists));
  });

  it('counts a chunk a list repeats at its best rank only', () => {
    const fused = reciprocalRankFusion([{ name: 's', items: [A, B, A] }]);
    expect(fused.map((f) => [f.chunkId, f.score])).toEqual([
      [1, 1 / 61],
      [2, 1 / 62],
    ]);
  });
});

describe('weighted RRF and min-max fusion', () => {
  it('scales each list by its weight; weight 0 leaves the other list in charge', () => {
    const lists = [
      { name: 'semantic', items: [A, B] },
      { name: 'lexical', items: [C, D] },
    ];
    expect(
      weightedRrf(lists, { semantic: 0, lexical: 1 })
        .slice(0, 2)
        .map((f) => f.chunkId),
    ).toEqual([3, 4]);
    expect(weightedRrf(lists, { semantic: 2, lexical: 1 })[0]!.score).toBe(2 / 61);
    expect(weightedRrf(lists, {})).toEqual(reciprocalRankFusion(lists));
  });

  it('normalises scores min-max (flat lists map to 1)', () => {
    expect(minMaxNormalise([10, 5, 0])).toEqual([1, 0.5, 0]);
    expect(minMaxNormalise([3, 3])).toEqual([1, 1]);
    expect(minMaxNormalise([])).toEqual([]);
  });

  it('combines normalised scores with weights; a list that missed a chunk adds 0', () => {
    const fused = minMaxFusion(
      [
        { name: 'semantic', items: [c(1, 0.9), c(2, 0.5), c(3, 0.1)] },
        { name: 'lexical', items: [c(3, 30), c(4, 20), c(1, 10)] },
      ],
      { semantic: 1, lexical: 0.5 },
    );
    const byId = Object.fromEntries(fused.map((f) => [f.chunkId, f.score]));
    expect(byId).toEqual({ 1: 1, 2: 0.5, 3: 0.5, 4: 0.25 });
    expect(fused.map((f) => f.chunkId)).toEqual([1, 2, 3, 4]); // 2 and 3 tie: path doc-2 < doc-3
  });
});

describe('adaptive weighting', () => {
  it('measures agreement as the shared share of the top N', () => {
    expect(agreementAt([A, B, C], [C, A, D], 3)).toBeCloseTo(2 / 3);
    expect(agreementAt([A, B], [C, D], 10)).toBe(0);
    expect(agreementAt([], [A], 10)).toBe(0);
  });

  it('measures asymmetric agreement: the top A of one list found in the top B of the other', () => {
    expect(agreementIn([A, B, C, D], [D, C], 2, 10)).toBe(0); // A, B not in [D, C]
    expect(agreementIn([C, D, A], [A, B, C, D], 2, 4)).toBe(1);
    expect(agreementIn([C, D, A], [A, B, C, D], 2, 2)).toBe(0);
    expect(agreementIn([A], [], 5, 10)).toBe(0);
  });

  it('squashes into (0, 1) monotonically with +-*/ only', () => {
    expect(squash(0)).toBe(0.5);
    expect(squash(1)).toBe(0.75);
    expect(squash(-1)).toBe(0.25);
    expect(squash(1e9)).toBeLessThan(1);
    expect(squash(-1e9)).toBeGreaterThan(0);
    expect(squash(2)).toBeGreaterThan(squash(1.9));
  });

  it('reads confidence from the top-hit z-score (scale-free)', () => {
    expect(topZ([1, 1, 1])).toBe(0);
    expect(topZ([5])).toBe(0);
    const peaked = [10, 2, 2, 2, 2, 2, 2, 2];
    expect(topZ(peaked)).toBeCloseTo(topZ(peaked.map((s) => s * 1000 + 7)));
    expect(topZ(peaked)).toBeGreaterThan(topZ([10, 9.5, 9, 8.5, 8, 7.5, 7, 6.5]));
  });

  const flat = Array.from({ length: 20 }, (_, i) => c(100 + i, 0.4 - i * 0.001));
  const peakedLexical = [
    c(1, 30),
    ...Array.from({ length: 19 }, (_, i) => c(200 + i, 8 - i * 0.01)),
  ];

  it('trusts a flat, disagreeing dense list less than a peaked lexical one', () => {
    const { weights, signals } = adaptiveWeights(flat, peakedLexical);
    expect(signals.agreement).toBe(0);
    expect(signals.lexicalConfidence).toBeGreaterThan(signals.semanticConfidence);
    expect(weights.semantic).toBeLessThan(weights.lexical / 2);
  });

  it('gives the dense list more weight when the lists agree', () => {
    const agreeing = [
      ...peakedLexical.slice(0, 10).map((x) => ({ ...x, score: 0.5 })),
      ...flat.slice(0, 10),
    ];
    const apart = adaptiveWeights(flat, peakedLexical).weights.semantic;
    const together = adaptiveWeights(agreeing, peakedLexical).weights.semantic;
    expect(together).toBeGreaterThan(apart);
  });

  it('gates the dense weight by agreement^agreementPower (integer power, no Math.pow)', () => {
    const lexical = Array.from({ length: 10 }, (_, i) => c(i, 10 - i));
    // Shares 5 of the lexical top 10: agreement 0.5.
    const semantic = [...lexical.slice(0, 5), ...Array.from({ length: 5 }, (_, i) => c(90 + i, 1))];
    const base = {
      ...DEFAULT_ADAPTIVE,
      confidenceGain: 0,
      agreementGain: 1,
      agreementDepth: 10,
      agreementLexicalDepth: undefined,
    };
    const linear = adaptiveWeights(semantic, lexical, { ...base, agreementPower: 1 });
    const squared = adaptiveWeights(semantic, lexical, { ...base, agreementPower: 2 });
    expect(linear.signals.agreement).toBe(0.5);
    expect(linear.weights.semantic).toBe(0.5);
    expect(squared.weights.semantic).toBe(0.25);
    expect(squared.weights.lexical).toBe(1);
  });

  it('reduces to the priors when both gains are 0, and a 0 prior switches a list off', () => {
    const params = {
      ...DEFAULT_ADAPTIVE,
      agreementGain: 0,
      confidenceGain: 0,
      prior: { semantic: 0.3, lexical: 1 },
    };
    expect(adaptiveWeights(flat, peakedLexical, params).weights).toEqual({
      semantic: 0.3,
      lexical: 1,
    });
    const off = adaptiveWeights(flat, peakedLexical, {
      ...params,
      prior: { semantic: 0, lexical: 1 },
    });
    expect(off.weights.semantic).toBe(0);
  });

  it('never lets a distrusted dense list reorder the lexical top (regression guard for weak models)', () => {
    const lexical = Array.from({ length: 20 }, (_, i) => c(i, 20 - i));
    const semantic = Array.from({ length: 20 }, (_, i) => c(50 + i, 0.3 - i * 0.0001));
    const { items } = fuseHybrid(semantic, lexical, {
      kind: 'adaptive',
      params: { prior: { semantic: 0.05, lexical: 1 } },
    });
    expect(items.slice(0, 20).map((f) => f.chunkId)).toEqual(lexical.map((x) => x.chunkId));
    expect(items.slice(20).map((f) => f.chunkId)).toEqual(semantic.map((x) => x.chunkId));
  });
});

describe('fuseHybrid', () => {
  const semantic = [A, B, C];
  const lexical = [C, A, D];
  it('defaults to plain RRF', () => {
    const out = fuseHybrid(semantic, lexical);
    expect(out.items.map((f) => f.chunkId)).toEqual([1, 3, 2, 4]);
    expect(out.weights).toEqual({ semantic: 1, lexical: 1 });
    expect(out.signals).toBeNull();
  });
  it('dispatches every method and reports the weights used', () => {
    expect(
      fuseHybrid(semantic, lexical, { kind: 'weighted-rrf', weights: { semantic: 0, lexical: 1 } })
        .items[0]!.chunkId,
    ).toBe(3);
    expect(fuseHybrid(semantic, lexical, { kind: 'minmax' }).weights).toEqual({
      semantic: 1,
      lexical: 1,
    });
    const adaptive = fuseHybrid(semantic, lexical, { kind: 'adaptive', combine: 'minmax' });
    expect(adaptive.signals?.agreement).toBeCloseTo(2 / 3);
    expect(adaptive.items).toHaveLength(4);
  });
});
