// The semantic index's query memo: a text embedded once per index, each caller with its own copy.
import { describe, expect, it } from 'vitest';
import { memoQueries } from './semantic-index';

describe('memoQueries', () => {
  it('embeds a text once for calls made together or later, each caller with its own copy', async () => {
    let calls = 0;
    const embed = memoQueries(async (t) => {
      calls++;
      return Int16Array.from([t.length, 7]);
    }, 2);
    const [a, b] = await Promise.all([embed('claim'), embed('claim')]);
    expect(calls).toBe(1);
    expect([...a]).toEqual([5, 7]);
    a[0] = 99;
    expect([...(await embed('claim'))]).toEqual([5, 7]);
    expect(b).not.toBe(a);
    expect(calls).toBe(1);
    await embed('x');
    await embed('yy'); // the memo holds two: 'claim' is the oldest and goes
    await embed('claim');
    expect(calls).toBe(4);
  });

  it('does not keep a failed embedding', async () => {
    let fail = true;
    const embed = memoQueries(async () => {
      if (fail) throw new Error('worker died');
      return Int16Array.from([1]);
    });
    await expect(embed('q')).rejects.toThrow('worker died');
    fail = false;
    expect([...(await embed('q'))]).toEqual([1]);
  });
});
