// The time left shown while the library is embedded.
import { describe, expect, it } from 'vitest';
import { formatTimeLeft } from './format';

describe('formatTimeLeft', () => {
  it('rounds to what a person would say', () => {
    expect(formatTimeLeft(12)).toBe('under a minute');
    expect(formatTimeLeft(89)).toBe('about 1 min');
    expect(formatTimeLeft(60 * 42)).toBe('about 42 min');
    expect(formatTimeLeft(3600)).toBe('about 1 h');
    expect(formatTimeLeft(3600 + 20 * 60)).toBe('about 1 h 20 min');
    expect(formatTimeLeft(Number.NaN)).toBe('—');
  });
});
