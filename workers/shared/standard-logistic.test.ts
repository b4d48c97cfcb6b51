import { describe, expect, it } from 'vitest';
import { isAppError } from './errors';
import { standardProbability, standardValues } from './standard-logistic';

const model = { features: ['a', 'b'], weights: [2, -1], bias: 0.5, mean: [1, 3], scale: [2, 1] };

describe('standard logistic scorer', () => {
  it('standardises each feature by the training mean and scale', () => {
    // z = 0.5 + 2 (3 - 1) / 2 - 1 (5 - 3) / 1 = 0.5
    expect(standardProbability(model, { a: 3, b: 5 })).toBeCloseTo(1 / (1 + Math.exp(-0.5)), 12);
  });

  it('counts a non-finite value as the training mean', () => {
    expect(standardValues(model, { a: Number.NaN, b: Infinity })).toEqual([1, 3]);
  });

  it('counts an absent optional feature as the training mean', () => {
    expect(standardValues(model, { a: 7 }, new Set(['b']))).toEqual([7, 3]);
  });

  it('refuses a feature the code did not compute, naming it', () => {
    let caught: unknown;
    try {
      standardProbability(model, { a: 7 });
    } catch (e) {
      caught = e;
    }
    expect(isAppError(caught) && caught.code).toBe('FITTED_MISMATCH');
    expect(String((caught as Error).message) + JSON.stringify(caught)).toContain('"b"');
  });
});
