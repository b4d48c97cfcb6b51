import { describe, expect, it } from 'vitest';
import { DEFAULT_TECHNIQUES } from './research-api';
import {
  supportedByEvidence,
  techniqueReason,
  TECHNIQUE_EVIDENCE,
  type TechniqueMeasurement,
} from './technique-evidence';

const row = (patch: Partial<TechniqueMeasurement>): TechniqueMeasurement => ({
  technique: 'hyde',
  base: 'hybrid',
  embedding: 'USE-lite',
  generator: 'SmolLM2-135M-Instruct',
  split: 'train',
  queries: 809,
  deltaNdcg10: 0.01,
  better: 10,
  worse: 2,
  p: 0.01,
  source: 'test',
  ...patch,
});

describe('technique defaults chosen by measurement', () => {
  it('no technique measured with the offline models beats plain search on train: all off', () => {
    expect(DEFAULT_TECHNIQUES).toEqual({
      routing: true,
      llmRouting: false,
      rewrite: false,
      hyde: false,
      fusion: false,
      rm3: false,
      wordnet: false,
      keyphrases: false,
    });
  });

  it('only a train gain switches a technique on; test figures never do; routes are separate', () => {
    expect(supportedByEvidence('hyde', undefined, [row({})])).toBe(true);
    expect(supportedByEvidence('hyde', undefined, [row({ split: 'test' })])).toBe(false);
    expect(supportedByEvidence('hyde', undefined, [row({}), row({ deltaNdcg10: -0.01 })])).toBe(
      false,
    );
    expect(supportedByEvidence('hyde', undefined, [row({ deltaNdcg10: 0 })])).toBe(false);
    const moderate = [row({ route: 'moderate' })];
    expect(supportedByEvidence('hyde', 'moderate', moderate)).toBe(true);
    expect(supportedByEvidence('hyde', 'complex', moderate)).toBe(false);
    expect(supportedByEvidence('hyde', undefined, moderate)).toBe(false);
  });

  it('says why each technique is off, with the figure, the split and the models', () => {
    expect(techniqueReason('fusion')).toBe(
      'Off by default: measured −0.098 nDCG@10 against plain hybrid search on scientific claims (SciFact test, 300 claims, USE-lite, SmolLM2-135M-Instruct; scored before the eval used fused scores; to be re-run).',
    );
    // RM3: +0.001 (not significant) on MiniLM hybrid, −0.003 on lexical: not a gain on every base.
    expect(techniqueReason('rm3')).toMatch(
      /^Off by default: measured \+0\.001 nDCG@10 against plain hybrid search .*SciFact train, 809 claims, all-MiniLM-L6-v2, not significant; not a gain on every search measured\)\.$/,
    );
    expect(techniqueReason('hyde')).toMatch(/measured \+0\.005 .* not significant/);
    expect(techniqueReason('routing')).toMatch(/^On:/);
    for (const m of TECHNIQUE_EVIDENCE) expect(m.source.length).toBeGreaterThan(0);
  });
});
