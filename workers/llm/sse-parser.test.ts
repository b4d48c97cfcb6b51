// The SSE framing: events across any chunking, and work proportional to the input however the
// bytes arrive (one giant line fed in tiny pieces was quadratic: 32 MB took 12.3 s).
import { describe, expect, it } from 'vitest';
import { createSseParser } from './sse-parser';

const event = (content: string) =>
  `data: ${JSON.stringify({ choices: [{ delta: { content } }] })}\n\n`;

function feed(text: string, chunk: number, max?: number): { events: string[]; work: number } {
  const p = createSseParser(max);
  const events: string[] = [];
  for (let i = 0; i < text.length; i += chunk) events.push(...p.push(text.slice(i, i + chunk)));
  events.push(...p.end());
  return { events, work: p.work };
}

describe('SSE parser', () => {
  const stream =
    ': comment\r\n\r\n' +
    event('Hello') +
    'event: x\nid: 1\ndata: {"a":\ndata: 1}\r\n\r\n' +
    event(' wörld 😀') +
    'data: [DONE]';

  it.each([1, 2, 3, 7, 64, 100_000])('gives the same events in chunks of %i', (chunk) => {
    expect(feed(stream, chunk).events).toEqual([
      JSON.stringify({ choices: [{ delta: { content: 'Hello' } }] }),
      '{"a":\n1}',
      JSON.stringify({ choices: [{ delta: { content: ' wörld 😀' } }] }),
      '[DONE]',
    ]);
  });

  it.each([
    ['many small events, 1-char chunks', event('x').repeat(20_000), 1],
    ['many small events, 4 KB chunks', event('xy').repeat(50_000), 4096],
    ['one 1 MB event, 1-char chunks', event('z'.repeat(1 << 20)), 1],
    ['one 1 MB event, 13-char chunks', event('z'.repeat(1 << 20)), 13],
    ['one 1 MB event, 64 KB chunks', event('z'.repeat(1 << 20)), 65_536],
  ])('never re-reads consumed input: %s', (_name, text, chunk) => {
    const { events, work } = feed(text, chunk);
    expect(events.length).toBeGreaterThan(0);
    // Each character is looked at once and copied at most once (when its line is joined).
    expect(work).toBeLessThanOrEqual(2 * text.length);
  });

  it('refuses one event past its budget before holding it whole, in any chunking', () => {
    for (const chunk of [1000, 65_536]) {
      const p = createSseParser(100_000);
      const huge = event('q'.repeat(1_000_000));
      let thrown: unknown = null;
      let fed = 0;
      try {
        for (; fed < huge.length; fed += chunk) p.push(huge.slice(fed, fed + chunk));
      } catch (err) {
        thrown = err;
      }
      expect(thrown).toMatchObject({ code: 'REPLY_TOO_LARGE' });
      expect(fed).toBeLessThan(100_000 + chunk);
    }
    // Many data lines of one event count together.
    const p = createSseParser(1000);
    expect(() => p.push('data: 0123456789\n'.repeat(200))).toThrow(/more than 1 KB/);
  });
});
