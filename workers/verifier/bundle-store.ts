// Delivery of the verifier bundle: fetched from the app's own origin on first use (not precached
// with the app), every file checked against manifest.json (bytes and SHA-256) before anything is
// kept, then kept in Cache Storage for offline use; a kept copy is re-checked on every load and
// dropped when damaged. The manifest is written last, so a load cut short (a tab closed while the
// model loads) leaves no copy that counts. Storage and fetch are injected (Cache API in the
// worker, a Map in Node tests). Must not import Node modules, `self` or Comlink.
import { createError, isAppError } from '../shared/errors';
import { VERIFIER_FILES, VERIFIER_FORMAT, VERIFIER_VERSION, type VerifierFileName } from './bundle';

/** The subset of the Cache API the store uses (a `Cache` from `caches.open` fits). */
export interface BundleCache {
  match(url: string): Promise<Response | undefined>;
  put(url: string, response: Response): Promise<void>;
  delete(url: string): Promise<boolean>;
}

export interface VerifierManifest {
  format: string;
  version: number;
  files: Record<string, { sha256: string; bytes: number }>;
}

export interface VerifierBundleFiles {
  config: string;
  vocab: string;
  weights: ArrayBuffer;
  /** SHA-256 of model.safetensors (the verifier's version string starts with it). */
  weightsSha256: string;
  /** Where the files came from on this load. */
  source: 'cache' | 'network';
}

export interface VerifierBundleStoreDeps {
  /** The bundle folder's URL on the app's origin, ending in '/'. */
  baseUrl: string;
  fetch: (url: string) => Promise<Response>;
  /** Opens the cache; absent or failing: the bundle is fetched each session (still checked). */
  openCache?: () => Promise<BundleCache>;
}

export interface VerifierBundleStore {
  /** @throws AppError VERIFIER_MISSING, VERIFIER_CORRUPT, VERIFIER_VERSION */
  load(): Promise<VerifierBundleFiles>;
}

const MANIFEST = 'manifest.json';

