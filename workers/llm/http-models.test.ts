// The endpoint's model list and connection test against a real HTTP server on 127.0.0.1 that
// answers as Ollama, LM Studio and llama-server do (GET /v1/models), plus the failures a user
// meets: nothing listening (or CORS refused), a wrong base URL, a key refused, not a model list.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_LLM_PRESETS, corsAdvice, presetFor } from '../shared/llm-presets';
import { listEndpointModels } from './http-models';

let server: Server;
let base = '';
const seen: Array<{ url: string; auth: string | undefined }> = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ url: req.url ?? '', auth: req.headers.authorization });
    if (req.url === '/v1/models') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(
        JSON.stringify({
          object: 'list',
          data: [{ id: 'qwen2.5:7b' }, { id: 'llama3.2:3b' }, { id: 'qwen2.5:7b' }, { id: 7 }],
        }),
      );
    }
    if (req.url === '/locked/v1/models') return res.writeHead(401).end();
    if (req.url === '/html/v1/models') return res.writeHead(200).end('<html></html>');
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('listEndpointModels', () => {
  it('lists the model ids, sorted and without duplicates, sending the key only when set', async () => {
    const r = await listEndpointModels({ baseUrl: `${base}/v1/`, apiKey: 'sk-1' }, { fetch });
    expect(r.models).toEqual(['llama3.2:3b', 'qwen2.5:7b']);
    expect(r.baseUrl).toBe(`${base}/v1`);
    expect(seen.at(-1)).toEqual({ url: '/v1/models', auth: 'Bearer sk-1' });
    await listEndpointModels({ baseUrl: `${base}/v1` }, { fetch });
    expect(seen.at(-1)?.auth).toBeUndefined();
  });

  it('says what is wrong: unreachable, wrong path, key refused, not a model list', async () => {
    await expect(
      listEndpointModels({ baseUrl: 'http://127.0.0.1:9/v1' }, { fetch }),
    ).rejects.toMatchObject({ code: 'NETWORK_ERROR' });
    await expect(
      listEndpointModels({ baseUrl: 'http://127.0.0.1:9/v1' }, { fetch }),
    ).rejects.toThrow(/CORS/);
    const wrongPath = listEndpointModels({ baseUrl: `${base}/api` }, { fetch });
    await expect(wrongPath).rejects.toMatchObject({ code: 'PROVIDER_ERROR' });
    await expect(wrongPath).rejects.toThrow(/\/v1/);
    await expect(
      listEndpointModels({ baseUrl: `${base}/locked/v1`, apiKey: 'bad' }, { fetch }),
    ).rejects.toMatchObject({ code: 'AUTH_FAILED' });
    await expect(
      listEndpointModels({ baseUrl: `${base}/html/v1` }, { fetch }),
    ).rejects.toMatchObject({ code: 'MALFORMED_RESPONSE' });
    await expect(listEndpointModels({ baseUrl: 'ftp://x/v1' }, { fetch })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
  });
});

describe('local model presets', () => {
  it('carry the servers’ default addresses and the CORS setting each needs', () => {
    expect(LOCAL_LLM_PRESETS.map((p) => [p.id, p.baseUrl])).toEqual([
      ['ollama', 'http://localhost:11434/v1'],
      ['lm-studio', 'http://localhost:1234/v1'],
      ['llama-cpp', 'http://localhost:8080/v1'],
    ]);
    const ollama = presetFor('http://127.0.0.1:11434/v1/')!;
    expect(corsAdvice(ollama, 'http://127.0.0.1:4173')).toContain(
      'OLLAMA_ORIGINS=http://127.0.0.1:4173',
    );
    expect(presetFor('http://localhost:1234/v1')?.cors).toMatch(/Enable CORS/);
    expect(presetFor('http://localhost:8080/v1')?.cors).toMatch(/--cors-origins/);
    expect(presetFor('https://api.example.com/v1')).toBeUndefined();
  });
});
