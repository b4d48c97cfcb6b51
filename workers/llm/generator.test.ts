import { describe, expect, it } from 'vitest';
import { createError, isAppError } from '../shared/errors';
import { MAX_REPLY_CHARS } from '../shared/llm-api';
import { createGenerator, withTimeout, type StreamingBackend } from './generator';
import { createScriptedGenerator } from './scripted';

function fromPieces(list: string[]): StreamingBackend {
  return {
    kind: 'scripted',
    async *stream() {
      for (const p of list) {
        await Promise.resolve();
        yield p;
      }
    },
  };
}

describe('generator wrapper', () => {
  it('cuts at a stop string split across pieces and never streams its prefix', async () => {
    const g = createGenerator(fromPieces(['Hello', ' wor', 'ld\n', '\nNext', ' part']));
    const streamed: string[] = [];
    const r = await g.generate(
      { prompt: 'x', stop: ['\n\n'] },
      { onToken: (p) => streamed.push(p) },
    );
    expect(r.text).toBe('Hello world');
    expect(r.finishReason).toBe('stop');
    expect(streamed.join('')).toBe('Hello world');
  });

  it('cuts a reply at its character budget and says so (finishReason cut)', async () => {
    const g = createGenerator(fromPieces(['abcd', 'efgh', 'ijkl', 'mnop']), 10);
    const streamed: string[] = [];
    const r = await g.generate({ prompt: 'x' }, { onToken: (p) => streamed.push(p) });
    expect(r).toMatchObject({ text: 'abcdefghij', finishReason: 'cut', tokens: 3 });
    expect(streamed.join('')).toBe('abcdefghij');
  });

  it('cuts at the default 200 KB however large the pieces', async () => {
    const g = createGenerator(fromPieces(['x'.repeat(150_000), 'y'.repeat(16 << 20), 'z']));
    const r = await g.generate({ prompt: 'x', stop: ['STOP'] });
    expect(r.finishReason).toBe('cut');
    expect(r.text.length).toBe(MAX_REPLY_CHARS);
  });

  it("ends a reply as cut, keeping what came before, when the backend's event is too large", async () => {
    const g = createGenerator({
      kind: 'http',
      async *stream() {
        yield 'kept';
        throw createError('REPLY_TOO_LARGE', { reason: 'one event of more than 2048 KB' });
      },
    });
    const r = await g.generate({ prompt: 'x' });
    expect(r).toMatchObject({ text: 'kept', finishReason: 'cut' });
  });

  it('finds a stop string split across 40,000 one-character pieces in linear time', async () => {
    const body = 'ab'.repeat(20_000);
    const g = createGenerator(fromPieces([...body, '\n', '\n', 'E', 'N', 'D', 'tail']));
    const t0 = performance.now();
    const r = await g.generate({ prompt: 'x', stop: ['\n\nEND', 'abba'], maxTokens: 300_000 });
    expect(r).toMatchObject({ text: body, finishReason: 'stop' });
    // Searching the whole reply per piece is ~1e9 character steps here (seconds); the tail
    // search is ~1e6. The bound is loose on purpose.
    expect(performance.now() - t0).toBeLessThan(2000);
  });

  it('stops at maxTokens with finishReason length', async () => {
    const g = createGenerator(fromPieces(['a', ' b', ' c', ' d']));
    const r = await g.generate({ prompt: 'x', maxTokens: 2 });
    expect(r).toMatchObject({ text: 'a b', finishReason: 'length', tokens: 2 });
  });

  it('rejects an empty prompt and bad sampling values', async () => {
    const g = createGenerator(fromPieces(['a']));
    await expect(g.generate({ prompt: '  ' })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(g.generate({ prompt: 'x', temperature: 5 })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    await expect(g.generate({ prompt: 'x', maxTokens: 0 })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
  });

  it('throws ABORTED with the partial text when aborted mid-stream', async () => {
    const ctrl = new AbortController();
    const g = createScriptedGenerator({
      rules: [{ match: 'x', reply: 'one two three four five six' }],
    });
    const err = await g
      .generate(
        { prompt: 'x' },
        { signal: ctrl.signal, onToken: (p) => p.includes('two') && ctrl.abort() },
      )
      .catch((e: unknown) => e);
    expect(isAppError(err) && err.code).toBe('ABORTED');
    expect(isAppError(err) && err.details.partialText).toBe('one two');
  });

  it('stream() yields the same text as generate() and cancels when the consumer breaks', async () => {
    const g = createScriptedGenerator({ rules: [{ match: 'x', reply: 'alpha beta gamma delta' }] });
    let all = '';
    for await (const p of g.stream({ prompt: 'x' })) all += p;
    expect(all).toBe('alpha beta gamma delta');
    const seen: string[] = [];
    for await (const p of g.stream({ prompt: 'x' })) {
      seen.push(p);
      if (seen.length === 2) break;
    }
    expect(seen).toEqual(['alpha', ' beta']);
  });

  it('withTimeout aborts a hanging generation with TIMEOUT', async () => {
    const g = createScriptedGenerator({ rules: [{ match: 'x', hang: true }] });
    const err = await withTimeout(5, undefined, (signal) =>
      g.generate({ prompt: 'x' }, { signal }),
    ).catch((e: unknown) => e);
    expect(isAppError(err) && err.code).toBe('TIMEOUT');
  });

  it('surfaces scripted failures with their code', async () => {
    const g = createScriptedGenerator({ rules: [{ match: 'x', fail: 'PROVIDER_ERROR' }] });
    await expect(g.generate({ prompt: 'x' })).rejects.toMatchObject({ code: 'PROVIDER_ERROR' });
  });

  it('flattens chat messages for prompt-only backends', async () => {
    const g = createScriptedGenerator();
    await g.generate({
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Question: hi?' },
      ],
    });
    expect(g.calls).toHaveLength(1);
  });
});
