// The HTTP backend against a local OpenAI-compatible mock server on 127.0.0.1 (node:http).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isAppError } from '../shared/errors';
import { createHttpGenerator, normaliseBaseUrl, parseRetryAfter } from './http';

type Handler = (req: IncomingMessage, body: string, res: ServerResponse) => void;
let server: Server;
let base = '';
let handler: Handler = () => undefined;
const seen: Array<{ url: string; auth: string | undefined; body: string }> = [];

function sse(res: ServerResponse, events: string[], opts: { hangAfter?: boolean } = {}) {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  for (const e of events) res.write(e);
  if (!opts.hangAfter) res.end();
}
const delta = (content: string) =>
  `data: ${JSON.stringify({ choices: [{ delta: { content }, finish_reason: null }] })}\n\n`;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({ url: req.url ?? '', auth: req.headers.authorization, body });
      handler(req, body, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
beforeEach(() => {
  seen.length = 0;
});

const noSleep = { fetch, sleep: async () => undefined };

describe('HTTP backend (OpenAI-compatible, streaming)', () => {
  it('streams deltas split across TCP writes, with comments and [DONE], and sends the key only to base URL', async () => {
    handler = (_req, _body, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8' });
      res.write(': keep-alive\n\n');
      res.write('data: {"choices":[{"delta":{"role":"assistant"}}]}\n\n');
      const two = delta('Hello') + delta(' world');
      res.write(two.slice(0, 17));
      setTimeout(() => {
        res.write(two.slice(17));
        res.end('data: [DONE]\n\n');
      }, 5);
    };
    const g = createHttpGenerator(
      { baseUrl: `${base}/`, apiKey: 'sk-secret', model: 'm1' },
      noSleep,
    );
    const pieces: string[] = [];
    const r = await g.generate(
      { messages: [{ role: 'user', content: 'hi' }], temperature: 0.2, maxTokens: 50 },
      { onToken: (p) => pieces.push(p) },
    );
    expect(r).toMatchObject({ text: 'Hello world', finishReason: 'stop', backend: 'http' });
    expect(pieces.join('')).toBe('Hello world');
    expect(seen).toHaveLength(1);
    expect(seen[0]?.url).toBe('/v1/chat/completions');
    expect(seen[0]?.auth).toBe('Bearer sk-secret');
    expect(JSON.parse(seen[0]?.body ?? '{}')).toMatchObject({
      model: 'm1',
      stream: true,
      temperature: 0.2,
      max_tokens: 50,
    });
  });

  it('sends no Authorization header without a key', async () => {
    handler = (_req, _b, res) => sse(res, [delta('ok'), 'data: [DONE]\n\n']);
    await createHttpGenerator({ baseUrl: base, model: 'm' }, noSleep).generate({ prompt: 'p' });
    expect(seen[0]?.auth).toBeUndefined();
  });

  it('retries once after 429 with a short Retry-After, then succeeds', async () => {
    let n = 0;
    handler = (_req, _b, res) => {
      if (n++ === 0) {
        res.writeHead(429, { 'retry-after': '2' });
        res.end('slow down');
      } else sse(res, [delta('after retry'), 'data: [DONE]\n\n']);
    };
    const waits: number[] = [];
    const g = createHttpGenerator(
      { baseUrl: base, model: 'm' },
      { fetch, sleep: async (ms) => void waits.push(ms) },
    );
    expect((await g.generate({ prompt: 'p' })).text).toBe('after retry');
    expect(waits).toEqual([2000]);
  });

  it('gives RATE_LIMITED with retryAfterMs when Retry-After is too long', async () => {
    handler = (_req, _b, res) => {
      res.writeHead(429, { 'retry-after': '120' });
      res.end();
    };
    const err = await createHttpGenerator({ baseUrl: base, model: 'm' }, noSleep)
      .generate({ prompt: 'p' })
      .catch((e: unknown) => e);
    expect(isAppError(err) && err.code).toBe('RATE_LIMITED');
    expect(isAppError(err) && err.details.retryAfterMs).toBe(120_000);
    expect(seen).toHaveLength(1);
  });

  it('maps 500 to PROVIDER_ERROR and 401 to AUTH_FAILED without the key in the error', async () => {
    /** What a generation with a key fails with when the endpoint answers `status`. */
    const failureOn = (status: number, body?: string) => {
      handler = (_req, _b, res) => {
        res.writeHead(status);
        res.end(body);
      };
      return createHttpGenerator({ baseUrl: base, apiKey: 'sk-secret', model: 'm' }, noSleep)
        .generate({ prompt: 'p' })
        .catch((e: unknown) => e);
    };
    const e500 = await failureOn(500, 'boom');
    expect(isAppError(e500) && e500.code).toBe('PROVIDER_ERROR');
    expect(JSON.stringify(e500) + String((e500 as Error).message)).not.toContain('sk-secret');
    const e401 = await failureOn(401);
    expect(isAppError(e401) && e401.code).toBe('AUTH_FAILED');
  });

  it('rejects malformed chunks with MALFORMED_RESPONSE', async () => {
    handler = (_req, _b, res) => sse(res, [delta('ok'), 'data: {not json\n\n']);
    await expect(
      createHttpGenerator({ baseUrl: base, model: 'm' }, noSleep).generate({ prompt: 'p' }),
    ).rejects.toMatchObject({ code: 'MALFORMED_RESPONSE' });
    handler = (_req, _b, res) => sse(res, ['data: {"object":"x"}\n\n']);
    await expect(
      createHttpGenerator({ baseUrl: base, model: 'm' }, noSleep).generate({ prompt: 'p' }),
    ).rejects.toMatchObject({ code: 'MALFORMED_RESPONSE' });
  });

  it('reports an error event inside the stream as PROVIDER_ERROR', async () => {
    handler = (_req, _b, res) => sse(res, ['data: {"error":{"message":"model not loaded"}}\n\n']);
    await expect(
      createHttpGenerator({ baseUrl: base, model: 'm' }, noSleep).generate({ prompt: 'p' }),
    ).rejects.toMatchObject({ code: 'PROVIDER_ERROR' });
  });

  it('accepts a non-streaming JSON answer', async () => {
    handler = (_req, _b, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ choices: [{ message: { content: 'whole answer' } }] }));
    };
    expect(
      (await createHttpGenerator({ baseUrl: base, model: 'm' }, noSleep).generate({ prompt: 'p' }))
        .text,
    ).toBe('whole answer');
  });

  it('aborts a hanging stream with ABORTED and keeps the partial text', async () => {
    handler = (_req, _b, res) => sse(res, [delta('partial')], { hangAfter: true });
    const ctrl = new AbortController();
    const err = await createHttpGenerator({ baseUrl: base, model: 'm' }, noSleep)
      .generate({ prompt: 'p' }, { signal: ctrl.signal, onToken: () => ctrl.abort() })
      .catch((e: unknown) => e);
    expect(isAppError(err) && err.code).toBe('ABORTED');
    expect(isAppError(err) && err.details.partialText).toBe('partial');
  });

  it('gives NETWORK_ERROR when nothing listens', async () => {
    const g = createHttpGenerator({ baseUrl: 'http://127.0.0.1:9/v1', model: 'm' }, noSleep);
    await expect(g.generate({ prompt: 'p' })).rejects.toMatchObject({ code: 'NETWORK_ERROR' });
  });

  it('validates base URL and model', () => {
    expect(normaliseBaseUrl(' http://h:1/v1/?x=1 ')).toBe('http://h:1/v1');
    expect(() => normaliseBaseUrl('ftp://h')).toThrow();
    expect(() => normaliseBaseUrl('http://user:pw@h/v1')).toThrow();
    expect(() => createHttpGenerator({ baseUrl: 'http://h', model: ' ' }, noSleep)).toThrow();
    expect(parseRetryAfter('1.5', 0)).toBe(1500);
    expect(parseRetryAfter('Thu, 01 Jan 1970 00:00:10 GMT', 4000)).toBe(6000);
    expect(parseRetryAfter('soon', 0)).toBeNull();
  });
});
