// The stance model fitted on all-MiniLM-L6-v2 vectors (workers/fitted/stance-all-MiniLM-L6-v2.json, from
// ml/stance-fit.ts on SciFact claims_train only) on the real MiniLM weights (skipped
// without them): the file matches the runtime, its weights are int16, and a clear supporting,
// contradicting and off-topic sentence get the expected ordering of probabilities.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createNodeKernel, loadBertFolder, MINILM_DIR } from '../embed/node-kernel';
import { haveRealWeights } from '../embed/real-weights.testkit';
import { isAppError } from '../shared/errors';
import { auditScore } from './audit';
import { textView } from '../text-features/stance-features';
import { combineStances, createStanceModel, type FittedStanceModel } from './stance-model';

const fitted = JSON.parse(
  readFileSync(new URL('../fitted/stance-all-MiniLM-L6-v2.json', import.meta.url), 'utf8'),
) as FittedStanceModel;

const CLAIM = 'Vitamin D supplementation lowers the risk of hip fracture.';
const SUPPORTS =
  'Vitamin D supplementation reduced the risk of hip fracture by 30% compared with placebo.';
const CONTRADICTS =
  'Vitamin D supplementation did not reduce the risk of hip fracture; fractures increased.';
const OFF_TOPIC = 'The bridge was opened in 1932 and its steel arch spans 503 metres.';

describe('MiniLM stance model file', () => {
  it('was fitted on train claims only, with int16 weights', () => {
    expect(String(fitted.provenance.fittedOn)).toMatch(/claims_train/);
    expect(fitted.dim).toBe(384);
    for (const layer of fitted.layers) {
      expect(layer.weights.length).toBe(layer.inputs * layer.outputs);
      for (const w of layer.weights) {
        expect(Number.isInteger(w)).toBe(true);
        expect(Math.abs(w)).toBeLessThanOrEqual(32767);
      }
    }
  });

  it('is refused when fitted on another feature version, naming the refit step', () => {
    const old = { ...fitted, features: 'stance-features/1' };
    let err: unknown;
    try {
      createStanceModel(old, 384);
    } catch (e) {
      err = e;
    }
    expect(isAppError(err) && err.code).toBe('FITTED_MISMATCH');
    expect((err as Error).message).toMatch(/npm run fit -- stance/);
  });

  it("carries a train-fitted audit calibration that reproduces the script's probabilities", () => {
    expect(fitted.audit).toBeDefined();
    expect(fitted.auditCheck?.length).toBe(3);
    for (const { x, p } of fitted.auditCheck!)
      expect(auditScore(fitted.audit!, x)).toBeCloseTo(p, 12);
  });

  it.skipIf(!haveRealWeights())(
    'orders support, contradiction and off-topic text on the real model, deterministically',
    async () => {
      const bert = loadBertFolder(await createNodeKernel(), MINILM_DIR);
      const model = createStanceModel(fitted, bert.dim);
      const claim = textView(CLAIM, bert.embedInt16(bert.queryPrefix + CLAIM));
      const view = (t: string) => textView(t, bert.embedInt16(bert.passagePrefix + t));
      const sup = model.probs(claim, view(SUPPORTS));
      const con = model.probs(claim, view(CONTRADICTS));
      const off = model.probs(claim, view(OFF_TOPIC));
      expect(model.probs(claim, view(SUPPORTS))).toEqual(sup);
      expect(sup[0]).toBeGreaterThan(sup[1]);
      expect(con[1]).toBeGreaterThan(sup[1]);
      expect(off[2]).toBeGreaterThan(sup[2]);
      expect(off[2]).toBeGreaterThan(con[2]);
      expect(combineStances([model.logProbs(claim, view(OFF_TOPIC))])).toBe('NEUTRAL');
    },
  );
});
