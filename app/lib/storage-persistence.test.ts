// When Sift asks for persistent storage, what it reports, and the 80 % quota warning, with an
// injected navigator.storage.
import { describe, expect, it } from 'vitest';
import { formatBytes } from './format';
import {
  createStoragePersistence,
  describeStorage,
  type FlagStore,
  type StorageManagerLike,
} from './storage-persistence';

function fakeStorage(opts: { grant: boolean; usage?: number; quota?: number }) {
  let persisted = false;
  const calls = { persist: 0 };
  const storage: StorageManagerLike = {
    persisted: () => Promise.resolve(persisted),
    persist: () => {
      calls.persist++;
      persisted = opts.grant;
      return Promise.resolve(opts.grant);
    },
    estimate: () => Promise.resolve({ usage: opts.usage ?? 0, quota: opts.quota ?? 1000 }),
  };
  return { storage, calls };
}

function memoryFlags(): FlagStore {
  const m = new Map<string, string>();
  return { get: (k) => m.get(k) ?? null, set: (k, v) => void m.set(k, v) };
}

describe('storage persistence', () => {
  it('asks once on the first import, and reports a grant', async () => {
    const { storage, calls } = fakeStorage({ grant: true });
    const p = createStoragePersistence({ storage, flags: memoryFlags() });
    expect((await p.status()).persist).toBe('not-asked');
    expect((await p.request('first-import')).persist).toBe('granted');
    await p.request('first-import');
    expect(calls.persist).toBe(1);
  });

  it('remembers a refusal, does not nag on later imports, but asks again on install', async () => {
    const { storage, calls } = fakeStorage({ grant: false });
    const flags = memoryFlags();
    const p = createStoragePersistence({ storage, flags });
    expect((await p.request('first-import')).persist).toBe('refused');
    // A new session (same flags) still knows it was refused, and imports do not ask again.
    const later = createStoragePersistence({ storage, flags });
    expect((await later.status()).persist).toBe('refused');
    await later.request('first-import');
    expect(calls.persist).toBe(1);
    await later.request('install');
    await later.request('user');
    expect(calls.persist).toBe(3);
  });

  it('says unsupported when the browser has no persist(), and never throws', async () => {
    const p = createStoragePersistence({ storage: undefined, flags: memoryFlags() });
    expect(await p.request('first-import')).toEqual({
      persist: 'unsupported',
      usage: null,
      quota: null,
      fraction: null,
      nearlyFull: false,
    });
    const broken: StorageManagerLike = {
      persisted: () => Promise.reject(new Error('x')),
      persist: () => Promise.reject(new Error('x')),
      estimate: () => Promise.reject(new Error('x')),
    };
    const q = createStoragePersistence({ storage: broken, flags: memoryFlags() });
    expect((await q.request('user')).persist).toBe('refused');
  });

  it('warns at 80 % of the quota, not below', async () => {
    const MB = 1024 * 1024;
    const below = createStoragePersistence({
      storage: fakeStorage({ grant: true, usage: 799 * MB, quota: 1000 * MB }).storage,
      flags: memoryFlags(),
    });
    const at = createStoragePersistence({
      storage: fakeStorage({ grant: true, usage: 800 * MB, quota: 1000 * MB }).storage,
      flags: memoryFlags(),
    });
    expect((await below.status()).nearlyFull).toBe(false);
    const full = await at.status();
    expect(full).toMatchObject({ nearlyFull: true, fraction: 0.8 });
    const words = describeStorage(full, formatBytes);
    expect(words.usage).toBe('Using 800.0 MB of the 1000.0 MB this browser allows Sift (80 %).');
    expect(words.warning).toMatch(/^Storage is 80 % full: new imports .* may be refused/);
    expect(describeStorage(await below.status(), formatBytes).warning).toBeNull();
  });

  it('tells the user plainly when persistence was refused', async () => {
    const p = createStoragePersistence({
      storage: fakeStorage({ grant: false }).storage,
      flags: memoryFlags(),
    });
    const words = describeStorage(await p.request('first-import'), formatBytes);
    expect(words.persistence).toMatch(/refused persistent storage.*Export your library/);
  });
});
