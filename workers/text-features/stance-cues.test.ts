import { describe, expect, it } from 'vitest';
import { tokenize } from '../query-plan/text';
import {
  antonymKey,
  antonymsOf,
  contentStems,
  numbers,
  prefixNegation,
  reportCues,
  stem,
  textCues,
} from './stance-cues';
import { CUE_FEATURES, stanceFeatures, textView } from './stance-features';

describe('stance cues', () => {
  it('reads the direction a text asserts, flipped by negation', () => {
    expect(textCues('Aspirin increases the risk of bleeding.').direction).toBe(1);
    expect(textCues('Aspirin reduces the risk of bleeding.').direction).toBe(-1);
    expect(textCues('Aspirin does not increase the risk.').direction).toBe(-1);
    expect(textCues("Aspirin doesn't reduce the risk.").direction).toBe(1);
    expect(textCues('Aspirin is a drug.').direction).toBe(0);
  });

  it('counts negations and null results', () => {
    const c = textCues('There was no significant difference between groups.');
    expect(c.negations).toBe(1);
    expect(c.nullResult).toBeGreaterThan(0);
    expect(textCues('Treatment improved survival.').nullResult).toBe(0);
  });

  it('stems plurals and verb forms to one key and keeps numbers as written', () => {
    expect(stem('increases')).toBe(stem('increased'));
    expect(stem('cells')).toBe('cell');
    expect(contentStems('The cells were increasing')).toEqual(['cell', 'increas']);
    expect(numbers('32% of 1.5 mg and 40mg')).toEqual(['32', '1.5', '40']);
  });
});

describe('stance-features/2 cues', () => {
  const vec = new Int16Array(4);
  const feat = (claim: string, sentence: string) => {
    const x = stanceFeatures(textView(claim, vec), textView(sentence, vec), false);
    return (name: (typeof CUE_FEATURES)[number]) => x[CUE_FEATURES.indexOf(name)];
  };

  it('finds WordNet and polar antonyms, and negating prefixes, across claim and sentence', () => {
    expect(antonymsOf(antonymKey('accurate'))?.has(antonymKey('inaccurate'))).toBe(true);
    expect(antonymKey('overestimates')).toBe(antonymKey('overestimate'));
    const f = feat(
      'HbA1c overestimates glycemic control.',
      'HbA1c may underestimate past glycemia.',
    );
    expect(f('antonym_claim_only')).toBe(1);
    expect(f('antonym_or_prefix')).toBe(1);
    expect(prefixNegation('inaccurate', 'accurate')).toBe(true);
    expect(prefixNegation('accurate', 'accurate')).toBe(false);
    const g = feat('Monitoring is inaccurate.', 'Monitoring is accurate in diagnosis.');
    expect(g('prefix_negation')).toBe(1);
    expect(feat('Monitoring is accurate.', 'Monitoring is accurate.')('antonym_or_prefix')).toBe(0);
  });

  it('compares the direction next to the words the two texts share', () => {
    const claim = 'CDCA treatment decreases brown adipose tissue activity.';
    const contra = feat(claim, 'Treatment with CDCA resulted in increased BAT activity.');
    expect(contra('local_direction_disagree')).toBeGreaterThan(0);
    expect(contra('local_disagree_more')).toBe(1);
    const sup = feat(claim, 'CDCA treatment reduced tissue activity in all subjects.');
    expect(sup('local_direction_agree')).toBeGreaterThan(0);
    expect(sup('local_agree_more')).toBe(1);
    expect(sup('local_direction_disagree')).toBe(0);
    // A negation just before the direction word flips it.
    const neg = feat(claim, 'CDCA did not reduce tissue activity.');
    expect(neg('local_direction_disagree')).toBeGreaterThan(0);
  });

  it('flags shared words negated on one side only', () => {
    const f = feat(
      'CD44v6 is not associated with metastasis.',
      'CD44v6 is associated with metastasis.',
    );
    expect(f('aligned_negation_mismatch')).toBeGreaterThan(0);
    const g = feat(
      'CD44v6 is associated with metastasis.',
      'CD44v6 is associated with metastasis.',
    );
    expect(g('aligned_negation_mismatch')).toBe(0);
  });

  it('reads headings, statistics and background wording of a sentence', () => {
    const r = reportCues(
      'CONCLUSIONS Risk fell by 21% (95% CI 3-36%, P < 0.01).',
      tokenize('CONCLUSIONS Risk fell by 21% (95% CI 3-36%, P < 0.01).'),
    );
    expect([r.resultHeading, r.pValue, r.effectStatistic, r.percent]).toEqual([1, 1, 1, 1]);
    const b = reportCues(
      'BACKGROUND We investigated whether X matters?',
      tokenize('BACKGROUND We investigated whether X matters?'),
    );
    expect([b.backgroundHeading, b.resultHeading, b.backgroundWord, b.question]).toEqual([
      1, 0, 1, 1,
    ]);
    expect(reportCues('Results were mixed.', tokenize('Results were mixed.')).resultHeading).toBe(
      0,
    );
  });
});
