// The outbound pipeline against a real HTTP server on 127.0.0.1: body size caps that hold while
// the body streams in (no Content-Length), so a huge answer is never buffered whole.
import { describe, expect, it } from 'vitest';
import { isAppError } from '../shared/errors';
import { realClock } from './clock';
import { createHttp } from './http';
import { createNetworkLedger } from './ledger';
import { HUGE_CHUNKED_BYTES, useMockServer } from './mock-server.testkit';
import { createRedactor } from './redact';

const server = useMockServer();

function makeHttp() {
  const redactor = createRedactor();
  const ledger = createNetworkLedger({ clock: realClock, redactor });
  const http = createHttp({
    fetch: (input, init) => fetch(input, init),
    clock: realClock,
    random: () => 0.5,
    ledger,
    redactor,
    isOnline: () => true,
    isBrowser: false,
  });
  return { http, ledger };
}

async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('http body cap without Content-Length', () => {
  it('stops reading a chunked 50 MB body at maxBytes and refuses it (FILE_TOO_LARGE)', async () => {
    server().queue('pages', 'huge-chunked');
    const { http, ledger } = makeHttp();
    const maxBytes = 2 * 1024 * 1024;
    const err = await http
      .fetchPublic(`${server().url}/pages/huge.txt`, 'page-fetch', { maxBytes, maxRetries: 0 })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(isAppError(err) && err.code).toBe('FILE_TOO_LARGE');
    expect((err as Error).message).toContain('more than 2 MB');
    // The client hung up early: the server could hand over only the cap plus what socket and
    // stream buffers hold, far from the 50 MB it would have sent to a client reading everything.
    await until(() => server().hugeBytesWritten.length === 1);
    const written = server().hugeBytesWritten[0]!;
    expect(written).toBeLessThan(HUGE_CHUNKED_BYTES / 3);
    // The ledger counts what was actually read, which stops just past the cap.
    const [entry] = ledger.list();
    expect(entry?.outcome).toBe('FILE_TOO_LARGE');
    expect(entry?.bytesReceived).toBeGreaterThan(maxBytes);
    expect(entry?.bytesReceived).toBeLessThan(maxBytes + 1024 * 1024);
  });

  it('reads a chunked body under the cap in full', async () => {
    server().queue('pages', 'ok');
    const { http } = makeHttp();
    const res = await http.fetchPublic(`${server().url}/pages/article.html`, 'page-fetch');
    expect(res.status).toBe(200);
    expect(res.text).toContain('<html');
  });
});

describe('page import redirects', () => {
  it('refuses a redirect to another host before asking it; the ledger names both hosts', async () => {
    const { createServer } = await import('node:http');
    const reached: string[] = [];
    const other = createServer((req, res) => {
      reached.push(req.url ?? '');
      res.end('<p>other host body</p>');
    });
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
    const otherUrl = `http://127.0.0.1:${(other.address() as { port: number }).port}`;
    const first = createServer((_req, res) => {
      res.writeHead(302, { location: `${otherUrl}/stolen.html` }).end();
    });
    await new Promise<void>((r) => first.listen(0, '127.0.0.1', r));
    const firstUrl = `http://127.0.0.1:${(first.address() as { port: number }).port}`;
    try {
      const { http, ledger } = makeHttp();
      const err = await http.fetchPublic(`${firstUrl}/article.html`, 'page-fetch').then(
        () => null,
        (e: unknown) => e,
      );
      expect(isAppError(err) && err.code).toBe('REDIRECT_REFUSED');
      expect((err as Error).message).toMatch(/another host/);
      expect(reached).toEqual([]);
      const host = (u: string) => new URL(u).host;
      const rows = ledger.list().map((r) => [r.host, r.path, r.status, r.outcome]);
      expect(rows).toContainEqual([
        host(firstUrl),
        '/article.html',
        302,
        `REDIRECT to ${host(otherUrl)}`,
      ]);
      // The refused hop: named, never sent.
      expect(rows).toContainEqual([host(otherUrl), '/stolen.html', null, 'REDIRECT_REFUSED']);
      expect(ledger.list().find((r) => r.outcome === 'REDIRECT_REFUSED')?.bytesSent).toBe(0);
    } finally {
      await Promise.all([first, other].map((s) => new Promise((r) => s.close(r))));
    }
  });
});
