import { describe, expect, it } from 'vitest';
import { createScriptedGenerator } from '../llm/scripted';
import { createHyde, HYDE_INSTRUCTION } from './hyde';
import { bowVector, createBowEmbed, manualClock } from './doubles.testkit';
import type { LlmDep } from './types';
import { averageUnit, cosine } from './vectors';

const Q = 'How does aspirin reduce heart attack risk?';
function llmOf(g: ReturnType<typeof createScriptedGenerator>): LlmDep {
  return { kind: 'scripted', generate: (r, o) => g.generate(r, o) };
}

describe('HyDE', () => {
  it('HYDE-001: generates a non-empty hypothetical document with the spec instruction, T = 0.7, 256 tokens', async () => {
    const g = createScriptedGenerator();
    const hyde = createHyde({ llm: llmOf(g), embed: createBowEmbed(), clock: manualClock() });
    const out = await hyde.expand(Q);
    expect(out.source).toBe('hyde');
    expect(out.documents).toHaveLength(1);
    expect(out.documents[0]?.length).toBeGreaterThan(20);
    expect(out.documents[0]).toContain('aspirin');
    expect(g.calls[0]).toMatchObject({
      messages: [{ role: 'user', content: `${HYDE_INSTRUCTION}\n\nQuestion: ${Q}` }],
      temperature: 0.7,
      maxTokens: 256,
    });
  });

  it('HYDE-002: embeds the document, not the query; cosine with the raw query embedding < 0.95', async () => {
    const embedded: string[][] = [];
    const hyde = createHyde({
      llm: llmOf(createScriptedGenerator()),
      embed: createBowEmbed(embedded),
      clock: manualClock(),
    });
    const out = await hyde.expand(Q);
    expect(embedded).toEqual([out.documents]);
    expect(cosine(out.vector, bowVector(Q))).toBeLessThan(0.95);
  });

  it('HYDE-004: zero-shot: needs only a generator and an encoder, no labelled data', async () => {
    const hyde = createHyde({
      llm: llmOf(createScriptedGenerator()),
      embed: createBowEmbed(),
      clock: manualClock(),
    });
    const out = await hyde.expand('a query never seen before about tardigrade cryptobiosis');
    expect(out.source).toBe('hyde');
    expect(out.vector.length).toBeGreaterThan(0);
  });

  it('averages N samples with the query vector, re-normalised to int16 unit length', async () => {
    const embedded: string[][] = [];
    const g = createScriptedGenerator();
    const hyde = createHyde({
      llm: llmOf(g),
      embed: createBowEmbed(embedded),
      clock: manualClock(),
    });
    const out = await hyde.expand(Q, { samples: 3, includeQuery: true });
    expect(g.calls).toHaveLength(3);
    expect(out.documents).toHaveLength(3);
    expect(embedded[0]).toEqual([...out.documents, Q]);
    const expected = averageUnit([...out.documents, Q].map(bowVector));
    expect(Array.from(out.vector)).toEqual(Array.from(expected));
    const norm = Math.sqrt(out.vector.reduce((s, x) => s + x * x, 0));
    expect(Math.abs(norm - 32767)).toBeLessThan(64);
    expect(out.vector.every((x) => x >= -32767 && x <= 32767)).toBe(true);
  });

  it.each([
    ['no backend', null, 'NO_BACKEND'],
    [
      'an error',
      {
        kind: 'scripted',
        generate: createScriptedGenerator({
          rules: [{ match: 'Question', fail: 'PROVIDER_ERROR' }],
        }).generate,
      },
      'PROVIDER_ERROR',
    ],
    [
      'a timeout',
      {
        kind: 'scripted',
        generate: createScriptedGenerator({ rules: [{ match: 'Question', hang: true }] }).generate,
      },
      'TIMEOUT',
    ],
    [
      'an empty answer',
      {
        kind: 'scripted',
        generate: createScriptedGenerator({ rules: [{ match: 'Question', reply: '   ' }] })
          .generate,
      },
      'EMPTY',
    ],
  ] as Array<[string, LlmDep | null, string]>)(
    'falls back to the raw query embedding on %s',
    async (_name, llm, code) => {
      const embedded: string[][] = [];
      const hyde = createHyde({ llm, embed: createBowEmbed(embedded), clock: manualClock() });
      const out = await hyde.expand(Q, { timeoutMs: 5 });
      expect(out).toMatchObject({ source: 'fallback', fallbackCode: code, documents: [] });
      expect(embedded).toEqual([[Q]]);
      expect(Array.from(out.vector)).toEqual(Array.from(bowVector(Q)));
    },
  );

  it('keeps the successful samples when some fail', async () => {
    let n = 0;
    const g = createScriptedGenerator({
      rules: [
        {
          match: 'Question',
          reply: () => (n++ === 1 ? ' ' : 'Aspirin blocks thromboxane in platelets.'),
        },
      ],
    });
    const out = await createHyde({
      llm: llmOf(g),
      embed: createBowEmbed(),
      clock: manualClock(),
    }).expand(Q, { samples: 3 });
    expect(out.source).toBe('hyde');
    expect(out.documents).toHaveLength(2);
  });

  it('rethrows a cancellation of the whole plan as ABORTED', async () => {
    const g = createScriptedGenerator({ rules: [{ match: 'Question', hang: true }] });
    const ctrl = new AbortController();
    const p = createHyde({ llm: llmOf(g), embed: createBowEmbed(), clock: manualClock() }).expand(
      Q,
      {},
      ctrl.signal,
    );
    ctrl.abort();
    await expect(p).rejects.toMatchObject({ code: 'ABORTED' });
  });

  it('caches hyde:{query_hash} for one hour (injected clock), not fallbacks', async () => {
    const clock = manualClock();
    const g = createScriptedGenerator();
    const hyde = createHyde({ llm: llmOf(g), embed: createBowEmbed(), clock });
    const a = await hyde.expand(Q);
    expect(a.cacheKey).toMatch(/^hyde:[0-9a-f]{16}$/);
    const b = await hyde.expand(`  ${Q.toUpperCase()} `);
    expect(b.source).toBe('cache');
    expect(g.calls).toHaveLength(1);
    clock.advance(3600 * 1000 - 1);
    expect((await hyde.expand(Q)).source).toBe('cache');
    clock.advance(1);
    expect((await hyde.expand(Q)).source).toBe('hyde');
    expect(g.calls).toHaveLength(2);
    const none = createHyde({ llm: null, embed: createBowEmbed(), clock });
    await none.expand('other');
    expect((await none.expand('other')).source).toBe('fallback');
  });
});
