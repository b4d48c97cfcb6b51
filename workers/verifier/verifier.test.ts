// The PairVerifier over the real development bundle: input order, the content-hash cache, bad
// input (empty, non-English, longer than the window), a failed load retried; and the bundle
// reader refusing other versions and damaged files with VERIFIER_* codes.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { isAppError } from '../shared/errors';
import { parseVerifierConfig, readVerifierBundle } from './bundle';
import { loadPairModelFolder, VERIFIER_DIR } from './node-bundle';
import type { PairModel } from './pair-model';
import { createPairVerifier, passesOf } from './verifier';

const info = { id: 'sift-verifier-v1', version: 1, maxLength: 256 };
const file = (name: string) => readFileSync(join(VERIFIER_DIR, name));
const codeOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return isAppError(err) ? err.code : String(err);
  }
  return 'no error';
};

describe('createPairVerifier', () => {
  let model: PairModel;
  let passes = 0;
  beforeAll(async () => {
    const m = await loadPairModelFolder();
    model = {
      ...m,
      run: (batch) => {
        passes++;
        return m.run(batch);
      },
    };
  }, 120_000);

  it('judges in input order, reads each distinct pair once, then answers from its cache', async () => {
    const v = createPairVerifier({ info, load: async () => model, yieldToEvents: async () => {} });
    const pairs = [
      { a: 'Smoking causes cancer.', b: 'Smokers had more lung cancer.' },
      { a: 'Smoking causes cancer.', b: 'The museum opens at nine.' },
      { a: 'Smoking causes cancer.', b: 'Smokers had more lung cancer.' },
    ];
    passes = 0;
    const first = await v.judge(pairs);
    expect(passes).toBe(1); // one forward pass for the two distinct pairs
    expect(first[0]).toEqual(first[2]);
    expect(first[0]).not.toEqual(first[1]);
    const alone = model.run([model.encode(pairs[1]!)])[0]!.judgement;
    expect(first[1]).toEqual(alone);
    passes = 0;
    expect(await v.judge([...pairs].reverse())).toEqual([...first].reverse());
    expect(passes).toBe(0);
  });

  it('survives empty, non-English and over-long text, and says when it cut', async () => {
    const v = createPairVerifier({ info, load: async () => model });
    const long = 'Tide gauges and satellites agree that the sea is rising faster. '.repeat(200);
    const out = await v.judge([
      { a: '', b: '' },
      { a: '   \n\t ', b: '\u0000\u200b' },
      { a: 'Климат меняется.', b: '気候は変化している。' },
      { a: '🙂🙂🙂', b: 'ℵ₀ ≠ ∞' },
      { a: 'Is the sea rising?', b: long },
      { a: long, b: 'Yes.' },
    ]);
    for (const j of out) {
      expect(j.stance.support + j.stance.contradict + j.stance.nei).toBeCloseTo(1, 5);
      expect(j.relevance).toBeGreaterThanOrEqual(0);
      expect(j.relevance).toBeLessThanOrEqual(1);
    }
    expect(out.map((j) => j.truncated)).toEqual([false, false, false, false, true, true]);
    const cut = model.encode({ a: 'Is the sea rising?', b: long });
    expect(cut.ids.length).toBe(256);
    expect(model.encode({ a: long, b: 'Yes.' }).typeIds.filter((t) => t === 0).length).toBe(64 + 2);
  });

  it('refuses pairs that are not two strings', async () => {
    const v = createPairVerifier({ info, load: async () => model });
    await expect(v.judge([{ a: 'x', b: 3 as unknown as string }])).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
  });

  it('passes a failed load to its caller and loads again on the next call', async () => {
    let calls = 0;
    const v = createPairVerifier({
      info,
      load: async () => {
        calls++;
        if (calls === 1) throw new Error('network down');
        return model;
      },
    });
    await expect(v.judge([{ a: 'a', b: 'b' }])).rejects.toThrow('network down');
    expect(await v.judge([{ a: 'a', b: 'b' }])).toHaveLength(1);
    expect(calls).toBe(2);
  });

  it('groups pairs into passes of bounded tokens, a longer pair alone', () => {
    const p = (n: number) => ({ ids: Array<number>(n).fill(1), typeIds: [], truncated: false });
    expect(passesOf([p(10), p(10), p(30), p(5)], 25).map((x) => x.length)).toEqual([2, 1, 1]);
  });
});

describe('readVerifierBundle', () => {
  const config = file('config.json').toString('utf8');
  const vocab = file('vocab.txt').toString('utf8');
  const weights = file('model.safetensors');

  it('refuses another version or format, and other heads', () => {
    const c = JSON.parse(config) as Record<string, unknown>;
    expect(codeOf(() => parseVerifierConfig(JSON.stringify({ ...c, version: 2 })))).toBe(
      'VERIFIER_VERSION',
    );
    expect(codeOf(() => parseVerifierConfig(JSON.stringify({ ...c, format: 'bert' })))).toBe(
      'VERIFIER_VERSION',
    );
    const heads = { stance: ['SUPPORT', 'NEI'], relevance: ['relevant'] };
    expect(codeOf(() => parseVerifierConfig(JSON.stringify({ ...c, heads })))).toBe(
      'VERIFIER_VERSION',
    );
    expect(codeOf(() => parseVerifierConfig('{'))).toBe('VERIFIER_CORRUPT');
  });

  it('refuses a truncated weights file, a matrix of another dtype and a foreign vocabulary', () => {
    const cut = weights.subarray(0, weights.length - 1000);
    expect(codeOf(() => readVerifierBundle({ config, vocab, weights: cut }))).toBe(
      'VERIFIER_CORRUPT',
    );
    // A header that declares the word embeddings U8: the same bytes, another dtype.
    const len = Number(weights.readBigUInt64LE(0));
    const header = weights.subarray(8, 8 + len).toString('utf8');
    const changed = header.replace(
      /("embeddings\.word_embeddings\.weight":\{"dtype":)"I8"/,
      '$1"U8"',
    );
    expect(changed).not.toBe(header);
    const bad = Buffer.concat([
      weights.subarray(0, 8),
      Buffer.from(changed),
      weights.subarray(8 + len),
    ]);
    expect(codeOf(() => readVerifierBundle({ config, vocab, weights: bad }))).toBe(
      'VERIFIER_CORRUPT',
    );
    expect(codeOf(() => readVerifierBundle({ config, vocab: 'a\nb\n', weights }))).toBe(
      'VERIFIER_CORRUPT',
    );
  });
});
