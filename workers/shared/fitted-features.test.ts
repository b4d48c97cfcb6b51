// The loader check: a fitted model reading a feature the code does not compute is refused.
import { describe, expect, it } from 'vitest';
import { isAppError } from './errors';
import { assertFittedFeatures } from './fitted-features';

const refusal = (f: () => void) => {
  try {
    f();
  } catch (err) {
    return err;
  }
  throw new Error('not refused');
};

describe('assertFittedFeatures', () => {
  it('accepts a model whose features the code computes, in any subset and order', () => {
    expect(() =>
      assertFittedFeatures({ features: ['b', 'a'] }, ['a', 'b', 'c'], 'f.json', 's'),
    ).not.toThrow();
  });

  it('refuses an unknown feature with FITTED_MISMATCH naming the file and the refit step', () => {
    const err = refusal(() =>
      assertFittedFeatures({ features: ['a', 'z'] }, ['a', 'b'], 'x/f.json', 'gate'),
    );
    expect(isAppError(err) && err.code).toBe('FITTED_MISMATCH');
    expect((err as Error).message).toMatch(
      /^x\/f\.json was fitted on features the code does not compute \(z\): refit it with `npm run fit -- gate`/,
    );
  });

  it('refuses a feature listed twice', () => {
    const err = refusal(() => assertFittedFeatures({ features: ['a', 'a'] }, ['a'], 'f.json', 's'));
    expect((err as Error).message).toMatch(/a feature twice \(a\)/);
  });
});
