import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../shared/rng.testkit';
import { compileGlob } from './glob';

/** The old compiler, kept as the reference for what a glob means (it backtracks: small inputs only). */
function referenceRegExp(glob: string): RegExp {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i]!;
    if (ch === '*') {
      if (glob[i + 1] === '*') {
        i++;
        if (glob[i + 1] === '/') {
          i++;
          out += '(?:.*/)?';
        } else out += '.*';
      } else out += '[^/]*';
    } else if (ch === '?') out += '[^/]';
    else out += ch.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${out}$`, 'u');
}

describe('compileGlob', () => {
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
    ['**/', 'a/', true],
    ['a/**/b', 'a/b', true],
    ['a/**/b', 'a/x/y/b', true],
    ['a/**/b', 'ab', false],
    ['?', '😀', true],
    ['***.md', 'x/y.md', true],
    ['***/x', 'x', false],
    ['*/**/*', 'a/b', true],
    ['**/**/x', 'x', true],
  ])('%s vs %s -> %s', (glob, path, expected) => {
    expect(compileGlob(glob).test(path)).toBe(expected);
    expect(referenceRegExp(glob).test(path)).toBe(expected);
  });

  it('agrees with the reference on 3,000 random globs over random paths', () => {
    const rnd = mulberry32(29);
    const alphabet = ['a', 'b', '/', '.', '*', '**', '**/', '?', '(', '+'];
    const pathChars = ['a', 'b', '/', '.', '(', '+'];
    const pick = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)]!;
    for (let n = 0; n < 3000; n++) {
      const glob = Array.from({ length: 1 + Math.floor(rnd() * 7) }, () => pick(alphabet)).join('');
      const path = Array.from({ length: Math.floor(rnd() * 9) }, () => pick(pathChars)).join('');
      const want = referenceRegExp(glob).test(path);
      expect(compileGlob(glob).test(path), `${glob} vs ${path}`).toBe(want);
    }
  });

  it('matches `**/` x 25 + `x` over deep paths without backtracking (the reference hangs here)', () => {
    const glob = `${'**/'.repeat(25)}x`;
    const m = compileGlob(glob);
    const deep = Array.from({ length: 10 }, (_, i) => `${'d/'.repeat(20 + i)}y`);
    // The old RegExp took ~60 s on ten such paths; the automaton's steps are bounded, so a
    // hang here shows as vitest's timeout.
    for (const p of deep) expect(m.test(p)).toBe(false);
    expect(m.test(`${'d/'.repeat(30)}x`)).toBe(true);
    expect(compileGlob(`${'*a'.repeat(400)}b`).test('a'.repeat(2000))).toBe(false);
  }, 2000);
});
