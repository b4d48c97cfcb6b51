// A local mock of every provider on 127.0.0.1 (node:http, random port), serving recorded-style
// fixtures written from each provider's documented response shape, plus failure scenarios:
// 429 with and without Retry-After, 500/503, hangs, slow bodies, malformed JSON and XML.
// Each provider lives under /<provider-id>/ so its base URL is `${url}/<id>`.
// Test support only: never imported by production code.
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Scenario =
  | 'ok'
  | 'empty'
  | 'malformed'
  | '401'
  | '429-seconds'
  | '429-date'
  | '429-bare'
  | '500'
  | '503-seconds'
  | 'hang'
  | 'slow-body'
  | 'no-cors'
  | 'huge-chunked';

/** Size of the 'huge-chunked' body: 50 MB, sent chunked (no Content-Length). */
export const HUGE_CHUNKED_BYTES = 50 * 1024 * 1024;

export interface RecordedRequest {
  provider: string;
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface MockServer {
  url: string;
  requests: RecordedRequest[];
  /**
   * Bytes the server had handed to the socket for each 'huge-chunked' response when it ended
   * (client closed the connection, or the whole body was sent). Written with backpressure, so a
   * client that stops reading stops the server too.
   */
  hugeBytesWritten: number[];
  /** Scenarios served to the next requests of a provider, in order; then 'ok'. */
  queue(provider: string, ...scenarios: Scenario[]): void;
  reset(): void;
  close(): Promise<void>;
}

const fixture = (name: string): string =>
  readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

interface OkBody {
  type: string;
  body: string;
}

function okBody(provider: string, path: string): OkBody | null {
  const json = (name: string): OkBody => ({ type: 'application/json', body: fixture(name) });
  switch (`${provider} ${path}`) {
    case 'tavily /search':
      return json('tavily-search.json');
    case 'tavily /extract':
      return json('tavily-extract.json');
    case 'exa /search':
      return json('exa-search.json');
    case 'exa /contents':
      return json('exa-contents.json');
    case 'perplexity /chat/completions':
      return json('perplexity-chat.json');
    case 'brave /res/v1/web/search':
      return json('brave-web.json');
    case 'semantic-scholar /graph/v1/paper/search':
      return json('semantic-scholar-search.json');
    case 'arxiv /api/query':
      return { type: 'application/atom+xml; charset=utf-8', body: fixture('arxiv-query.xml') };
    case 'searxng /search':
      return json('searxng-search.json');
    case 'pages /article.html':
      return { type: 'text/html; charset=utf-8', body: fixture('article.html') };
    default:
      return null;
  }
}

function emptyBody(provider: string): OkBody {
  switch (provider) {
    case 'arxiv':
      return {
        type: 'application/atom+xml',
        body: '<?xml version="1.0" encoding="UTF-8"?><feed xmlns="http://www.w3.org/2005/Atom"><title>ArXiv Query</title></feed>',
      };
    case 'brave':
      return { type: 'application/json', body: '{"type":"search","query":{"original":"x"}}' };
    case 'semantic-scholar':
      return { type: 'application/json', body: '{"total":0,"offset":0}' };
    case 'perplexity':
      return {
        type: 'application/json',
        body: '{"id":"x","model":"sonar","choices":[{"index":0,"message":{"role":"assistant","content":"No sources."}}]}',
      };
    default:
      return { type: 'application/json', body: '{"results":[]}' };
  }
}

export async function startMockServer(): Promise<MockServer> {
  const requests: RecordedRequest[] = [];
  const hugeBytesWritten: number[] = [];
  const queues = new Map<string, Scenario[]>();
  const open = new Set<ServerResponse>();

  function handle(req: IncomingMessage, res: ServerResponse, body: string): void {
    const u = new URL(req.url ?? '/', 'http://127.0.0.1');
    const [, provider = '', ...rest] = u.pathname.split('/');
    const path = `/${rest.join('/')}`;
    requests.push({
      provider,
      method: req.method ?? 'GET',
      path,
      query: u.searchParams,
      headers: req.headers,
      body,
    });
    const scenario = queues.get(provider)?.shift() ?? 'ok';
    const cors = scenario === 'no-cors' ? {} : { 'Access-Control-Allow-Origin': '*' };
    const ok = okBody(provider, path);
    switch (scenario) {
      case 'ok':
      case 'no-cors':
        if (!ok) {
          res.writeHead(404, { 'Content-Type': 'application/json', ...cors });
          res.end('{"error":"not found"}');
          return;
        }
        res.writeHead(200, { 'Content-Type': ok.type, ...cors });
        res.end(ok.body);
        return;
      case 'empty': {
        const e = emptyBody(provider);
        res.writeHead(200, { 'Content-Type': e.type, ...cors });
        res.end(e.body);
        return;
      }
      case 'malformed':
        if (provider === 'arxiv') {
          res.writeHead(200, { 'Content-Type': 'application/atom+xml', ...cors });
          res.end(
            '<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><entry><title>cut off',
          );
        } else {
          res.writeHead(200, { 'Content-Type': 'application/json', ...cors });
          res.end('{"results": [ {"url": "https://example.org", "title": ');
        }
        return;
      case '401':
        res.writeHead(401, { 'Content-Type': 'application/json', ...cors });
        res.end('{"detail":{"error":"Unauthorized: missing or invalid API key."}}');
        return;
      case '429-seconds':
        res.writeHead(429, { 'Content-Type': 'application/json', 'Retry-After': '7', ...cors });
        res.end('{"error":"rate limit exceeded"}');
        return;
      case '429-date':
        // HTTP-date form; the test clock starts at 1_700_000_000_000 (2023-11-14T22:13:20Z).
        res.writeHead(429, {
          'Content-Type': 'application/json',
          'Retry-After': 'Tue, 14 Nov 2023 22:13:32 GMT',
          ...cors,
        });
        res.end('{"error":"rate limit exceeded"}');
        return;
      case '429-bare':
        res.writeHead(429, { 'Content-Type': 'application/json', ...cors });
        res.end('{"message":"Too Many Requests"}');
        return;
      case '500':
        res.writeHead(500, { 'Content-Type': 'text/plain', ...cors });
        res.end('Internal Server Error');
        return;
      case '503-seconds':
        res.writeHead(503, { 'Content-Type': 'text/plain', 'Retry-After': '2', ...cors });
        res.end('Service Unavailable');
        return;
      case 'hang':
        open.add(res);
        return; // never answers
      case 'slow-body':
        open.add(res);
        res.writeHead(200, { 'Content-Type': 'application/json', ...cors });
        res.write('{"results": [');
        return; // the rest never comes
      case 'huge-chunked':
        open.add(res);
        streamHuge(res, cors);
        return;
    }
  }

  /** 50 MB of text in 64 KB chunks, honouring backpressure; records how much was written. */
  function streamHuge(res: ServerResponse, cors: Record<string, string | undefined>): void {
    res.writeHead(200, { 'Content-Type': 'text/plain', ...cors } as Record<string, string>); // no length: chunked
    const chunk = Buffer.alloc(64 * 1024, 'a');
    let written = 0;
    let ended = false;
    const finish = (): void => {
      if (ended) return;
      ended = true;
      hugeBytesWritten.push(written);
    };
    const pump = (): void => {
      while (!ended && written < HUGE_CHUNKED_BYTES) {
        written += chunk.length;
        if (!res.write(chunk)) {
          res.once('drain', pump);
          return;
        }
      }
      if (!ended) {
        res.end();
        finish();
      }
    };
    res.on('close', finish);
    pump();
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handle(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    hugeBytesWritten,
    queue(provider: string, ...scenarios) {
      queues.set(provider, [...(queues.get(provider) ?? []), ...scenarios]);
    },
    reset() {
      requests.length = 0;
      hugeBytesWritten.length = 0;
      queues.clear();
    },
    async close() {
      for (const r of open) r.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
