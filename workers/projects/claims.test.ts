import { describe, expect, it } from 'vitest';
import { extractClaims } from './claims';

describe('extractClaims', () => {
  it('keeps statements, drops headings, questions and fragments, and reads citation markers', () => {
    const draft = [
      '# Findings',
      'Vitamin D lowers the risk of hip fracture [1][3]. Does it help everyone?',
      '- Aspirin reduces mortality after a heart attack [2].',
      'See below:',
      'Yes.',
    ].join('\n');
    const claims = extractClaims(draft);
    expect(claims.map((c) => [c.text, c.citations])).toEqual([
      ['Vitamin D lowers the risk of hip fracture.', ['1', '3']],
      ['Aspirin reduces mortality after a heart attack.', ['2']],
    ]);
    expect(draft.slice(claims[0]!.start, claims[0]!.end)).toContain('Vitamin D lowers');
  });

  it('gives markers written after the full stop to the sentence before', () => {
    const claims = extractClaims(
      'Smoking raises lung cancer risk. [1] [2] Green tea is drunk widely. [3]',
    );
    expect(claims.map((c) => [c.text, c.citations])).toEqual([
      ['Smoking raises lung cancer risk.', ['1', '2']],
      ['Green tea is drunk widely.', ['3']],
    ]);
  });

  it('caps a huge paste', () => {
    const draft = Array.from({ length: 600 }, (_, i) => `Claim number ${i} is stated here.`).join(
      ' ',
    );
    expect(extractClaims(draft)).toHaveLength(500);
    expect(extractClaims(draft, 10)).toHaveLength(10);
    expect(extractClaims('')).toEqual([]);
  });
});
