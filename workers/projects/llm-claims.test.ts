// LLM-assisted claim extraction with the scripted generator: restated claims, fallbacks per
// group, cancellation.
import { describe, expect, it } from 'vitest';
import { createScriptedGenerator } from '../llm/scripted';
import { extractClaimsWithLlm, parseClaimLines, SENTENCES_PER_REQUEST } from './llm-claims';

const DRAFT = [
  '# Findings',
  'Smoking raises lung cancer risk and it shortens life expectancy [1].',
  'Is green tea good for bones?',
  'Green tea did not increase bone density in older women [2].',
].join('\n');

describe('extractClaimsWithLlm', () => {
  it("restates the split sentences as the model's one-claim lines", async () => {
    const llm = createScriptedGenerator({
      rules: [
        {
          match: 'List the factual claims',
          reply: [
            '1. Smoking raises lung cancer risk.',
            '2. Smoking shortens life expectancy.',
            '- Green tea did not increase bone density in older women.',
            'Really?',
          ].join('\n'),
        },
      ],
    });
    const r = await extractClaimsWithLlm((req, o) => llm.generate(req, o), DRAFT);
    expect(r).toEqual({
      method: 'llm',
      failedGroups: 0,
      claims: [
        'Smoking raises lung cancer risk.',
        'Smoking shortens life expectancy.',
        'Green tea did not increase bone density in older women.',
      ],
    });
    // The model saw the sentences without markers, headings or questions.
    expect(llm.calls).toHaveLength(1);
    expect(llm.calls[0]!.prompt).toContain(
      'Smoking raises lung cancer risk and it shortens life expectancy.\n',
    );
    expect(llm.calls[0]!.prompt).not.toMatch(/\[1\]|# Findings|good for bones/);
  });

  it('keeps the split sentences of a group the model fails on or answers with nothing usable', async () => {
    const many = Array.from(
      { length: SENTENCES_PER_REQUEST + 2 },
      (_, i) => `Claim number ${i} states a fact.`,
    ).join(' ');
    let call = 0;
    const llm = createScriptedGenerator({
      rules: [{ match: 'List the factual claims', reply: () => (call++ === 0 ? 'ok' : 'x') }],
    });
    const r = await extractClaimsWithLlm((req, o) => llm.generate(req, o), many);
    expect(r.method).toBe('sentences');
    expect(r.failedGroups).toBe(2);
    expect(r.claims).toHaveLength(SENTENCES_PER_REQUEST + 2);
    const failing = createScriptedGenerator({
      rules: [{ match: 'List the factual claims', fail: 'PROVIDER_ERROR' }],
    });
    const f = await extractClaimsWithLlm((req, o) => failing.generate(req, o), DRAFT);
    expect(f).toMatchObject({ method: 'sentences', failedGroups: 1 });
    expect(f.claims).toEqual([
      'Smoking raises lung cancer risk and it shortens life expectancy.',
      'Green tea did not increase bone density in older women.',
    ]);
  });

  it('stops with ABORTED when cancelled', async () => {
    const llm = createScriptedGenerator({
      rules: [{ match: 'List the factual claims', hang: true }],
    });
    const controller = new AbortController();
    const p = extractClaimsWithLlm((req, o) => llm.generate(req, o), DRAFT, {
      signal: controller.signal,
    });
    controller.abort();
    await expect(p).rejects.toMatchObject({ code: 'ABORTED' });
  });

  it('reads one claim per line without list markers', () => {
    expect(parseClaimLines('* A b c d.\nClaim 2: E f g h.\n\n3) short\n')).toEqual([
      'A b c d.',
      'E f g h.',
    ]);
  });
});
