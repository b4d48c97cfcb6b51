// The worker CSP: the built-in origins match what each worker's gate allows, user origins are
// named exactly (nothing that could end a directive gets in), and a worker script asked for with
// its kind and origins is answered with that policy; any other worker script with the strictest.
import { describe, expect, it } from 'vitest';
import {
  policyForRequest,
  policyOrigin,
  policyKindOf,
  policyScriptUrl,
  unpolicedUrl,
  WORKER_BUILT_IN_ORIGINS,
  workerCsp,
} from './worker-policy';
import { webBuiltInOrigins } from '../web/web-origins';
import { WEBLLM_ORIGINS } from '../llm/webllm';
import { DEFAULT_HUB } from '../embed/model-store';

const directive = (csp: string, name: string) =>
  csp
    .split('; ')
    .find((d) => d.startsWith(`${name} `))
    ?.split(' ')
    .slice(1) ?? null;

describe('worker policy', () => {
  it("names every origin each worker's gate allows by default", () => {
    expect(WORKER_BUILT_IN_ORIGINS.web).toEqual(webBuiltInOrigins());
    for (const o of WEBLLM_ORIGINS) expect(WORKER_BUILT_IN_ORIGINS.llm).toContain(o);
    expect(WORKER_BUILT_IN_ORIGINS.embed).toContain(DEFAULT_HUB);
    expect(WORKER_BUILT_IN_ORIGINS.db).toEqual([]);
  });

  it('holds connections, scripts, fonts and nested workers', () => {
    const csp = workerCsp('db');
    expect(directive(csp, 'connect-src')).toEqual(["'self'", 'blob:', 'data:']);
    expect(directive(csp, 'script-src')).toEqual(["'self'", "'wasm-unsafe-eval'"]);
    expect(directive(csp, 'font-src')).toEqual(["'none'"]);
    expect(directive(csp, 'worker-src')).toEqual(["'none'"]);
    expect(directive(csp, 'default-src')).toEqual(["'none'"]);
    expect(directive(workerCsp('llm'), 'worker-src')).toEqual(['blob:']);
  });

  it('adds user origins exactly and drops anything that is not a plain origin', () => {
    expect(policyOrigin('http://127.0.0.1:11434/v1/chat')).toBe('http://127.0.0.1:11434');
    expect(policyOrigin('https://[::1]:8443/x')).toBe('https://[::1]:8443');
    // only the origin is kept: a path cannot carry words into the policy
    expect(policyOrigin("http://x.example/'; script-src *")).toBe('http://x.example');
    for (const bad of [
      'http://a;b.example/',
      'https://*.example',
      'javascript:alert(1)',
      'ftp://files.example',
      'not a url',
    ])
      expect(policyOrigin(bad)).toBeNull();
    const csp = workerCsp('llm', ['http://127.0.0.1:11434/v1', "http://a;b/ 'unsafe-eval'"]);
    expect(directive(csp, 'connect-src')).toContain('http://127.0.0.1:11434');
    expect(csp).not.toContain(" 'unsafe-eval'");
    expect(csp.split('; ').filter((d) => d.startsWith('script-src'))).toHaveLength(1);
  });

  it('is served for a worker script asked for under its policy path, else the strictest for workers', () => {
    const url = policyScriptUrl(
      '/assets/llm.worker-abc.js',
      'llm',
      ['http://127.0.0.1:11434/v1', 'http://127.0.0.1:11434/other'],
      'https://sift.example/',
    );
    expect(url).toMatch(
      /^https:\/\/sift\.example\/sift-policy\/llm\/[A-Za-z0-9_-]+\/assets\/llm\.worker-abc\.js$/,
    );
    expect(policyForRequest(url, 'worker')).toBe(workerCsp('llm', ['http://127.0.0.1:11434']));
    expect(unpolicedUrl(url)).toBe('https://sift.example/assets/llm.worker-abc.js');
    expect(policyKindOf(url)).toBe('llm');
    expect(policyForRequest('https://sift.example/sift-policy/evil/-/assets/x.js', 'worker')).toBe(
      workerCsp('db'),
    );
    expect(policyForRequest('https://sift.example/assets/chunk.js', 'script')).toBeNull();
    expect(policyForRequest('https://sift.example/assets/chunk.js', 'sharedworker')).toBe(
      workerCsp('db'),
    );
  });

  it('keeps the prefix above every folder the worker resolves into, under the app base path', () => {
    const url = policyScriptUrl(
      '/app/assets/db.worker-x.js',
      'db',
      [],
      'https://h.example/',
      '/app/',
    );
    expect(url).toBe('https://h.example/app/sift-policy/db/-/assets/db.worker-x.js');
    // A chunk the worker imports, and a file it finds relative to its script, keep the prefix
    // (one module per URL: a chunk importing the entry back gets the very same module).
    const chunk = new URL('./chunk-1.js', url).href;
    const entryAgain = new URL('./db.worker-x.js', chunk).href;
    expect(entryAgain).toBe(url);
    expect(unpolicedUrl(chunk)).toBe('https://h.example/app/assets/chunk-1.js');
    const model = new URL('../models/m.bin', url).href;
    expect(unpolicedUrl(model)).toBe('https://h.example/app/models/m.bin');
    expect(unpolicedUrl('https://h.example/app/assets/chunk-1.js')).toBeNull();
  });
});
