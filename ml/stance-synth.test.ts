import { describe, expect, it } from 'vitest';
import { fitNetwork } from './stance-train';
import { flippedClaims, swapPolarWord, toggleNegation } from './stance-synth';

describe('synthetic flipped claims (SciFact-style negation and polar swaps)', () => {
  it('removes an existing negation, else inserts one', () => {
    expect(toggleNegation('CD44v6 is not associated with cancer stem cells.')).toBe(
      'CD44v6 is associated with cancer stem cells.',
    );
    expect(toggleNegation('ART has no effect on infectiveness.')).toBe(
      'ART has an effect on infectiveness.',
    );
    expect(toggleNegation('Cells cannot divide.')).toBe('Cells can divide.');
    expect(toggleNegation('Amitriptyline is an effective treatment.')).toBe(
      'Amitriptyline is not an effective treatment.',
    );
    expect(toggleNegation('Activation of PPM1D enhances p53 function.')).toBe(
      'Activation of PPM1D does not enhance p53 function.',
    );
    expect(toggleNegation('BLM gene encodes helicase.')).toBeNull();
  });

  it('swaps a direction word first, keeps capitals, and never a word inside a hyphenated name', () => {
    expect(swapPolarWord('Antidepressants increase the severity of migraines.')).toBe(
      'Antidepressants decrease the severity of migraines.',
    );
    expect(swapPolarWord('Exercise reduces cancer mortality.')).toBe(
      'Exercise increases cancer mortality.',
    );
    // The first direction word in text order, even in the subject (a SciFact-style alteration too).
    expect(swapPolarWord('Activated Cdk5 reduces death.')).toBe('Inhibited Cdk5 reduces death.');
    expect(swapPolarWord('Higher doses work.')).toBe('Lower doses work.');
    expect(swapPolarWord('An M2-like phenotype is seen.')).toBeNull();
    expect(swapPolarWord('Ambulatory monitoring is inaccurate at diagnosis.')).toBe(
      'Ambulatory monitoring is accurate at diagnosis.',
    );
  });

  it('gives distinct variants, none equal to the claim', () => {
    const claim = 'Bariatric surgery reduces colorectal cancer.';
    const f = flippedClaims(claim);
    expect(f).toEqual([
      'Bariatric surgery does not reduce colorectal cancer.',
      'Bariatric surgery increases colorectal cancer.',
    ]);
    expect(flippedClaims('Zebrafish fins regrow.')).toEqual([]);
  });
});

describe('fitNetwork sample weights', () => {
  const X = [0, 1, 2, 3].map((v) => Float64Array.from([v - 1.5]));
  const y = [0, 0, 1, 1];
  const opt = { l2: 0.01, hidden: 0, epochs: 200, learningRate: 0.05, seed: 1 };

  it('weights of 1 are the unweighted fit; a zero weight drops the row', () => {
    const plain = fitNetwork(X, y, 2, opt);
    expect(fitNetwork(X, y, 2, opt, [1, 1, 1, 1])[0]!.w).toEqual(plain[0]!.w);
    const dropped = fitNetwork([...X, Float64Array.from([5])], [...y, 0], 2, opt, [1, 1, 1, 1, 0]);
    expect(Array.from(dropped[0]!.w)).toEqual(
      Array.from(fitNetwork(X, y, 2, opt, [1, 1, 1, 1])[0]!.w),
    );
  });
});
