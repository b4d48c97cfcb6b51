import { describe, expect, it } from 'vitest';
import { globToRegExp } from './glob';

describe('globToRegExp', () => {
  it.each([
    ['*.md', 'a.md', true],
    ['*.md', 'dir/a.md', false],
    ['**/*.md', 'a.md', true],
    ['**/*.md', 'x/y/a.md', true],
    ['docs/**', 'docs/a/b.txt', true],
    ['docs/**', 'other/a.txt', false],
    ['?.txt', 'a.txt', true],
    ['?.txt', 'ab.txt', false],
    ['a+b(1).txt', 'a+b(1).txt', true],
    ['a.txt', 'abtxt', false],
  ])('%s vs %s -> %s', (glob, path, expected) => {
    expect(globToRegExp(glob).test(path)).toBe(expected);
  });
});
