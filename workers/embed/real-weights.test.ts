import { describe, expect, it } from 'vitest';
import { haveRealWeights, inCi, MINILM_WEIGHTS } from './real-weights.testkit';

describe('real-weight tests', () => {
  const missing = `${MINILM_WEIGHTS}.missing`;

  it('skip without the weights on a developer machine', () => {
    expect(haveRealWeights(missing, false)).toBe(false);
  });

  it('fail without the weights in CI, naming the command that fetches them', () => {
    expect(() => haveRealWeights(missing, true)).toThrow(/npm run copy-model -- --fetch-minilm/);
  });

  it('read CI from the environment', () => {
    expect(inCi({ CI: 'true' })).toBe(true);
    expect(inCi({ CI: '1' })).toBe(true);
    expect(inCi({ CI: 'false' })).toBe(false);
    expect(inCi({ CI: '0' })).toBe(false);
    expect(inCi({})).toBe(false);
  });
});
