// Keeping the library: asks the browser for persistent storage (navigator.storage.persist) so it
// is not evicted under storage pressure, and reports usage and quota. Owns: when to ask (first
// import, app install, the user's button), the 80 % quota warning, and the words for each state.
// navigator.storage and the flag store (localStorage) are injected; imports nothing.

/** The part of `navigator.storage` used here; every method may be missing (older browsers). */
export interface StorageManagerLike {
  persisted?: () => Promise<boolean>;
  persist?: () => Promise<boolean>;
  estimate?: () => Promise<{ usage?: number; quota?: number }>;
}

/** Remembers across sessions that we asked (localStorage in the app). */
export interface FlagStore {
  get(key: string): string | null;
  set(key: string, value: string): void;
}

export type PersistState = 'granted' | 'refused' | 'not-asked' | 'unsupported';

export interface StorageStatus {
  persist: PersistState;
  usage: number | null;
  quota: number | null;
  /** usage / quota, or null when the browser does not say. */
  fraction: number | null;
  /** At or past QUOTA_WARN_FRACTION of the quota. */
  nearlyFull: boolean;
}

/** Warn when the origin uses 80 % of its quota: the next import may fail with STORAGE_FULL. */
export const QUOTA_WARN_FRACTION = 0.8;

/** Why we ask: the first import asks once ever; installing and the user's button always ask. */
export type PersistTrigger = 'first-import' | 'install' | 'user';

export interface StoragePersistence {
  status(): Promise<StorageStatus>;
  /** Asks the browser to persist the origin's storage (see PersistTrigger), then reports. */
  request(trigger: PersistTrigger): Promise<StorageStatus>;
}

const ASKED = 'sift.persist.asked';
const REFUSED = 'sift.persist.refused';

export function createStoragePersistence(deps: {
  storage: StorageManagerLike | undefined;
  flags: FlagStore;
}): StoragePersistence {
  const { storage, flags } = deps;

  async function isPersisted(): Promise<boolean> {
    try {
      return (await storage?.persisted?.()) ?? false;
    } catch {
      return false;
    }
  }

  async function estimate(): Promise<Pick<StorageStatus, 'usage' | 'quota'>> {
    try {
      const e = await storage?.estimate?.();
      return { usage: e?.usage ?? null, quota: e?.quota ?? null };
    } catch {
      return { usage: null, quota: null };
    }
  }

  async function status(): Promise<StorageStatus> {
    const [persisted, { usage, quota }] = await Promise.all([isPersisted(), estimate()]);
    let persist: PersistState;
    if (persisted) persist = 'granted';
    else if (typeof storage?.persist !== 'function') persist = 'unsupported';
    else if (flags.get(REFUSED)) persist = 'refused';
    else persist = 'not-asked';
    const fraction = usage !== null && quota ? usage / quota : null;
    return {
      persist,
      usage,
      quota,
      fraction,
      nearlyFull: fraction !== null && fraction >= QUOTA_WARN_FRACTION,
    };
  }

  async function request(trigger: PersistTrigger): Promise<StorageStatus> {
    if (typeof storage?.persist !== 'function' || (await isPersisted())) return status();
    if (trigger === 'first-import' && flags.get(ASKED)) return status();
    flags.set(ASKED, '1');
    const granted = await storage.persist().catch(() => false);
    flags.set(REFUSED, granted ? '' : '1');
    return status();
  }

  return { status, request };
}

/** What the Settings card says about a status: one line each, `warning` only when it matters. */
export function describeStorage(
  s: StorageStatus,
  formatBytes: (n: number) => string,
): { usage: string | null; persistence: string; warning: string | null } {
  const usage =
    s.usage !== null && s.quota
      ? `Using ${formatBytes(s.usage)} of the ${formatBytes(s.quota)} this browser allows Sift (${Math.round((s.fraction ?? 0) * 100)} %).`
      : null;
  const warning = s.nearlyFull
    ? `Storage is ${Math.round((s.fraction ?? 0) * 100)} % full: new imports or model downloads may be refused. Delete documents or models you no longer need, or export your library.`
    : null;
  const persistence = {
    granted: 'The browser keeps your library: it will not evict it under storage pressure.',
    refused:
      'The browser refused persistent storage, so it may delete your library when the device runs low on space. Export your library as a backup; installing Sift as an app usually lets the browser grant it.',
    'not-asked':
      'Sift has not asked the browser to keep your library yet; it asks on your first import.',
    unsupported:
      'This browser cannot promise to keep your library (no persistent storage); export it as a backup.',
  }[s.persist];
  return { usage, persistence, warning };
}
