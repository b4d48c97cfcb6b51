// The promise memo: one read per key (in flight too), least recently used dropped, failures
// forgotten, clear() forgetting all.
import { describe, expect, it } from 'vitest';
import { createPromiseMemo } from './promise-memo';

describe('createPromiseMemo', () => {
  it('reads a key once for calls made together or later, and drops the least recently used', async () => {
    const reads: string[] = [];
    const memo = createPromiseMemo<string, string>(2);
    const read = (k: string) => () => (reads.push(k), Promise.resolve(k.toUpperCase()));
    expect(await Promise.all([memo('a', read('a')), memo('a', read('a'))])).toEqual(['A', 'A']);
    await memo('b', read('b'));
    await memo('a', read('a')); // 'a' used last: 'b' is now the least recently used
    await memo('c', read('c'));
    await memo('a', read('a'));
    await memo('b', read('b'));
    expect(reads).toEqual(['a', 'b', 'c', 'b']);
  });

  it('forgets a failed read, but not a newer one of the same key', async () => {
    const memo = createPromiseMemo<string, number>(1);
    let fail!: (e: Error) => void;
    const failing = memo('k', () => new Promise<number>((_, reject) => (fail = reject)));
    await memo('other', async () => 0); // 'k' dropped while its read is in flight
    const newer = memo('k', async () => 2);
    fail(new Error('gone'));
    await expect(failing).rejects.toThrow('gone');
    let reads = 0;
    expect(await memo('k', async () => (reads++, 3))).toBe(2);
    expect(reads).toBe(0);
    await newer;
    await expect(memo('x', () => Promise.reject(new Error('no')))).rejects.toThrow('no');
    expect(await memo('x', async () => 4)).toBe(4);
    memo.clear();
    expect(await memo('x', async () => 5)).toBe(5);
  });
});
