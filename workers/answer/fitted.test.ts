// The shipped evaluator files load, and a copy reading a feature the code does not compute is
// refused by the loader (FITTED_MISMATCH naming the refit step), as are its strip and checker.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createSentenceChecker } from './checker';
import { checkedFit, loadFittedModel, type FittedModel } from './fitted';
import { refine } from './refine';

const shipped = (name: string) =>
  JSON.parse(
    readFileSync(new URL(`../fitted/evaluator-${name}.json`, import.meta.url), 'utf8'),
  ) as FittedModel;

describe('fitted evaluator files', () => {
  it('load for both shipped models', async () => {
    for (const id of ['all-MiniLM-L6-v2', 'use-lite'])
      expect((await loadFittedModel(id)).passage.features.length).toBeGreaterThan(20);
  });

  it('are refused when a passage model reads a feature the code does not compute', () => {
    const fit = shipped('use-lite');
    fit.passage.features = [...fit.passage.features.slice(0, -1), 'cosV2'];
    expect(() => checkedFit(fit, 'workers/fitted/evaluator-use-lite.json')).toThrow(
      /use-lite\.json was fitted on features the code does not compute \(cosV2\): refit it with `npm run fit -- evaluator`/,
    );
    const lexical = shipped('use-lite');
    lexical.noVectors!.query!.features[0] = 'cos'; // a vector feature in the vector-free variant
    expect(() => checkedFit(lexical, 'workers/fitted/evaluator-use-lite.json')).toThrow(/\(cos\)/);
  });

  it('refuse a strip model the code cannot score', () => {
    const fit = shipped('all-MiniLM-L6-v2');
    fit.strip = { ...fit.strip, features: [...fit.strip.features, 'stripV2'] };
    expect(() => refine({} as never, [], [], fit)).toThrow(
      /\(stripV2\): refit it with `npm run fit -- evaluator`/,
    );
  });

  it("refuse the evaluator's own checker entry when it reads an unknown feature", () => {
    const fit = { ...shipped('all-MiniLM-L6-v2'), modelId: 'some-other-model' };
    fit.checker = { ...fit.checker, features: [...fit.checker.features, 'covV2'] };
    const deps = { stats: {} as never, embed: (() => Promise.resolve([])) as never };
    expect(() => createSentenceChecker(deps, fit)).toThrow(/npm run fit -- evaluator/);
  });
});
