// The corrective gate: the expanded retrieval replaces the first only when the fitted rule lets
// it (score rise strictly above minGain, second score at least minScore, never with 'none'), and
// the shipped fits load with a gate the rule can read.
import { describe, expect, it } from 'vitest';
import { correctiveSwitch } from './corrective';
import { loadFittedModel } from './fitted';

describe('correctiveSwitch', () => {
  const rule = { technique: 'rm3' as const, trainGain: 0.01, minGain: 0.2, minScore: 0.3 };

  it('switches only when the score rises by more than minGain', () => {
    expect(correctiveSwitch(rule, 0.1, 0.35)).toBe(true);
    expect(correctiveSwitch(rule, 0.1, 0.3)).toBe(false); // rise 0.2 is not more than 0.2
    expect(correctiveSwitch(rule, 0.25, 0.4)).toBe(false);
  });

  it('switches only when the second score reaches minScore', () => {
    const low = { ...rule, minGain: 0 };
    expect(correctiveSwitch(low, 0.05, 0.29)).toBe(false);
    expect(correctiveSwitch(low, 0.05, 0.3)).toBe(true);
  });

  it('treats a missing gate as any rise, and never switches with technique none', () => {
    expect(correctiveSwitch({ technique: 'wordnet', trainGain: 0 }, 0.1, 0.11)).toBe(true);
    expect(correctiveSwitch({ technique: 'wordnet', trainGain: 0 }, 0.1, 0.1)).toBe(false);
    expect(correctiveSwitch({ technique: 'none', trainGain: 0 }, 0, 1)).toBe(false);
  });

  it('reads the shipped fits: a technique with a gate, or none', async () => {
    for (const id of ['all-MiniLM-L6-v2', 'use-lite', 'unknown-model']) {
      const c = (await loadFittedModel(id)).corrective;
      expect(['rm3', 'wordnet', 'none']).toContain(c.technique);
      if (c.technique !== 'none') expect(c.trainGain).toBeGreaterThanOrEqual(0); // rounded to 4 places
      expect(correctiveSwitch(c, 0, 0)).toBe(false); // no rise never switches
    }
  });
});
