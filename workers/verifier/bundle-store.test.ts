// Delivery of the verifier bundle over a fake origin serving the real development bundle: first
// use fetches and keeps it, later loads read the kept copy offline, and every fault (missing,
// cut short, damaged, another version, a load cut off before its manifest) is refused with its
// VERIFIER_* code or repaired by fetching again.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VERIFIER_FILES } from './bundle';
import { createMemoryBundleCache, createVerifierBundleStore } from './bundle-store';
import { VERIFIER_DIR } from './node-bundle';

const BASE = 'https://sift.test/models/sift-verifier-v1/';
const real = new Map<string, Uint8Array>(
  [...VERIFIER_FILES, 'manifest.json'].map((n) => [n, readFileSync(join(VERIFIER_DIR, n))]),
);

function origin(files: Map<string, Uint8Array> = real) {
  const requests: string[] = [];
  let online = true;
  const fetch = async (url: string) => {
    requests.push(url.slice(BASE.length));
    if (!online) throw new TypeError('Failed to fetch');
    const body = files.get(url.slice(BASE.length));
    return body
      ? new Response(Uint8Array.from(body), {
          headers: { 'content-type': 'application/octet-stream' },
        })
      : new Response('<!doctype html>', { status: 200, headers: { 'content-type': 'text/html' } });
  };
  return { fetch, requests, offline: () => (online = false) };
}

const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => 'no error',
    (e: { code?: string }) => e.code ?? 'not an AppError',
  );

describe('createVerifierBundleStore', () => {
  it('fetches on first use, keeps the files, and loads them offline afterwards', async () => {
    const o = origin();
    const cache = createMemoryBundleCache();
    const store = createVerifierBundleStore({
      baseUrl: BASE,
      fetch: o.fetch,
      openCache: async () => cache,
    });
    const first = await store.load();
    expect(first.source).toBe('network');
    expect(o.requests).toEqual(['manifest.json', ...VERIFIER_FILES]);
    expect(first.weights.byteLength).toBe(real.get('model.safetensors')!.length);
    o.offline();
    const again = await store.load();
    expect(again.source).toBe('cache');
    expect(again.weightsSha256).toBe(first.weightsSha256);
    // Buffer.equals: a deep toEqual over 23 MB of bytes takes minutes.
    expect(Buffer.from(again.weights).equals(Buffer.from(first.weights))).toBe(true);
  });

  it('says the verifier is missing when the app has no bundle or the device is offline', async () => {
    const none = origin(new Map());
    const store = createVerifierBundleStore({ baseUrl: BASE, fetch: none.fetch });
    expect(await codeOf(store.load())).toBe('VERIFIER_MISSING');
    const off = origin();
    off.offline();
    const cold = createVerifierBundleStore({
      baseUrl: BASE,
      fetch: off.fetch,
      openCache: async () => createMemoryBundleCache(),
    });
    expect(await codeOf(cold.load())).toBe('VERIFIER_MISSING');
  });

  it('refuses weights cut short or changed, and a bundle of another version', async () => {
    const cut = new Map(real);
    const w = real.get('model.safetensors')!;
    cut.set('model.safetensors', w.subarray(0, w.length - 4096));
    const cache = createMemoryBundleCache();
    const store = createVerifierBundleStore({
      baseUrl: BASE,
      fetch: origin(cut).fetch,
      openCache: async () => cache,
    });
    expect(await codeOf(store.load())).toBe('VERIFIER_CORRUPT');
    expect(cache.entries.size).toBe(0); // nothing of a refused bundle is kept

    const flipped = new Map(real);
    const changed = Uint8Array.from(w); // a copy (Buffer.slice would be a view on the shared file)
    changed[changed.length - 1] = changed[changed.length - 1]! ^ 1;
    flipped.set('model.safetensors', changed);
    const s2 = createVerifierBundleStore({ baseUrl: BASE, fetch: origin(flipped).fetch });
    expect(await codeOf(s2.load())).toBe('VERIFIER_CORRUPT');

    const v2 = new Map(real);
    const m = JSON.parse(new TextDecoder().decode(real.get('manifest.json'))) as Record<
      string,
      unknown
    >;
    v2.set('manifest.json', Buffer.from(JSON.stringify({ ...m, version: 2 })));
    const s3 = createVerifierBundleStore({ baseUrl: BASE, fetch: origin(v2).fetch });
    expect(await codeOf(s3.load())).toBe('VERIFIER_VERSION');
  });

  it('drops a damaged kept copy and one left without its manifest (a tab closed mid-load)', async () => {
    const cache = createMemoryBundleCache();
    const o = origin();
    const store = createVerifierBundleStore({
      baseUrl: BASE,
      fetch: o.fetch,
      openCache: async () => cache,
    });
    await store.load();
    const key = `${BASE}model.safetensors`;
    const bytes = new Uint8Array(cache.entries.get(key)!);
    bytes[100] = bytes[100]! ^ 0xff;
    cache.entries.set(key, bytes.buffer);
    o.requests.length = 0;
    expect((await store.load()).source).toBe('network');
    expect(o.requests).toContain('model.safetensors');

    cache.entries.delete(`${BASE}manifest.json`); // files written, manifest never committed
    o.requests.length = 0;
    expect((await store.load()).source).toBe('network');
    expect((await store.load()).source).toBe('cache');
  });

  it('a download that breaks off mid-file keeps nothing, and the next load starts over', async () => {
    const cache = createMemoryBundleCache();
    let cut = true;
    const o = origin();
    const fetch = async (url: string) => {
      if (cut && url.endsWith('model.safetensors')) {
        const body = new ReadableStream<Uint8Array>({
          start(c) {
            c.enqueue(new Uint8Array(1024));
            c.error(new TypeError('network connection lost'));
          },
        });
        return new Response(body, { headers: { 'content-type': 'application/octet-stream' } });
      }
      return o.fetch(url);
    };
    const store = createVerifierBundleStore({ baseUrl: BASE, fetch, openCache: async () => cache });
    expect(await codeOf(store.load())).toBe('VERIFIER_MISSING');
    expect(cache.entries.size).toBe(0);
    cut = false;
    expect((await store.load()).source).toBe('network');
  });
});