export async function sha256Hex(data: ArrayBuffer): Promise<string> {
  const d = await globalThis.crypto.subtle.digest('SHA-256', data);
  return Array.from(new Uint8Array(d), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** @throws AppError VERIFIER_VERSION (another format or version), VERIFIER_CORRUPT (unreadable) */
export function parseVerifierManifest(text: string): VerifierManifest {
  let m: Partial<VerifierManifest>;
  try {
    m = JSON.parse(text) as Partial<VerifierManifest>;
  } catch {
    throw createError('VERIFIER_CORRUPT', { reason: 'The verifier manifest.json is not JSON.' });
  }
  if (m.format !== VERIFIER_FORMAT || m.version !== VERIFIER_VERSION) {
    throw createError('VERIFIER_VERSION', {
      reason: `The verifier on the server is ${String(m.format)} version ${String(m.version)}; this app reads ${VERIFIER_FORMAT} version ${VERIFIER_VERSION}.`,
    });
  }
  for (const name of VERIFIER_FILES) {
    const f = m.files?.[name];
    if (!f || !/^[0-9a-f]{64}$/.test(f.sha256) || !Number.isInteger(f.bytes)) {
      throw createError('VERIFIER_CORRUPT', {
        reason: `The verifier manifest.json has no SHA-256 and size for ${name}.`,
      });
    }
  }
  return m as VerifierManifest;
}

/** @throws AppError VERIFIER_CORRUPT naming the file whose size or SHA-256 differs */
async function checkFile(
  manifest: VerifierManifest,
  name: VerifierFileName,
  data: ArrayBuffer,
): Promise<string> {
  const want = manifest.files[name]!;
  if (data.byteLength !== want.bytes) {
    throw createError('VERIFIER_CORRUPT', {
      reason: `The verifier's ${name} has ${data.byteLength} bytes, not ${want.bytes} (cut short?).`,
    });
  }
  const sha = await sha256Hex(data);
  if (sha !== want.sha256) {
    throw createError('VERIFIER_CORRUPT', {
      reason: `The verifier's ${name} does not match its SHA-256 in manifest.json.`,
    });
  }
  return sha;
}

export function createVerifierBundleStore(deps: VerifierBundleStoreDeps): VerifierBundleStore {
  const url = (name: string) => `${deps.baseUrl}${name}`;

  async function openCache(): Promise<BundleCache | null> {
    try {
      return (await deps.openCache?.()) ?? null;
    } catch {
      return null; // no Cache Storage (e.g. an opaque origin): fetch each session
    }
  }

  /** A file from the origin. @throws AppError VERIFIER_MISSING */
  async function download(name: string): Promise<ArrayBuffer> {
    let res: Response;
    try {
      res = await deps.fetch(url(name));
    } catch (cause) {
      throw createError('VERIFIER_MISSING', {
        reason: `Could not fetch the verifier's ${name}.`,
        cause,
      });
    }
    // A dev or preview server answers a missing file with index.html: not a bundle file.
    if (!res.ok || (res.headers.get('content-type') ?? '').includes('text/html')) {
      throw createError('VERIFIER_MISSING', {
        reason: `The app has no verifier ${name} (HTTP ${res.status}).`,
      });
    }
    try {
      return await res.arrayBuffer();
    } catch (cause) {
      throw createError('VERIFIER_MISSING', {
        reason: `The download of the verifier's ${name} broke off.`,
        cause,
      });
    }
  }

  function filesOf(manifest: VerifierManifest, data: Map<string, ArrayBuffer>, sha: string) {
    const td = new TextDecoder();
    return {
      config: td.decode(data.get('config.json')),
      vocab: td.decode(data.get('vocab.txt')),
      weights: data.get('model.safetensors')!,
      weightsSha256: sha,
    };
  }

  /** The kept copy when it is complete and every file still matches; null otherwise (dropped). */
  async function fromCache(cache: BundleCache): Promise<VerifierBundleFiles | null> {
    const m = await cache.match(url(MANIFEST));
    if (!m) return null;
    try {
      const manifest = parseVerifierManifest(await m.text());
      const data = new Map<string, ArrayBuffer>();
      let sha = '';
      for (const name of VERIFIER_FILES) {
        const r = await cache.match(url(name));
        if (!r) throw createError('VERIFIER_CORRUPT', { reason: `${name} is not kept.` });
        const bytes = await r.arrayBuffer();
        const h = await checkFile(manifest, name, bytes);
        if (name === 'model.safetensors') sha = h;
        data.set(name, bytes);
      }
      return { ...filesOf(manifest, data, sha), source: 'cache' };
    } catch {
      // Damaged, partial or another version: drop it and fetch again.
      await Promise.all([MANIFEST, ...VERIFIER_FILES].map((n) => cache.delete(url(n))));
      return null;
    }
  }

  async function fromNetwork(cache: BundleCache | null): Promise<VerifierBundleFiles> {
    const manifest = parseVerifierManifest(new TextDecoder().decode(await download(MANIFEST)));
    const data = new Map<string, ArrayBuffer>();
    let sha = '';
    for (const name of VERIFIER_FILES) {
      const bytes = await download(name);
      const h = await checkFile(manifest, name, bytes);
      if (name === 'model.safetensors') sha = h;
      data.set(name, bytes);
    }
    if (cache) {
      try {
        for (const name of VERIFIER_FILES) {
          await cache.put(url(name), new Response(data.get(name)!.slice(0)));
        }
        await cache.put(url(MANIFEST), new Response(JSON.stringify(manifest)));
      } catch {
        // Quota or a closing tab: the copy is not committed (no manifest) and is fetched again.
      }
    }
    return { ...filesOf(manifest, data, sha), source: 'network' };
  }

  return {
    async load() {
      const cache = await openCache();
      const kept = cache ? await fromCache(cache) : null;
      if (kept) return kept;
      try {
        return await fromNetwork(cache);
      } catch (err) {
        throw isAppError(err)
          ? err
          : createError('VERIFIER_MISSING', {
              reason: 'The verifier could not be fetched.',
              cause: err,
            });
      }
    },
  };
}

/** In-memory BundleCache (tests; browsers without Cache Storage). */
export function createMemoryBundleCache(): BundleCache & { entries: Map<string, ArrayBuffer> } {
  const entries = new Map<string, ArrayBuffer>();
  return {
    entries,
    async match(u) {
      const b = entries.get(u);
      return b ? new Response(b.slice(0)) : undefined;
    },
    async put(u, r) {
      entries.set(u, await r.arrayBuffer());
    },
    async delete(u) {
      return entries.delete(u);
    },
  };
}
