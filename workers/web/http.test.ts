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
