// A local mock of every provider on 127.0.0.1 (node:http, random port), serving recorded-style
// fixtures written from each provider's documented response shape, plus failure scenarios:
// 429 with and without Retry-After, 500/503, hangs, slow bodies, malformed JSON and XML.
// Each provider lives under /<provider-id>/ so its base URL is `${url}/<id>`.
// Test support only: never imported by production code.
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach } from 'vitest';

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

/** A reply sent whole, at once. */
interface Reply extends OkBody {
  status: number;
  /** Headers besides Content-Type (and CORS, which the scenario decides). */
  headers?: Record<string, string>;
}

const RATE_LIMITED = '{"error":"rate limit exceeded"}';

/** Scenarios answered by the same reply whatever the provider. */
const FIXED_REPLIES: Partial<Record<Scenario, Reply>> = {
  '401': {
    status: 401,
    type: 'application/json',
    body: '{"detail":{"error":"Unauthorized: missing or invalid API key."}}',
  },
  '429-seconds': {
    status: 429,
    type: 'application/json',
    headers: { 'Retry-After': '7' },
    body: RATE_LIMITED,
  },
  // HTTP-date form; the test clock starts at 1_700_000_000_000 (2023-11-14T22:13:20Z).
  '429-date': {
    status: 429,
    type: 'application/json',
    headers: { 'Retry-After': 'Tue, 14 Nov 2023 22:13:32 GMT' },
    body: RATE_LIMITED,
  },
  '429-bare': { status: 429, type: 'application/json', body: '{"message":"Too Many Requests"}' },
  '500': { status: 500, type: 'text/plain', body: 'Internal Server Error' },
  '503-seconds': {
    status: 503,
    type: 'text/plain',
    headers: { 'Retry-After': '2' },
    body: 'Service Unavailable',
  },
};

/** The reply of a scenario that answers at once; null for one that hangs or streams. */
function immediateReply(scenario: Scenario, provider: string, path: string): Reply | null {
  switch (scenario) {
    case 'ok':
    case 'no-cors': {
      const ok = okBody(provider, path);
      return ok
        ? { status: 200, ...ok }
        : { status: 404, type: 'application/json', body: '{"error":"not found"}' };
    }
    case 'empty':
      return { status: 200, ...emptyBody(provider) };
    case 'malformed':
      return provider === 'arxiv'
        ? {
            status: 200,
            type: 'application/atom+xml',
            body: '<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><entry><title>cut off',
          }
        : {
            status: 200,
            type: 'application/json',
            body: '{"results": [ {"url": "https://example.org", "title": ',
          };
    default:
      return FIXED_REPLIES[scenario] ?? null;
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
    const reply = immediateReply(scenario, provider, path);
    if (reply) {
      res.writeHead(reply.status, { 'Content-Type': reply.type, ...reply.headers, ...cors });
      res.end(reply.body);
      return;
    }
    open.add(res);
    if (scenario === 'slow-body') {
      res.writeHead(200, { 'Content-Type': 'application/json', ...cors });
      res.write('{"results": [');
      // the rest never comes
    } else if (scenario === 'huge-chunked') {
      streamHuge(res, cors);
    } // 'hang': never answers
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

/**
 * One mock server for the calling test file: started before its tests, closed after them, its
 * request log and queued scenarios cleared before each test. Returns a getter: the server exists
 * only once the file's tests run.
 */
export function useMockServer(): () => MockServer {
  let server: MockServer | undefined;
  beforeAll(async () => {
    server = await startMockServer();
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(() => server!.reset());
  return () => server!;
}
